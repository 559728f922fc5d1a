"""The simulation stage of run(): every learner on every horizon of the doubling grid and every seed."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.bilateral_trade.benchmarks import BenchmarkValues
from models.bilateral_trade.distributions import ValuationDistribution
from models.bilateral_trade.experiment import horizon_grid, run_learner
from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.params import Params
from models.bilateral_trade.result import PhaseSpan
from models.bilateral_trade.schedule import LearnerSettings
from models.bilateral_trade.streaming import STREAMED, StreamRun, from_log, stream_learner
from models.common.progress import MonotoneProgress

__all__ = ["Tally", "one_run", "simulate"]

_CHECKPOINTS = 200
_GRID_OFFSET_STREAM = 7919  # the seeds' grid offsets come from their own stream


@dataclass
class Tally:
    """Everything one learner accumulates over seeds and horizons."""

    scan_gbb: list[list[float]] = field(default_factory=list)  # [seed][horizon]
    scan_wbb: list[list[float]] = field(default_factory=list)
    scan_profit: list[list[float]] = field(default_factory=list)
    curve_gbb: list[list[float]] = field(default_factory=list)  # [seed][checkpoint]
    curve_wbb: list[list[float]] = field(default_factory=list)
    curve_profit: list[list[float]] = field(default_factory=list)
    phase_regret: list[dict[str, float]] = field(default_factory=list)
    final_gft: list[float] = field(default_factory=list)
    guard: list[float] = field(default_factory=list)
    product_form: list[bool] = field(default_factory=list)
    min_profit: float = 0.0
    seed_min_profit: list[float] = field(default_factory=list)
    phases: list[PhaseSpan] = field(default_factory=list)
    grid_points: int = 0
    heatmap: list[list[float]] = field(default_factory=list)

    def add_final(self, outcome: StreamRun, bench: BenchmarkValues) -> None:
        """Record the run at the largest horizon T."""
        self.curve_gbb.append(outcome.checkpoint_regret(bench.gbb).tolist())
        self.curve_wbb.append(outcome.checkpoint_regret(bench.wbb).tolist())
        self.curve_profit.append(outcome.checkpoint_profit().tolist())
        self.phase_regret.append(outcome.regret_by_phase(bench.gbb))
        self.final_gft.append(outcome.mean_gft())
        self.guard.append(outcome.guard_rounds())
        if outcome.product_form is not None:
            self.product_form.append(outcome.product_form)
        if not self.phases:
            self.phases = [PhaseSpan(**span) for span in outcome.spans()]  # type: ignore[arg-type]
            self.grid_points = outcome.grid_points


def one_run(name: str, params: Params, dist: ValuationDistribution, bench: BenchmarkValues, horizon: int,
             seed_index: int, offset: float, checkpoints: np.ndarray, settings: LearnerSettings) -> StreamRun:
    """One learner on one horizon and seed: streamed (the paper's learner, the fixed price) or per round
    (common random numbers: the per-round learners of one seed and horizon read the same valuation pools)."""
    spec = LEARNERS[name]
    learner_rng = np.random.default_rng([params.seed, seed_index, horizon, spec.stream])
    points = checkpoints if horizon == params.horizon else np.array([horizon])
    if name in STREAMED:
        return stream_learner(name, dist, learner_rng, horizon, points, bench.fixed_price_x, offset)
    pool_rng = np.random.default_rng([params.seed, seed_index, horizon])
    pools = (dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon))
    outcome = run_learner(name, dist, pools, learner_rng, settings, bench.fixed_price_x, offset)
    return from_log(outcome, points)


def simulate(
    params: Params,
    dist: ValuationDistribution,
    bench: BenchmarkValues,
    progress: MonotoneProgress,
    heatmap_learner: str,
) -> tuple[dict[str, Tally], list[int], np.ndarray, list[float]]:
    """Every learner on every horizon of the doubling grid and every seed (common random numbers:
    the learners of one seed and horizon read the same valuation pools and grid offset)."""
    adv = params.advanced
    settings = LearnerSettings(
        adv.grid_points, adv.explore_scale, adv.beta_scale, adv.confidence_scale, adv.batch_growth
    )
    horizons = horizon_grid(params.horizon, adv.min_horizon_exponent)
    checkpoints = np.unique(np.linspace(0, params.horizon, _CHECKPOINTS + 1)[1:].astype(int))
    tallies: dict[str, Tally] = {name: Tally() for name in params.learners}
    total_work = sum(horizons) * params.seeds * len(params.learners)
    work_done = 0
    offsets = []
    for seed_index in range(params.seeds):
        offset = float(np.random.default_rng([params.seed, seed_index, _GRID_OFFSET_STREAM]).random())
        offsets.append(offset)
        scans: dict[str, tuple[list[float], list[float], list[float]]] = {
            name: ([], [], []) for name in params.learners
        }
        for horizon in horizons:
            for name in params.learners:
                outcome = one_run(name, params, dist, bench, horizon, seed_index, offset, checkpoints, settings)
                tally = tallies[name]
                tally.min_profit = min(tally.min_profit, outcome.min_profit())
                if len(tally.seed_min_profit) <= seed_index:
                    tally.seed_min_profit.append(0.0)
                tally.seed_min_profit[seed_index] = min(tally.seed_min_profit[seed_index], outcome.min_profit())
                scan_gbb, scan_wbb, scan_profit = scans[name]
                scan_gbb.append(outcome.final_regret(bench.gbb))
                scan_wbb.append(outcome.final_regret(bench.wbb))
                scan_profit.append(outcome.final_profit())
                if horizon == params.horizon:
                    tally.add_final(outcome, bench)
                    if seed_index == 0 and name == heatmap_learner:
                        tally.heatmap = outcome.heatmap()
                work_done += horizon
                progress(
                    work_done / total_work,
                    f"seed {seed_index + 1}/{params.seeds}: {name} done for T = {horizon}",
                )
        for learner, (scan_gbb, scan_wbb, scan_profit) in scans.items():
            tallies[learner].scan_gbb.append(scan_gbb)
            tallies[learner].scan_wbb.append(scan_wbb)
            tallies[learner].scan_profit.append(scan_profit)
    return tallies, horizons, checkpoints, offsets
