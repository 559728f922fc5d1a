"""The summary stage of run(): benchmark, distribution and per-learner rows and curves of the Result."""

from __future__ import annotations

import math

import numpy as np

from models.bilateral_trade.benchmarks import BenchmarkValues, GbbSolution
from models.bilateral_trade.distributions import ValuationDistribution
from models.bilateral_trade.experiment import (
    crossing_round,
    fit_power_law,
    fit_slope,
    win_horizon,
    win_horizon_at_rate,
)
from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.result import (
    BenchmarkSummary,
    DistributionSummary,
    LearnerCurves,
    LearnerSummary,
    PhaseRegret,
    PriceCouple,
)
from models.bilateral_trade.run_simulate import Tally

__all__ = ["benchmark_summary", "distribution_summary", "learner_curves", "learner_summary"]

_WIN_FIT_POINTS = 4  # horizons (the largest ones) of the fit that extrapolates the winning horizon


def _couples(solution: GbbSolution | None) -> list[PriceCouple]:
    """The support of a GBB solution as price couples (none when there is no solution)."""
    if solution is None:
        return []
    return [
        PriceCouple(p=p, q=q, weight=w, gft=g, profit=r)
        for (p, q), w, g, r in zip(
            solution.pairs, solution.weights, solution.gft, solution.profit, strict=True
        )
    ]


def benchmark_summary(b: BenchmarkValues) -> BenchmarkSummary:
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


def distribution_summary(kind: str, dist: ValuationDistribution) -> DistributionSummary:
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


def learner_summary(
    name: str, tally: Tally, horizons: list[int], bench: BenchmarkValues, checkpoints: np.ndarray
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


def learner_curves(tally: Tally) -> LearnerCurves:
    """One learner's figure data: per-seed curves at the checkpoints and the horizon scan."""
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
