"""Learners: one-bit estimates, the GBB guarantee, WBB behaviour and the regret rates."""

from __future__ import annotations

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import compute_benchmarks, price_grid
from models.bilateral_trade.distributions import gft_table
from models.bilateral_trade.experiment import fit_slope, horizon_grid, run_learner
from models.bilateral_trade.learners_gbb import line_estimates, line_radius, trade_bounds
from models.bilateral_trade.market import Market
from models.bilateral_trade.params import DistributionParams, Params
from models.bilateral_trade.run import run
from models.bilateral_trade.schedule import LearnerSettings, make_schedule
from models.common import no_progress
from tests.models.bilateral_trade.conftest import KINDS
from tests.models.bilateral_trade.conftest import make_dist as _dist
from tests.models.bilateral_trade.conftest import make_pools as _pools


@pytest.mark.parametrize("kind", ["uniform", "two_markets", "gaussian_copula"])
def test_one_bit_estimates_within_confidence_radius(kind: str) -> None:
    dist = _dist(kind)
    horizon = 1 << 16
    settings = LearnerSettings()
    schedule = make_schedule(horizon, settings)
    outcome = run_learner(
        "gbb_one_bit", dist, _pools(dist, horizon, 5), np.random.default_rng(6), settings, 0.5
    )
    grid = price_grid(schedule.grid_points)
    p, q = np.meshgrid(grid, grid, indexing="ij")
    exact = gft_table(dist, p, q)
    radius = line_radius(schedule.samples_per_line, schedule.confidence_log)
    left, right = np.asarray(outcome.info.left), np.asarray(outcome.info.right)
    assert np.abs(left - exact["L"]).max() <= radius
    assert np.abs(right - exact["R"]).max() <= radius
    # and they are informative: the typical error is far below the radius
    assert np.abs(left - exact["L"]).mean() < radius / 3


def test_line_estimates_are_unbiased_on_a_large_sample() -> None:
    """Direct check of the row/column trick: 200k exploration rounds, errors ~ 1/sqrt(n)."""
    dist = _dist("two_markets")
    grid = price_grid(9)
    rng = np.random.default_rng(0)
    n = 200_000
    seller_side = rng.random(n) < 0.5
    line = rng.integers(0, 9, n)
    price = rng.random(n)
    s, b = dist.sample(rng, n)
    p = np.where(seller_side, price, grid[line])
    q = np.where(seller_side, grid[line], price)
    bits = (s <= p) & (b >= q)
    left, right, cols, rows = line_estimates(grid, seller_side, line, price, bits)
    pp, qq = np.meshgrid(grid, grid, indexing="ij")
    exact = gft_table(dist, pp, qq)
    assert cols.sum() + rows.sum() == n
    # about 11k samples per line: standard error <= 0.005; allow 4 of them, and a small mean error
    assert np.abs(left - exact["L"]).max() < 0.02
    assert np.abs(right - exact["R"]).max() < 0.02
    assert np.abs(left - exact["L"]).mean() < 0.005
    assert np.abs(right - exact["R"]).mean() < 0.005


def test_trade_bounds_bracket_the_truth_with_exact_inputs() -> None:
    for kind in ("two_markets", "uniform", "two_squares"):
        dist = _dist(kind)
        grid = price_grid(12)
        p, q = np.meshgrid(grid, grid, indexing="ij")
        exact = gft_table(dist, p, q)
        lower, upper = trade_bounds(grid, exact["L"], exact["R"], samples=1e12, confidence_log=1.0)
        assert np.all(lower <= exact["trade"] + 1e-9) and np.all(upper >= exact["trade"] - 1e-9)


@pytest.mark.parametrize("learner", ["gbb_one_bit", "gbb_full"])
@pytest.mark.parametrize("kind", KINDS)
def test_gbb_runs_never_go_negative(kind: str, learner: str) -> None:
    dist = _dist(kind)
    for seed in range(2):
        outcome = run_learner(
            learner, dist, _pools(dist, 16384, seed), np.random.default_rng(seed), LearnerSettings(), 0.5
        )
        profit = outcome.cumulative_profit()
        assert len(profit) == 16384
        assert profit.min() >= 0.0
        assert profit[-1] >= 0.0


