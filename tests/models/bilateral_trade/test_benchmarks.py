"""Benchmarks against the paper's closed forms, brute force and the LP's structure."""

from __future__ import annotations

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import (
    best_fixed_price,
    compute_benchmarks,
    exact_discrete_gbb,
    factor_two_ratio,
    gbb_lp,
    price_grid,
    two_pair_optimum,
)
from models.bilateral_trade.distributions import RectangleMixture, gft_table
from tests.models.bilateral_trade.conftest import KINDS
from tests.models.bilateral_trade.conftest import make_dist as _dist


def test_independent_uniform_closed_forms() -> None:
    bench = compute_benchmarks(_dist("uniform"), 101)
    assert bench.first_best == pytest.approx(1 / 6, abs=1e-12)
    assert bench.fixed_price == pytest.approx(1 / 8, abs=1e-12)
    assert bench.fixed_price_x == pytest.approx(0.5, abs=1e-9)
    assert bench.gbb == pytest.approx(1 / 8, abs=1e-9)
    assert abs(bench.gbb_lp.value - 1 / 8) <= 1 / 101


@pytest.mark.parametrize("eta", [0.01, 0.05, 0.1])
def test_factor_two_fixed_price_and_exact_gbb(eta: float) -> None:
    dist = _dist("factor_two", eta=eta)
    assert isinstance(dist, RectangleMixture) and dist.is_discrete()
    fixed, _ = best_fixed_price(dist)
    assert fixed == pytest.approx((0.5 - eta) / 2, abs=1e-12)
    exact = exact_discrete_gbb(dist)
    assert exact.value / fixed == pytest.approx(2 * (1 + 2 * eta) / (1 + 6 * eta), rel=1e-9)
    assert exact.value / fixed == pytest.approx(factor_two_ratio(eta), rel=1e-12)
    assert len(exact.pairs) <= 2


@pytest.mark.parametrize("k", [101, 201, 128, 64, 37, 20])
def test_factor_two_grid_lp_close_to_continuous_optimum(k: int) -> None:
    """The K-grid LP is below the continuous optimum, within 1/K when the grid resolves the atoms
    (K = 101, 201: exact), and in general within the loss of rounding the optimal couples to the
    grid: p = 0.51 rounded up, q = 0.49 rounded down, each by at most one step 1/(K-1)."""
    eta = 0.01
    dist = _dist("factor_two", eta=eta)
    bench = compute_benchmarks(dist, k)
    exact = (0.5 - eta) / 2 * 2 * (1 + 2 * eta) / (1 + 6 * eta)
    assert bench.gbb_exact is not None and bench.gbb_exact.value == pytest.approx(exact, rel=1e-9)
    assert bench.gbb_lp.value <= exact + 1e-9  # the grid LP is a restriction of the continuous one
    step = 1 / (k - 1)
    grid = price_grid(k)
    q_down = grid[grid <= 0.5 - eta + 1e-12].max()
    p_up = grid[grid >= 0.5 + eta - 1e-12].min()
    assert q_down >= 0.5 - eta - step - 1e-12 and p_up <= 0.5 + eta + step + 1e-12
    gain, subsidy = q_down / 2, p_up - q_down  # profit pair (0, q_down); both atoms trade at (p_up, q_down)
    weight = gain / (gain + subsidy)
    rounded_value = weight * (0.5 - eta) + (1 - weight) * (0.5 - eta) / 2
    assert bench.gbb_lp.value >= rounded_value - 1e-12
    if k in (101, 201, 128, 20):
        assert exact - bench.gbb_lp.value <= 1 / k
    assert len(bench.gbb_lp.pairs) <= 2


