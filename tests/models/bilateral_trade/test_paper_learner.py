"""The paper-faithful learner, the registry, random grid offsets and the regret summaries."""

from __future__ import annotations

import math
from typing import get_args

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import compute_benchmarks
from models.bilateral_trade.experiment import crossing_round, run_learner, win_horizon, win_horizon_at_rate
from models.bilateral_trade.learners import LEARNERS, LearnerName
from models.bilateral_trade.learners_paper import dyadic_couples, exp3_profit_collection
from models.bilateral_trade.market import COLLECT, EXPLOIT, GUARD, Market
from models.bilateral_trade.schedule import LearnerSettings, learner_grid, paper_schedule
from tests.models.bilateral_trade.conftest import KINDS, make_dist, make_pools


def test_registry_holds_every_learner_once_with_stable_streams() -> None:
    assert tuple(LEARNERS) == get_args(LearnerName)
    labels = [spec.label for spec in LEARNERS.values()]
    assert len(set(labels)) == len(labels)
    streams = {name: spec.stream for name, spec in LEARNERS.items()}
    assert streams["wbb_two_bit"] == streams["wbb_one_bit"]  # same exploration plan on purpose
    others = [s for n, s in streams.items() if n != "wbb_two_bit"]
    assert len(set(others)) == len(others)
    assert {LEARNERS[n].family for n in ("gbb_one_bit", "gbb_one_bit_paper", "gbb_full")} == {"gbb"}


def test_paper_schedule_has_the_papers_orders() -> None:
    s = paper_schedule(1 << 20)
    assert (s.grid_points, s.samples_per_line) == (32, 1024)
    assert s.budget_target == pytest.approx(2**15)
    assert s.confidence_log == pytest.approx(math.log(2**20))


def test_grid_offsets_avoid_breakpoints() -> None:
    grid = learner_grid(32, 0.37)
    assert np.allclose(np.diff(grid), 1 / 32) and 0 < grid[0] < grid[-1] < 1
    assert np.array_equal(learner_grid(5), np.linspace(0, 1, 5))
    offsets = np.random.default_rng(0).random(50)
    breakpoints = np.array([0.15, 0.3, 0.45, 0.5, 0.6, 0.8])
    hits = [np.isclose(learner_grid(32, u)[:, None], breakpoints).any() for u in offsets]
    assert not any(hits)


def test_dyadic_couples_are_weakly_budget_balanced_with_dyadic_gaps() -> None:
    couples = dyadic_couples(32)
    gaps = couples[:, 1] - couples[:, 0]
    assert np.all(couples >= 0) and np.all(couples <= 1) and np.all(gaps > 0)
    assert set(np.round(gaps, 12)) == {2.0**-m for m in range(1, 6)}
    assert len(couples) == sum(2 ** (m + 1) - 1 for m in range(1, 6))


def test_exp3_collection_reaches_the_target_and_prefers_profitable_couples() -> None:
    dist = make_dist("two_markets")
    market = Market(*make_pools(dist, 1 << 18, 0))
    best = exp3_profit_collection(market, np.random.default_rng(1), target=2000.0, grid_points=16)
    log = market.log()
    assert market.budget >= 2000.0 and np.all(log.phase == COLLECT)
    assert np.all(log.seller_price <= log.buyer_price)
    late = slice(market.t // 2, market.t)  # Exp3 concentrates: the second half earns more
    assert log.profit[late].mean() > log.profit[: market.t // 2].mean()
    from models.bilateral_trade.distributions import gft_table

    assert gft_table(dist, np.array(best[0]), np.array(best[1]))["profit"] > 0.05


def test_play_or_halt_matches_a_per_round_loop() -> None:
    pools = make_pools("uniform", 4000, 2)
    rng = np.random.default_rng(3)
    p, q = rng.random(3000), rng.random(3000)
    market = Market(*pools)
    bits, played = market.play_or_halt(p, q, EXPLOIT)
    (s, b), budget = pools[0], 0.0
    for i in range(3000):
        covered = p[i] - q[i] <= 0 or p[i] - q[i] + 1e-9 <= budget
        assert played[i] == covered
        pi, qi = (p[i], q[i]) if covered else (0.0, 1.0)
        trade = s[i] <= pi + 1e-12 and b[i] >= qi - 1e-12
        assert bits[i] == trade
        budget += (qi - pi) * trade
    assert market.budget == pytest.approx(budget)
    assert np.cumsum(market.log().profit).min() >= 0
    assert np.array_equal(market.log().phase == GUARD, ~played)


@pytest.mark.parametrize("kind", KINDS)
def test_paper_learner_keeps_the_budget_and_splits_its_regret_by_phase(kind: str) -> None:
    dist = make_dist(kind)
    bench = compute_benchmarks(dist, 41)
    outcome = run_learner(
        "gbb_one_bit_paper",
        dist,
        make_pools(dist, 1 << 14, 0),
        np.random.default_rng(0),
        LearnerSettings(),
        bench.fixed_price_x,
        0.42,
    )
    assert len(outcome.profit) == 1 << 14 and outcome.cumulative_profit().min() >= 0
    phases = outcome.regret_by_phase(bench.gbb)
    assert sum(phases.values()) == pytest.approx(outcome.regret(bench.gbb)[-1], rel=1e-9, abs=1e-6)


def test_crossing_round_and_win_horizons() -> None:
    t = np.arange(1, 1001)
    regret = 5 * np.sqrt(t)  # at or below 0.5 t from t = 100 on
    assert crossing_round(regret, 0.5) == 100
    assert crossing_round(2 * t.astype(float), 0.5) is None
    assert crossing_round(np.zeros(10), 0.5) == 1
    assert win_horizon(0.5, math.log(5.0), 0.5) == pytest.approx(100.0)  # 5 sqrt(T) = 0.5 T
    assert win_horizon(1.0, 0.0, 0.5) is None
    assert win_horizon_at_rate(1000, 1000.0, 0.5) == pytest.approx(1000 * 2**4)
    assert win_horizon_at_rate(1000, 100.0, 0.5) is None