@pytest.mark.parametrize("kind", ["two_markets", "gaussian_copula"])
def test_wbb_learners_never_subsidise(kind: str) -> None:
    dist = _dist(kind)
    bench = compute_benchmarks(dist, 51)
    for learner in ("fixed_price", "wbb_one_bit"):
        outcome = run_learner(
            learner,
            dist,
            _pools(dist, 8192, 0),
            np.random.default_rng(0),
            LearnerSettings(),
            bench.fixed_price_x,
        )
        assert np.all(outcome.seller_price <= outcome.buyer_price + 1e-15)
        assert np.all(outcome.profit >= 0)


def test_fixed_price_oracle_regret_is_exact() -> None:
    dist = _dist("two_markets")
    bench = compute_benchmarks(dist, 101)
    horizon = 4096
    outcome = run_learner(
        "fixed_price",
        dist,
        _pools(dist, horizon, 0),
        np.random.default_rng(0),
        LearnerSettings(),
        bench.fixed_price_x,
    )
    assert outcome.regret(bench.wbb)[-1] == pytest.approx(0.0, abs=1e-8)
    assert outcome.regret(bench.gbb)[-1] == pytest.approx(horizon * (bench.gbb - bench.wbb), rel=1e-9)


def test_market_replays_common_random_numbers() -> None:
    dist = _dist("uniform")
    pools = _pools(dist, 2048, 3)
    first = run_learner("gbb_one_bit", dist, pools, np.random.default_rng(1), LearnerSettings(), 0.5)
    second = run_learner("gbb_one_bit", dist, pools, np.random.default_rng(1), LearnerSettings(), 0.5)
    np.testing.assert_array_equal(first.profit, second.profit)
    assert isinstance(Market(*pools).horizon, int)


def test_horizon_grid_and_slope_fit() -> None:
    assert horizon_grid(65536, 10) == [1024, 2048, 4096, 8192, 16384, 32768, 65536]
    assert horizon_grid(3000, 10) == [1500, 3000]
    assert horizon_grid(1024, 12) == [1024]
    horizons = [2**k for k in range(10, 16)]
    assert fit_slope(horizons, [3 * h**0.75 for h in horizons]) == pytest.approx(0.75)
    assert fit_slope(horizons, [0.0] * 6) is None
    assert fit_slope(horizons, [1e-9 * h for h in horizons]) is None  # round-off, not regret


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["two_markets", "two_squares"])
def test_headline_at_two_to_the_twenty_over_five_seeds(kind: str) -> None:
    """The issue's bar on two bounded-density instances at T = 2^20 x 5 seeds: the practical
    one-bit GBB learner ends below the best fixed price's regret with a median slope below 0.85;
    the WBB learner cannot (its regret is at least gap x T). The paper-faithful learner, with the
    paper's orders and constant 1, is reported as it is: if it does not win at this T, the result
    says by how much (regret ratio) and from which T it would at the paper's rate."""
    params = Params(distribution=DistributionParams(kind=kind), horizon=1 << 20, seeds=5)
    result = run(params, no_progress)
    fixed = (result.benchmarks.gbb - result.benchmarks.fixed_price) * params.horizon
    practical = result.learners["gbb_one_bit"]
    assert practical.final_regret_vs_gbb < fixed
    assert practical.regret_slope_vs_gbb is not None and practical.regret_slope_vs_gbb < 0.85
    assert practical.crossing_round is not None and practical.crossing_round < params.horizon
    wbb = result.learners["wbb_one_bit"]
    assert wbb.final_regret_vs_gbb >= (result.benchmarks.gbb - result.benchmarks.wbb) * params.horizon - 1e-6
    paper = result.learners["gbb_one_bit_paper"]
    if paper.final_regret_vs_gbb >= fixed:
        assert paper.crossing_round is None
        assert paper.win_horizon_at_rate is not None and paper.win_horizon_at_rate > params.horizon
        assert "still above the best fixed price" in result.verdict().label
        assert next(c for c in result.claims if c.id == "beats_fixed").holds in ("not_held", "partial")
    for summary in result.learners.values():
        assert summary.min_cumulative_profit >= 0.0
