"""The vectorised market and its GBB guard against a plain per-round loop."""

from __future__ import annotations

import numpy as np
import pytest

from models.bilateral_trade.distributions import EPS
from models.bilateral_trade.market import EXPLOIT, GUARD, Market
from tests.models.bilateral_trade.conftest import make_pools as _pools

MARGIN = 1e-9


def _reference(p, q, fallback, pools, budget, limit):
    """Round by round: a subsidised couple waits (fallback rounds) until the budget covers p - q."""
    (ps, pb), (gs, gb) = pools
    posted, i, g = [], 0, 0
    while i < len(p) and len(posted) < limit:
        loss = p[i] - q[i]
        if loss > 0 and budget < loss + MARGIN:
            fp, fq = fallback
            trade = gs[g] <= fp + EPS and gb[g] >= fq - EPS
            budget += (fq - fp) * trade
            posted.append((fp, fq, trade, GUARD))
            g += 1
        else:
            trade = ps[i] <= p[i] + EPS and pb[i] >= q[i] - EPS
            budget += (q[i] - p[i]) * trade
            posted.append((p[i], q[i], trade, EXPLOIT))
            i += 1
    return posted, budget


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["uniform", "two_markets", "factor_two"])
def test_guard_matches_per_round_loop(seed: int, kind: str) -> None:
    horizon = 3000
    pools = _pools(kind, horizon, seed)
    rng = np.random.default_rng(100 + seed)
    n = 2000
    p, q = rng.random(n), rng.random(n)  # about half the couples are subsidised
    fallback = (0.2, 0.6) if kind != "factor_two" else (0.0, 0.49)
    market = Market(*pools)
    bits = market.play(p, q, EXPLOIT, fallback)
    expected, budget = _reference(p, q, fallback, pools, 0.0, horizon)
    log = market.log()
    assert len(log.seller_price) == len(expected)
    np.testing.assert_array_equal(log.seller_price, [e[0] for e in expected])
    np.testing.assert_array_equal(log.buyer_price, [e[1] for e in expected])
    np.testing.assert_array_equal(log.trade, [e[2] for e in expected])
    np.testing.assert_array_equal(log.phase, [e[3] for e in expected])
    assert market.budget == pytest.approx(budget, abs=1e-9)
    assert len(bits) == sum(1 for e in expected if e[3] == EXPLOIT)
    assert np.cumsum(log.profit).min() >= 0.0


def test_max_rounds_counts_guard_rounds() -> None:
    pools = _pools("uniform", 5000, 0)
    market = Market(*pools)
    p, q = np.full(500, 0.9), np.full(500, 0.1)  # heavily subsidised
    market.play(p, q, EXPLOIT, (0.3, 0.7), max_rounds=300)
    assert market.t == 300
    expected, _ = _reference(p, q, (0.3, 0.7), pools, 0.0, 300)
    np.testing.assert_array_equal(market.log().phase, [e[3] for e in expected])


def test_weakly_budget_balanced_plan_never_triggers_the_guard() -> None:
    pools = _pools("two_markets", 4096, 1)
    market = Market(*pools)
    prices = np.linspace(0, 1, 4096)
    market.play(prices, np.minimum(prices + 0.1, 1.0), EXPLOIT, (0.5, 0.5))
    log = market.log()
    assert not np.any(log.phase == GUARD)
    assert np.all(np.diff(np.cumsum(log.profit)) >= 0)


def test_fallback_must_be_weakly_budget_balanced() -> None:
    market = Market(*_pools("uniform", 100, 0))
    with pytest.raises(ValueError, match="weakly budget balanced"):
        market.play(np.array([0.5]), np.array([0.4]), EXPLOIT, (0.6, 0.4))


def test_horizon_is_never_exceeded() -> None:
    market = Market(*_pools("uniform", 1000, 0))
    market.play(np.full(5000, 0.5), np.full(5000, 0.5), EXPLOIT, (0.5, 0.5))
    assert market.t == 1000 and market.remaining == 0
    assert len(market.play(np.full(10, 0.5), np.full(10, 0.5), EXPLOIT, (0.5, 0.5))) == 0
