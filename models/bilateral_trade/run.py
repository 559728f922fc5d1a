"""run(params, progress): benchmarks, then every learner on a doubling grid of horizons and seeds (the
simulation stage in run_simulate.py, the summary stage in run_summary.py)."""

from __future__ import annotations

import numpy as np

from models.bilateral_trade.benchmarks import compute_benchmarks
from models.bilateral_trade.claims import measure_claims
from models.bilateral_trade.params import Params
from models.bilateral_trade.result import Result
from models.bilateral_trade.run_simulate import simulate
from models.bilateral_trade.run_summary import (
    benchmark_summary,
    distribution_summary,
    learner_curves,
    learner_summary,
)
from models.bilateral_trade.scenarios import build_distribution
from models.bilateral_trade.stream_market import HEAT_BINS
from models.common.contract import Progress
from models.common.progress import MonotoneProgress

__all__ = ["run"]


def run(params: Params, progress: Progress) -> Result:
    """Benchmarks (with the certified GBB bracket), then each learner on every horizon and seed."""
    monotone = MonotoneProgress(progress)
    dist = build_distribution(params.distribution)
    monotone(0.0, "computing benchmarks (exact forms, the grid LP and the certified GBB bracket)")
    bench = compute_benchmarks(dist, params.grid_size)
    heatmap_learner = next(
        (n for n in ("gbb_one_bit", "gbb_one_bit_paper", "gbb_full") if n in params.learners),
        params.learners[0],
    )
    tallies, horizons, checkpoints, offsets = simulate(
        params, dist, bench, MonotoneProgress(monotone.stage(0.05, 0.98)), heatmap_learner
    )
    monotone(0.98, "summarising regret, slopes and phases")
    learners = {name: learner_summary(name, t, horizons, bench, checkpoints) for name, t in tallies.items()}
    sample_s, sample_b = dist.sample(np.random.default_rng([params.seed, 99]), 1500)
    monotone(1.0, "done")
    result = Result(
        distribution=distribution_summary(params.distribution.kind, dist),
        benchmarks=benchmark_summary(bench),
        learners=learners,
        horizon=params.horizon,
        seeds=params.seeds,
        grid_offsets=offsets,
        checkpoints=checkpoints.tolist(),
        curves={name: learner_curves(t) for name, t in tallies.items()},
        scan_horizons=horizons,
        heatmap_learner=heatmap_learner,
        heatmap_edges=np.linspace(0.0, 1.0, HEAT_BINS + 1).tolist(),
        heatmap_counts=tallies[heatmap_learner].heatmap,
        valuation_sample=[
            (round(float(s), 5), round(float(b), 5)) for s, b in zip(sample_s, sample_b, strict=True)
        ],
    )
    result.claims = measure_claims(result, params.seed)
    return result