@pytest.mark.parametrize("kind", KINDS)
def test_benchmark_chain(kind: str) -> None:
    """fixed price <= GBB <= min(first best, 2 x fixed price); WBB couple = fixed price."""
    bench = compute_benchmarks(_dist(kind), 51)
    assert bench.fixed_price <= bench.gbb + 1e-9
    assert bench.gbb <= bench.first_best + 1e-9
    assert bench.gbb <= 2 * bench.fixed_price + 1e-9
    assert bench.wbb_grid <= bench.fixed_price + 1e-9
    assert len(bench.gbb_lp.pairs) <= 2
    assert sum(bench.gbb_lp.weights) == pytest.approx(1.0)
    assert np.dot(bench.gbb_lp.weights, bench.gbb_lp.profit) >= -1e-9


@pytest.mark.parametrize("kind", ["uniform", "two_markets", "two_squares", "rectangles", "gaussian_copula"])
def test_best_fixed_price_beats_a_fine_grid(kind: str) -> None:
    dist = _dist(kind)
    value, x = best_fixed_price(dist)
    xs = np.linspace(0, 1, 2001)
    on_grid = (
        gft_table(dist, xs[:, None], xs[None, :])["gft"].diagonal()
        if kind == "gaussian_copula"
        else gft_table(dist, xs, xs)["gft"]
    )
    assert value >= on_grid.max() - 1e-7
    assert value <= on_grid.max() + 1e-3


def test_two_pair_optimum_agrees_with_highs() -> None:
    rng = np.random.default_rng(0)
    for _ in range(40):
        n = int(rng.integers(3, 80))
        gft = rng.random(n)
        profit = rng.normal(scale=0.3, size=n)
        profit[0] = abs(profit[0])  # feasible
        pairs = rng.random((n, 2))
        value, support, weights = two_pair_optimum(gft, profit, 0.0)
        assert value == pytest.approx(gbb_lp(pairs, gft, profit).value, abs=1e-9)
        assert len(support) <= 2 and sum(weights) == pytest.approx(1.0)
        assert np.dot(weights, profit[support]) >= -1e-9


def test_grid_lp_matches_two_pair_brute_force_on_small_grid() -> None:
    dist = _dist("two_markets")
    grid = price_grid(9)
    p, q = np.meshgrid(grid, grid, indexing="ij")
    table = gft_table(dist, p, q)
    gft, profit = table["gft"].ravel(), table["profit"].ravel()
    best = max(gft[profit >= 0])
    for i in range(len(gft)):
        for j in range(len(gft)):
            if profit[i] < 0 <= profit[j]:
                w = profit[j] / (profit[j] - profit[i])
                best = max(best, w * gft[i] + (1 - w) * gft[j])
    pairs = np.stack([p.ravel(), q.ravel()], axis=1)
    assert gbb_lp(pairs, gft, profit).value == pytest.approx(best, abs=1e-10)


def test_two_markets_gbb_strictly_above_fixed_price() -> None:
    bench = compute_benchmarks(_dist("two_markets"), 101)
    assert bench.fixed_price == pytest.approx(0.1875, abs=1e-12)  # market B alone at x in [0.6, 0.8]
    assert bench.gbb > 1.2 * bench.fixed_price


def test_the_chord_search_and_the_hull_walk_agree_with_highs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learners' fast path (best chord across the level) against the hull walk and HiGHS, with slack."""
    import models.bilateral_trade.benchmarks as benchmarks

    rng = np.random.default_rng(1)
    for _ in range(60):
        n = int(rng.integers(3, 300))
        gft, profit = rng.random(n), rng.normal(scale=0.3, size=n)
        slack = float(rng.choice([0.0, 0.05, 0.2]))
        fast = two_pair_optimum(gft, profit, slack)
        monkeypatch.setattr(benchmarks, "_CHORD_CELLS", 0)
        walked = two_pair_optimum(gft, profit, slack)
        monkeypatch.setattr(benchmarks, "_CHORD_CELLS", 1 << 18)
        assert fast[0] == pytest.approx(walked[0], abs=1e-12)
        if profit.max() >= -slack:  # feasible: the LP optimum with sum x profit >= -slack
            shifted = profit + slack
            assert fast[0] == pytest.approx(gbb_lp(rng.random((n, 2)), gft, shifted).value, abs=1e-9)
            assert np.dot(fast[2], profit[fast[1]]) >= -slack - 1e-9
