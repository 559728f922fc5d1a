"""run(params, progress): benchmarks, then every learner on a doubling grid of horizons and seeds."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from models.bilateral_trade.benchmarks import BenchmarkValues, GbbSolution, compute_benchmarks
from models.bilateral_trade.claims import measure_claims
from models.bilateral_trade.distributions import ValuationDistribution
from models.bilateral_trade.experiment import (
    crossing_round,
    fit_power_law,
    fit_slope,
    horizon_grid,
    run_learner,
    win_horizon,
    win_horizon_at_rate,
)
from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.params import Params
from models.bilateral_trade.result import (
    BenchmarkSummary,
    DistributionSummary,
    LearnerCurves,
    LearnerSummary,
    PhaseRegret,
    PhaseSpan,
    PriceCouple,
    Result,
)
from models.bilateral_trade.scenarios import build_distribution
from models.bilateral_trade.schedule import LearnerSettings
from models.bilateral_trade.stream_market import HEAT_BINS
from models.bilateral_trade.streaming import STREAMED, StreamRun, from_log, stream_learner
from models.common.contract import Progress
from models.common.progress import MonotoneProgress

__all__ = ["run"]

_CHECKPOINTS = 200
_GRID_OFFSET_STREAM = 7919  # the seeds' grid offsets come from their own stream
_WIN_FIT_POINTS = 4  # horizons (the largest ones) of the fit that extrapolates the winning horizon


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
        gbb_lower=b.bracket.lower,
        gbb_upper=b.bracket.upper,
        gbb_lower_method=b.bracket.lower_method,
        gbb_upper_method=b.bracket.upper_method,
        gbb_multiplier=b.bracket.multiplier,
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
    bounded = math.isfinite(bound)
    badge = (
        f"density bounded ({bound:.3g}): the T^(3/4) guarantee applies"
        if bounded
        else "density unbounded: the T^(3/4) guarantee does not apply"
    )
    return DistributionSummary(
        kind=kind,
        label=dist.label,
        density_bound=bound if bounded else None,
        discrete=dist.is_discrete(),
        guarantee_applies=bounded,
        badge=badge,
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


@dataclass
class _Tally:
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


def _one_run(name: str, params: Params, dist: ValuationDistribution, bench: BenchmarkValues, horizon: int,
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


def _simulate(
    params: Params,
    dist: ValuationDistribution,
    bench: BenchmarkValues,
    progress: MonotoneProgress,
    heatmap_learner: str,
) -> tuple[dict[str, _Tally], list[int], np.ndarray, list[float]]:
    """Every learner on every horizon of the doubling grid and every seed (common random numbers:
    the learners of one seed and horizon read the same valuation pools and grid offset)."""
    adv = params.advanced
    settings = LearnerSettings(
        adv.grid_points, adv.explore_scale, adv.beta_scale, adv.confidence_scale, adv.batch_growth
    )
    horizons = horizon_grid(params.horizon, adv.min_horizon_exponent)
    checkpoints = np.unique(np.linspace(0, params.horizon, _CHECKPOINTS + 1)[1:].astype(int))
    tallies: dict[str, _Tally] = {name: _Tally() for name in params.learners}
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
                outcome = _one_run(name, params, dist, bench, horizon, seed_index, offset, checkpoints, settings)
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


def _summary(
    name: str, tally: _Tally, horizons: list[int], bench: BenchmarkValues, checkpoints: np.ndarray
) -> LearnerSummary:
    """One learner's table row: seed means, median and IQR of the per-seed slopes, the crossing."""
    spec = LEARNERS[name]
    slopes = [fit_slope(horizons, per_seed) for per_seed in tally.scan_gbb]
    finite = [s for s in slopes if s is not None]
    mean_gbb = np.mean(tally.scan_gbb, axis=0).tolist()
    gap = bench.gbb - bench.fixed_price
    crossing = None
    if name != "fixed_price":
        crossing = crossing_round(np.mean(tally.curve_gbb, axis=0), gap, checkpoints)
    fit = fit_power_law(horizons[-_WIN_FIT_POINTS:], mean_gbb[-_WIN_FIT_POINTS:])
    can_win = spec.family == "gbb"  # a WBB learner's regret vs GBB is at least gap x T
    final_gbb = float(np.mean([s[-1] for s in tally.scan_gbb]))
    phase_means = {key: float(np.mean([p[key] for p in tally.phase_regret])) for key in tally.phase_regret[0]}
    return LearnerSummary(
        label=spec.label,
        family=spec.family,
        final_regret_vs_gbb=final_gbb,
        final_regret_vs_wbb=float(np.mean([s[-1] for s in tally.scan_wbb])),
        regret_slope_vs_gbb=float(np.median(finite)) if finite else None,
        regret_slope_iqr=(float(np.percentile(finite, 25)), float(np.percentile(finite, 75)))
        if finite
        else None,
        regret_slopes_per_seed=slopes,
        regret_slope_vs_wbb=fit_slope(horizons, np.mean(tally.scan_wbb, axis=0).tolist()),
        regret_by_phase=PhaseRegret(**phase_means),
        crossing_round=crossing,
        win_horizon=win_horizon(fit[0], fit[1], gap) if can_win and fit is not None else None,
        win_horizon_at_rate=win_horizon_at_rate(horizons[-1], final_gbb, gap) if can_win else None,
        min_cumulative_profit=tally.min_profit,
        min_profit_per_seed=tally.seed_min_profit,
        final_cumulative_profit=float(np.mean([s[-1] for s in tally.scan_profit])),
        average_gft=float(np.mean(tally.final_gft)),
        grid_points=tally.grid_points,
        guard_rounds=float(np.mean(tally.guard)),
        phases=tally.phases,
        notes=_notes(tally.product_form),
    )


def _curves(tally: _Tally) -> LearnerCurves:
    return LearnerCurves(
        regret_vs_gbb=tally.curve_gbb,
        regret_vs_wbb=tally.curve_wbb,
        cumulative_profit=tally.curve_profit,
        scan_regret_vs_gbb=np.mean(tally.scan_gbb, axis=0).tolist(),
        scan_regret_vs_wbb=np.mean(tally.scan_wbb, axis=0).tolist(),
        scan_per_seed_vs_gbb=tally.scan_gbb,
        scan_per_seed_vs_wbb=tally.scan_wbb,
        scan_profit=tally.scan_profit,
    )


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
    tallies, horizons, checkpoints, offsets = _simulate(
        params, dist, bench, MonotoneProgress(monotone.stage(0.05, 0.98)), heatmap_learner
    )
    monotone(0.98, "summarising regret, slopes and phases")
    learners = {name: _summary(name, t, horizons, bench, checkpoints) for name, t in tallies.items()}
    sample_s, sample_b = dist.sample(np.random.default_rng([params.seed, 99]), 1500)
    monotone(1.0, "done")
    result = Result(
        distribution=_distribution_summary(params.distribution.kind, dist),
        benchmarks=_benchmark_summary(bench),
        learners=learners,
        horizon=params.horizon,
        seeds=params.seeds,
        grid_offsets=offsets,
        checkpoints=checkpoints.tolist(),
        curves={name: _curves(t) for name, t in tallies.items()},
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
