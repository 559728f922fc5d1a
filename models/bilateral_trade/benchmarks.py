"""Benchmarks: first best, best fixed price, best WBB pair and the GBB optimum (K-grid LP and exact)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linprog, minimize_scalar

from models.bilateral_trade.bracket import GbbBracket, lagrangian_upper_bound
from models.bilateral_trade.distributions import (
    EPS,
    GaussianCopula,
    RectangleMixture,
    ValuationDistribution,
    gft_table,
)

__all__ = [
    "BenchmarkValues",
    "GbbSolution",
    "best_fixed_price",
    "compute_benchmarks",
    "exact_discrete_gbb",
    "gbb_bracket",
    "gbb_lp",
    "price_grid",
    "two_pair_optimum",
]


@dataclass
class GbbSolution:
    """A distribution over price couples: its value (per-round GFT), support pairs and weights."""

    value: float
    pairs: list[tuple[float, float]]
    weights: list[float]
    gft: list[float] = field(default_factory=list)
    profit: list[float] = field(default_factory=list)
    multiplier: float = 0.0  # dual of the budget constraint (lambda >= 0)


@dataclass
class BenchmarkValues:
    """Per-round GFT of each benchmark (Lunghi et al. 2026)."""

    first_best: float
    fixed_price: float
    fixed_price_x: float
    wbb: float
    wbb_grid: float
    gbb: float
    gbb_method: str
    gbb_lp: GbbSolution
    gbb_exact: GbbSolution | None
    grid_size: int
    bracket: GbbBracket


def price_grid(k: int) -> np.ndarray:
    """K equally spaced prices 0, 1/(K-1), ..., 1."""
    return np.linspace(0.0, 1.0, k)


def _diagonal_gft(dist: ValuationDistribution, x: np.ndarray) -> np.ndarray:
    """GFT(x, x) of the fixed prices x."""
    if isinstance(dist, GaussianCopula):
        return np.diag(gft_table(dist, x[:, None], x[None, :])["gft"])
    return gft_table(dist, x, x)["gft"]


def best_fixed_price(dist: ValuationDistribution) -> tuple[float, float]:
    """(max_x GFT(x, x), argmax): exact for rectangle mixtures, where GFT(x, x) is piecewise cubic.

    On each piece between breakpoints the cubic is recovered from 4 values and its stationary
    points are checked; breakpoints themselves are candidates because atoms trade at equality.
    """
    if isinstance(dist, RectangleMixture):
        cuts = dist.breakpoints()
        candidates = [cuts]
        for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
            if hi - lo < 1e-9:
                continue
            xs = lo + (hi - lo) * np.array([0.2, 0.4, 0.6, 0.8])
            cubic = np.polyfit(xs - lo, _diagonal_gft(dist, xs), 3)
            roots = np.roots(np.polyder(cubic)) if np.any(cubic[:-1]) else np.array([])
            real = roots[np.abs(roots.imag) < 1e-12].real
            inside = real[(real > 0) & (real < hi - lo)] + lo
            candidates.append(inside)
            candidates.append(np.array([0.5 * (lo + hi)]))
        x = np.concatenate(candidates)
        values = _diagonal_gft(dist, x)
        best = int(np.argmax(values))
        return float(values[best]), float(x[best])
    xs = np.linspace(0.0, 1.0, 1001)
    values = _diagonal_gft(dist, xs)
    i = int(np.argmax(values))
    lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
    found = minimize_scalar(
        lambda x: -float(_diagonal_gft(dist, np.array([x]))[0]), bounds=(lo, hi), method="bounded"
    )
    if -found.fun > values[i]:
        return float(-found.fun), float(found.x)
    return float(values[i]), float(xs[i])


def gbb_lp(pairs: np.ndarray, gft: np.ndarray, profit: np.ndarray) -> GbbSolution:
    """max sum_k x_k GFT_k s.t. sum_k x_k profit_k >= 0, sum_k x_k = 1, x >= 0 (scipy HiGHS).

    The LP has two constraints, so a vertex optimum has at most two price couples in its support.
    """
    n = len(gft)
    result = linprog(
        -gft,
        A_ub=-profit[None, :],
        b_ub=np.zeros(1),
        A_eq=np.ones((1, n)),
        b_eq=np.ones(1),
        bounds=(0, None),
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"GBB linear program failed: {result.message}")
    weights = np.asarray(result.x)
    support = np.flatnonzero(weights > 1e-9)
    support = support[np.argsort(-weights[support])]
    return GbbSolution(
        value=float(-result.fun),
        pairs=[(float(pairs[k, 0]), float(pairs[k, 1])) for k in support],
        weights=[float(weights[k]) for k in support],
        gft=[float(gft[k]) for k in support],
        profit=[float(profit[k]) for k in support],
        multiplier=float(-result.ineqlin.marginals[0]),
    )


_CHORD_CELLS = 1 << 18  # left x right Pareto pairs searched at once (else the hull walk below)


def _best_chord(gft: np.ndarray, profit: np.ndarray, order: np.ndarray,
                level: float) -> tuple[float, list[int], list[float]] | None:
    """The upper concave envelope of the Pareto points `order` (profit increasing, GFT decreasing) at
    `level`, as the best chord from a point left of it (profit < level) to one at or right of it: the
    same value as the hull walk, in a few vector operations. None when no point reaches `level` or
    the pairs are too many (the caller walks the hull)."""
    left, right = order[profit[order] < level], order[profit[order] >= level]
    if len(left) == 0 or len(right) == 0 or len(left) * len(right) > _CHORD_CELLS:
        return None
    p_a, p_b = profit[left][:, None], profit[right][None, :]
    w_b = (level - p_a) / (p_b - p_a)
    values = (1.0 - w_b) * gft[left][:, None] + w_b * gft[right][None, :]
    i, j = np.unravel_index(int(np.argmax(values)), values.shape)
    w = float(w_b[i, j])
    if w >= 1.0 - 1e-15:
        return float(gft[right[j]]), [int(right[j])], [1.0]
    return float(values[i, j]), [int(left[i]), int(right[j])], [1.0 - w, w]


def two_pair_optimum(
    gft: np.ndarray, profit: np.ndarray, slack: float = 0.0
) -> tuple[float, list[int], list[float]]:
    """Same LP as `gbb_lp` with constraint sum x profit >= -slack, via the upper concave hull.

    The value is the upper concave envelope of the points (profit_k, GFT_k) at profit = -slack
    (or the unconstrained best point if that one is already feasible). Fast; used by the learners.
    """
    best = int(np.argmax(gft))
    if profit[best] >= -slack:
        return float(gft[best]), [best], [1.0]
    # only Pareto points (no other point with both more profit and more GFT) can be on the hull
    by_profit = np.lexsort((gft, -profit))  # profit decreasing, ties: larger GFT last
    by_profit = by_profit[::-1][np.unique(profit[by_profit[::-1]], return_index=True)[1]][::-1]
    running = np.maximum.accumulate(gft[by_profit])
    pareto = by_profit[np.concatenate(([True], gft[by_profit][1:] > running[:-1]))]
    order = pareto[::-1]  # profit increasing
    chord = _best_chord(gft, profit, order, -slack)
    if chord is not None:
        return chord
    hull: list[int] = []  # upper hull, profit increasing
    for k in order:
        if hull and profit[hull[-1]] == profit[k]:
            continue  # same abscissa, lower or equal GFT
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (profit[b] - profit[a]) * (gft[k] - gft[a]) - (gft[b] - gft[a]) * (profit[k] - profit[a])
            if cross >= 0:
                hull.pop()
            else:
                break
        hull.append(int(k))
    level = -slack
    for a, b in zip(hull[:-1], hull[1:], strict=True):
        if profit[a] <= level <= profit[b]:
            if profit[b] - profit[a] < 1e-15:
                return float(gft[b]), [b], [1.0]
            w_b = (level - profit[a]) / (profit[b] - profit[a])
            return float((1 - w_b) * gft[a] + w_b * gft[b]), [a, b], [1.0 - w_b, w_b]
    # level above every hull point: take the best feasible single point, or the most profitable one
    feasible = np.flatnonzero(profit >= level)
    if len(feasible) == 0:
        k = int(np.argmax(profit))
        return float(gft[k]), [k], [1.0]
    k = int(feasible[np.argmax(gft[feasible])])
    return float(gft[k]), [k], [1.0]


def exact_discrete_gbb(dist: RectangleMixture) -> GbbSolution:
    """Exact continuous GBB optimum for a discrete D: an LP over the atom-corner price couples.

    For fixed trading atoms the profit q - p is largest at p = a seller atom and q = a buyer atom,
    so these couples (plus a no-trade couple) dominate every other couple.
    """
    s_values = sorted({r.s_lo for r in dist.rectangles} | {-1.0})
    b_values = sorted({r.b_lo for r in dist.rectangles} | {2.0})
    pairs = np.array([(p, q) for p in s_values for q in b_values])
    table = gft_table(dist, pairs[:, 0], pairs[:, 1])
    solution = gbb_lp(pairs, table["gft"], table["profit"])
    solution.pairs = [(min(max(p, 0.0), 1.0), min(max(q, 0.0), 1.0)) for p, q in solution.pairs]
    return solution


def _refined_lp(dist: ValuationDistribution, coarse: GbbSolution, step: float) -> GbbSolution:
    """The LP over the coarse support's neighbourhoods at a 10x finer step (plus the coarse support):
    still a restriction of the continuous problem, so still a lower bound, usually a tighter one."""
    offsets = np.linspace(-2 * step, 2 * step, 41)
    points = [np.asarray(coarse.pairs)]
    for p0, q0 in coarse.pairs:
        p, q = np.meshgrid(np.clip(p0 + offsets, 0, 1), np.clip(q0 + offsets, 0, 1), indexing="ij")
        points.append(np.stack([p.ravel(), q.ravel()], axis=1))
    pairs = np.unique(np.concatenate(points), axis=0)
    table = gft_table(dist, pairs[:, 0], pairs[:, 1])
    return gbb_lp(pairs, table["gft"], table["profit"])


def gbb_bracket(
    dist: ValuationDistribution, lp: GbbSolution, fixed_value: float, first_best: float, step: float
) -> GbbBracket:
    """gbb_lower <= GBB <= gbb_upper: exact for discrete D; otherwise the best restricted LP (or the
    fixed price, itself GBB-feasible) below, and above the Lagrangian bound at the LP's multiplier
    (certified for bounded marginal densities) or the first best."""
    if isinstance(dist, RectangleMixture) and dist.is_discrete():
        exact = exact_discrete_gbb(dist).value
        method = "exact LP over the atom couples"
        return GbbBracket(exact, exact, method, method, None)
    lower, lower_method = lp.value, "price-grid LP (HiGHS)"
    multiplier = lp.multiplier
    if lp.pairs:
        refined = _refined_lp(dist, lp, step)
        multiplier = refined.multiplier  # the finer LP's multiplier is closer to the continuous one
        if refined.value > lower:
            lower, lower_method = refined.value, "price-grid LP refined around its support"
    if fixed_value > lower:
        lower, lower_method = fixed_value, "best fixed price (a GBB-feasible policy)"
    upper = lagrangian_upper_bound(dist, multiplier)
    if upper is None or upper >= first_best:
        reason = "unbounded marginal density" if upper is None else "tighter than the Lagrangian bound"
        return GbbBracket(lower, first_best, lower_method, f"first best ({reason})", None)
    method = f"Lagrangian dual at lambda = {multiplier:.4g} + Lipschitz cell bounds (bounded densities)"
    return GbbBracket(lower, max(upper, lower), lower_method, method, multiplier)


def compute_benchmarks(dist: ValuationDistribution, grid_size: int) -> BenchmarkValues:
    """All benchmarks of one distribution; the GBB value is exact when D is discrete."""
    first_best = dist.first_best()
    fixed_value, fixed_x = best_fixed_price(dist)
    grid = price_grid(grid_size)
    p, q = np.meshgrid(grid, grid, indexing="ij")
    table = gft_table(dist, p, q)
    pairs = np.stack([p.ravel(), q.ravel()], axis=1)
    lp = gbb_lp(pairs, table["gft"].ravel(), table["profit"].ravel())
    wbb_grid = float(table["gft"][p <= q + EPS].max())
    exact = exact_discrete_gbb(dist) if isinstance(dist, RectangleMixture) and dist.is_discrete() else None
    bracket = gbb_bracket(dist, lp, fixed_value, first_best, 1.0 / (grid_size - 1))
    if exact is not None:
        gbb, method = exact.value, "exact (discrete distribution)"
    else:
        # a fixed price is itself GBB-feasible, so GBB >= max(grid LP, best fixed price)
        gbb, method = bracket.lower, f"{bracket.lower_method}, {grid_size}x{grid_size} grid"
    # best WBB couple = best fixed price: raising p towards q only adds trades with b >= q >= p >= s
    return BenchmarkValues(
        first_best=first_best,
        fixed_price=fixed_value,
        fixed_price_x=fixed_x,
        wbb=max(fixed_value, wbb_grid),
        wbb_grid=wbb_grid,
        gbb=gbb,
        gbb_method=method,
        gbb_lp=lp,
        gbb_exact=exact,
        grid_size=grid_size,
        bracket=bracket,
    )


def factor_two_ratio(eta: float) -> float:
    """Closed form GBB / fixed price for the factor-two atoms: 2 (1 + 2 eta) / (1 + 6 eta)."""
    return 2.0 * (1.0 + 2.0 * eta) / (1.0 + 6.0 * eta) if math.isfinite(eta) else math.nan
