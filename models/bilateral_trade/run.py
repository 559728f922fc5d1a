"""run(params, progress): benchmarks, then every learner on a doubling grid of horizons and seeds."""

from __future__ import annotations

import math

import numpy as np

from models.bilateral_trade.benchmarks import BenchmarkValues, GbbSolution, compute_benchmarks
from models.bilateral_trade.distributions import ValuationDistribution
from models.bilateral_trade.experiment import LearnerRun, fit_slope, horizon_grid, phase_spans, run_learner
from models.bilateral_trade.market import GUARD
from models.bilateral_trade.params import LEARNER_NAMES, Params
from models.bilateral_trade.result import (
    BenchmarkSummary,
    DistributionSummary,
    LearnerCurves,
    LearnerSummary,
    PhaseSpan,
    PriceCouple,
    Result,
)
from models.bilateral_trade.scenarios import build_distribution
from models.bilateral_trade.schedule import LearnerSettings
from models.common.contract import Progress

__all__ = ["LEARNER_LABELS", "run"]

LEARNER_LABELS = {
    "fixed_price": "Best fixed price (WBB oracle)",
    "wbb_one_bit": "WBB explore-then-commit, one-bit",
    "wbb_two_bit": "WBB explore-then-commit, two-bit",
    "gbb_one_bit": "GBB three-phase learner, one-bit (the paper)",
    "gbb_full": "GBB learner, full feedback (reference)",
}
# the two-bit learner draws its exploration plan from the one-bit learner's seed: both post the
# same exploration couples, so their regret gap is what the second feedback bit buys
_SEED_OF = {"wbb_two_bit": "wbb_one_bit"}
_CHECKPOINTS = 200
_HEATMAP_BINS = 20


def _couples(solution: GbbSolution | None) -> list[PriceCouple]:
    if solution is None:
        return []
    return [
        PriceCouple(p=p, q=q, weight=w, gft=g, profit=r)
        for (p, q), w, g, r in zip(
            solution.pairs, solution.weights, solution.gft, solution.profit, strict=True
        )
    ]


def _benchmark_summary(b: BenchmarkValues) -> BenchmarkSummary:
    tol = 1e-9
    return BenchmarkSummary(
        first_best=b.first_best,
        fixed_price=b.fixed_price,
        fixed_price_x=b.fixed_price_x,
        wbb=b.wbb,
        wbb_grid=b.wbb_grid,
        gbb=b.gbb,
        gbb_method=b.gbb_method,
        gbb_lp=b.gbb_lp.value,
        lp_grid_size=b.grid_size,
        lp_support=_couples(b.gbb_lp),
        gbb_exact=None if b.gbb_exact is None else b.gbb_exact.value,
        exact_support=_couples(b.gbb_exact),
        gbb_over_fixed=b.gbb / b.fixed_price if b.fixed_price > 0 else None,
        fixed_le_gbb=b.fixed_price <= b.gbb + tol,
        gbb_le_first_best=b.gbb <= b.first_best + tol,
        gbb_le_twice_fixed=b.gbb <= 2 * b.fixed_price + tol,
    )


def _distribution_summary(kind: str, dist: ValuationDistribution) -> DistributionSummary:
    bound = dist.density_bound()
    return DistributionSummary(
        kind=kind,
        label=dist.label,
        density_bound=None if math.isinf(bound) else bound,
        discrete=dist.is_discrete(),
    )


def _notes(product_form: list[bool]) -> str:
    """Which GFT estimator the two-bit learner committed with, over the seeds at the horizon T."""
    if not product_form:
        return ""
    used, seeds = sum(product_form), len(product_form)
    return (
        f"product form G(x) I_S(x) + F(x) I_B(x) in {used}/{seeds} seeds (independence not rejected); "
        f"joint one-bit estimate in {seeds - used}/{seeds} (dependence of s and b detected)"
    )


def _heatmap(run: LearnerRun) -> list[list[float]]:
    """Fraction of rounds spent on each (p, q) bin of a 20 x 20 grid over [0, 1]^2."""
    edges = np.linspace(0.0, 1.0, _HEATMAP_BINS + 1)
    counts, _, _ = np.histogram2d(run.seller_price, run.buyer_price, bins=[edges, edges])
    return (counts / max(len(run.seller_price), 1)).tolist()


