"""Trade statistics of every distribution against Monte Carlo, closed forms and the GFT identity."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import price_grid
from models.bilateral_trade.distributions import gft_table
from models.bilateral_trade.params import RectangleParams
from tests.models.bilateral_trade.conftest import KINDS
from tests.models.bilateral_trade.conftest import make_dist as _dist


@pytest.mark.parametrize("kind", KINDS)
def test_trade_stats_match_monte_carlo(kind: str) -> None:
    dist = _dist(kind)
    s, b = dist.sample(np.random.default_rng(1), 400_000)
    rng = np.random.default_rng(2)
    for p, q in rng.random((6, 2)):
        trade = (s <= p) & (b >= q)
        table = gft_table(dist, np.array([[p]]), np.array([[q]]))
        assert table["trade"][0, 0] == pytest.approx(trade.mean(), abs=4e-3)
        assert table["gft"][0, 0] == pytest.approx(np.mean((b - s) * trade), abs=4e-3)
        assert table["L"][0, 0] == pytest.approx(np.mean((p - s) * trade), abs=4e-3)
        assert table["R"][0, 0] == pytest.approx(np.mean((b - q) * trade), abs=4e-3)


@pytest.mark.parametrize("kind", KINDS)
def test_first_best_matches_monte_carlo(kind: str) -> None:
    dist = _dist(kind)
    s, b = dist.sample(np.random.default_rng(3), 400_000)
    assert dist.first_best() == pytest.approx(np.mean(np.maximum(b - s, 0.0)), abs=3e-3)


def test_first_best_closed_forms() -> None:
    assert _dist("uniform").first_best() == pytest.approx(1 / 6, abs=1e-12)
    assert _dist("factor_two", eta=0.01).first_best() == pytest.approx(0.49, abs=1e-12)
    # market A: E[b] - E[s] = 0.4 - 0.075, market B: 0.9 - 0.525, equal weights
    assert _dist("two_markets").first_best() == pytest.approx(0.5 * (0.325 + 0.375), abs=1e-12)
    assert _dist("gaussian_copula", rho=0.0).first_best() == pytest.approx(1 / 6, abs=1e-4)


@pytest.mark.parametrize("kind", KINDS)
def test_gft_is_l_plus_r_plus_profit_cell_by_cell(kind: str) -> None:
    """GFT = L + R + profit, with L and R recomputed independently as integrals of P(trade)."""
    dist = _dist(kind)
    grid = price_grid(21)
    p, q = np.meshgrid(grid, grid, indexing="ij")
    table = gft_table(dist, p, q)
    fine = np.linspace(0.0, 1.0, 4001)
    for i in range(0, 21, 4):
        for j in range(0, 21, 4):
            pi, qj = grid[i], grid[j]
            u = fine[fine <= pi]
            v = fine[fine >= qj]
            trade_u = gft_table(dist, u, np.full_like(u, qj))["trade"]
            trade_v = gft_table(dist, np.full_like(v, pi), v)["trade"]
            left = np.trapezoid(trade_u, u) if len(u) > 1 else 0.0
            right = np.trapezoid(trade_v, v) if len(v) > 1 else 0.0
            profit = (qj - pi) * table["trade"][i, j]
            tol = 2e-3 if kind in ("factor_two",) else 5e-4
            assert table["gft"][i, j] == pytest.approx(left + right + profit, abs=tol), (i, j)


def test_density_bounds() -> None:
    assert _dist("uniform").density_bound() == pytest.approx(1.0)
    assert _dist("two_markets").density_bound() == pytest.approx(0.5 / (0.15 * 0.2))
    assert math.isinf(_dist("factor_two").density_bound())
    assert _dist("two_squares", width=0.05).density_bound() == pytest.approx(0.5 / 0.05**2)
    assert math.isinf(_dist("gaussian_copula", rho=0.5).density_bound())
    assert _dist("gaussian_copula", rho=0.0).density_bound() == 1.0
    overlap = [
        RectangleParams(s=(0, 0.5), b=(0, 0.5), mass=1),
        RectangleParams(s=(0.25, 0.75), b=(0.25, 0.75), mass=1),
    ]
    # each square carries mass 1/2 on area 1/4 (density 2); the overlap adds to 4
    assert _dist("rectangles", rectangles=overlap).density_bound() == pytest.approx(4.0)


def test_samples_lie_in_the_unit_square() -> None:
    for kind in KINDS:
        s, b = _dist(kind).sample(np.random.default_rng(0), 10_000)
        assert s.min() >= 0 and s.max() <= 1 and b.min() >= 0 and b.max() <= 1