def run(params: Params, progress: Progress) -> Result:
    """Compute the benchmarks, then run each learner for every horizon of the doubling grid and seed."""
    dist = build_distribution(params.distribution)
    progress(0.01, "computing benchmarks (exact forms and the K-grid LP)")
    bench = compute_benchmarks(dist, params.grid_size)
    adv = params.advanced
    settings = LearnerSettings(
        adv.grid_points, adv.explore_scale, adv.beta_scale, adv.confidence_scale, adv.batch_growth
    )
    horizons = horizon_grid(params.horizon, adv.min_horizon_exponent)
    checkpoints = np.unique(np.linspace(0, params.horizon, _CHECKPOINTS + 1)[1:].astype(int))
    total_work = sum(horizons) * params.seeds * len(params.learners)
    work_done = 0
    per_learner: dict[str, dict[str, list[list[float]]]] = {
        name: {"scan_gbb": [], "scan_wbb": [], "scan_profit": []} for name in params.learners
    }
    curves: dict[str, dict[str, list[list[float]]]] = {
        name: {"gbb": [], "wbb": [], "profit": []} for name in params.learners
    }
    final: dict[str, dict[str, list[float]]] = {
        name: {"gbb": [], "wbb": [], "profit": [], "gft": [], "guard": []} for name in params.learners
    }
    product_form: dict[str, list[bool]] = {name: [] for name in params.learners}
    phases: dict[str, list[PhaseSpan]] = {}
    grid_points: dict[str, int] = {}
    heatmap_learner = next(
        (n for n in ("gbb_one_bit", "gbb_full") if n in params.learners), params.learners[0]
    )
    heatmap: list[list[float]] = []
    min_profit = {name: 0.0 for name in params.learners}

    for seed_index in range(params.seeds):
        scan: dict[str, dict[str, list[float]]] = {
            name: {"gbb": [], "wbb": [], "profit": []} for name in params.learners
        }
        for horizon in horizons:
            pool_rng = np.random.default_rng([params.seed, seed_index, horizon])
            pools = (dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon))
            for name in params.learners:
                learner_rng = np.random.default_rng(
                    [params.seed, seed_index, horizon, LEARNER_NAMES.index(_SEED_OF.get(name, name)) + 1]
                )
                outcome = run_learner(name, dist, pools, learner_rng, settings, bench.fixed_price_x)
                regret_gbb, regret_wbb = outcome.regret(bench.gbb), outcome.regret(bench.wbb)
                profit = outcome.cumulative_profit()
                min_profit[name] = min(min_profit[name], float(profit.min(initial=0.0)))
                scan[name]["gbb"].append(float(regret_gbb[-1]))
                scan[name]["wbb"].append(float(regret_wbb[-1]))
                scan[name]["profit"].append(float(profit[-1]))
                if horizon == params.horizon:
                    index = checkpoints - 1
                    curves[name]["gbb"].append(regret_gbb[index].tolist())
                    curves[name]["wbb"].append(regret_wbb[index].tolist())
                    curves[name]["profit"].append(profit[index].tolist())
                    record = final[name]
                    record["gbb"].append(float(regret_gbb[-1]))
                    record["wbb"].append(float(regret_wbb[-1]))
                    record["profit"].append(float(profit[-1]))
                    record["gft"].append(float(outcome.expected_gft.mean()))
                    record["guard"].append(float(np.count_nonzero(outcome.phase == GUARD)))
                    if "product_form" in outcome.info:
                        product_form[name].append(bool(outcome.info["product_form"]))
                    if seed_index == 0:
                        phases[name] = [PhaseSpan(**span) for span in phase_spans(outcome.phase)]  # type: ignore[arg-type]
                        grid_points[name] = int(outcome.info.get("grid_points", 0))  # type: ignore[call-overload]
                        if name == heatmap_learner:
                            heatmap = _heatmap(outcome)
                work_done += horizon
                progress(
                    min(0.99, 0.02 + 0.97 * work_done / total_work),
                    f"seed {seed_index + 1}/{params.seeds}: {name} done for T = {horizon}",
                )
        for name in params.learners:
            per_learner[name]["scan_gbb"].append(scan[name]["gbb"])
            per_learner[name]["scan_wbb"].append(scan[name]["wbb"])
            per_learner[name]["scan_profit"].append(scan[name]["profit"])

    learners: dict[str, LearnerSummary] = {}
    learner_curves: dict[str, LearnerCurves] = {}
    for name in params.learners:
        mean_gbb = np.mean(per_learner[name]["scan_gbb"], axis=0).tolist()
        mean_wbb = np.mean(per_learner[name]["scan_wbb"], axis=0).tolist()
        record = final[name]
        learners[name] = LearnerSummary(
            label=LEARNER_LABELS[name],
            final_regret_vs_gbb=float(np.mean(record["gbb"])),
            final_regret_vs_wbb=float(np.mean(record["wbb"])),
            regret_slope_vs_gbb=fit_slope(horizons, mean_gbb),
            regret_slope_vs_wbb=fit_slope(horizons, mean_wbb),
            min_cumulative_profit=min_profit[name],
            final_cumulative_profit=float(np.mean(record["profit"])),
            average_gft=float(np.mean(record["gft"])),
            grid_points=grid_points[name],
            guard_rounds=float(np.mean(record["guard"])),
            phases=phases[name],
            notes=_notes(product_form[name]),
        )
        learner_curves[name] = LearnerCurves(
            regret_vs_gbb=curves[name]["gbb"],
            regret_vs_wbb=curves[name]["wbb"],
            cumulative_profit=curves[name]["profit"],
            scan_regret_vs_gbb=mean_gbb,
            scan_regret_vs_wbb=mean_wbb,
            scan_per_seed_vs_gbb=per_learner[name]["scan_gbb"],
            scan_per_seed_vs_wbb=per_learner[name]["scan_wbb"],
            scan_profit=per_learner[name]["scan_profit"],
        )
    sample_s, sample_b = dist.sample(np.random.default_rng([params.seed, 99]), 1500)
    progress(1.0, "done")
    return Result(
        distribution=_distribution_summary(params.distribution.kind, dist),
        benchmarks=_benchmark_summary(bench),
        learners=learners,
        horizon=params.horizon,
        seeds=params.seeds,
        checkpoints=checkpoints.tolist(),
        curves=learner_curves,
        scan_horizons=horizons,
        heatmap_learner=heatmap_learner,
        heatmap_edges=np.linspace(0.0, 1.0, _HEATMAP_BINS + 1).tolist(),
        heatmap_counts=heatmap,
        valuation_sample=[
            (round(float(s), 5), round(float(b), 5)) for s, b in zip(sample_s, sample_b, strict=True)
        ],
    )
