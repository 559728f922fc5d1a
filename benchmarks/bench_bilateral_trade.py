"""Rounds per second of the bilateral trade learners: vectorised market vs a per-round Python loop.

Each learner runs on the same valuation pools and the same learner seed twice:
  * vectorised: `models.bilateral_trade.market.Market`, which plays a whole plan of price couples
    at once (numpy) and applies the GBB guard with one searchsorted + a running maximum;
  * baseline: `LoopMarket` below, the same market written as a plain per-round Python loop (post,
    compare, update the budget, top up with the fallback couple when a subsidy is not covered).
Both must produce the identical sequence of couples, trades and profit (checked: "same"). The
learners' own statistics and LP solves are shared code, so the ratio isolates the round loop.
Regret accounting (expected GFT of every posted couple) is excluded from both timings.
A second table compares the one-bit and two-bit explore-then-commit learners' regret on
independent uniform values (same pools, same exploration couples): what the second bit buys.

    python benchmarks/bench_bilateral_trade.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.bilateral_trade.benchmarks import compute_benchmarks  # noqa: E402
from models.bilateral_trade.distributions import EPS  # noqa: E402
from models.bilateral_trade.experiment import run_learner  # noqa: E402
from models.bilateral_trade.learners_gbb import gbb_full_learner, gbb_one_bit_learner  # noqa: E402
from models.bilateral_trade.learners_two_bit import wbb_two_bit_learner  # noqa: E402
from models.bilateral_trade.learners_wbb import fixed_price_learner, wbb_one_bit_learner  # noqa: E402
from models.bilateral_trade.market import GUARD, Market  # noqa: E402
from models.bilateral_trade.params import DistributionParams  # noqa: E402
from models.bilateral_trade.scenarios import build_distribution  # noqa: E402
from models.bilateral_trade.schedule import LearnerSettings, make_schedule  # noqa: E402

MARGIN = 1e-9  # the same safety margin as the vectorised guard


class LoopMarket(Market):
    """The market, one round at a time in plain Python (the baseline)."""

    def play(self, p, q, phase, fallback, max_rounds=None):  # type: ignore[no-untyped-def]
        fp, fq = fallback
        stop = self.horizon if max_rounds is None else min(self.horizon, self.t + max_rounds)
        (ps, pb), (gs, gb) = self._pools
        bits = []
        i = 0
        while i < len(p) and self.t < stop:
            pi, qi = float(p[i]), float(q[i])
            if pi - qi > 0 and self.budget < pi - qi + MARGIN:  # subsidy not covered: top up first
                k = self._next[1]
                trade = bool(gs[k] <= fp + EPS and gb[k] >= fq - EPS)
                self._post(fp, fq, gs[k], gb[k], trade, GUARD)
                self._next[1] += 1
                continue
            k = self._next[0]
            trade = bool(ps[k] <= pi + EPS and pb[k] >= qi - EPS)
            self._post(pi, qi, ps[k], pb[k], trade, phase)
            self._next[0] += 1
            bits.append(trade)
            i += 1
        return np.array(bits, dtype=bool)

    def _post(self, p: float, q: float, s: float, b: float, trade: bool, phase: int) -> None:
        t = self.t
        self._p[t], self._q[t], self._s[t], self._b[t], self._trade[t], self._phase[t] = p, q, s, b, trade, phase
        if trade:
            self.budget += q - p
        self.t += 1


def _play(name: str, market: Market, seed: int, settings: LearnerSettings, best_price: float) -> None:
    rng = np.random.default_rng(seed)
    schedule = make_schedule(market.horizon, settings)
    if name == "fixed_price":
        fixed_price_learner(market, best_price)
    elif name == "wbb_one_bit":
        wbb_one_bit_learner(market, rng, schedule)
    elif name == "wbb_two_bit":
        wbb_two_bit_learner(market, rng, schedule)
    elif name == "gbb_one_bit":
        gbb_one_bit_learner(market, rng, schedule, settings)
    else:
        gbb_full_learner(market, rng, schedule, settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="T = 2^16, 2 seeds (default: T = 2^20, 5 seeds)")
    args = parser.parse_args()
    horizon, seeds = (1 << 16, 2) if args.quick else (1 << 20, 5)
    loop_horizon = 1 << 16 if args.quick else 1 << 18  # the loop is slow; its rate does not depend on T
    dist = build_distribution(DistributionParams(kind="two_markets"))
    bench = compute_benchmarks(dist, 101)
    settings = LearnerSettings()
    print(f"two separated markets, vectorised: T = {horizon:,} x {seeds} seeds; loop baseline: T = {loop_horizon:,} x 1 seed")
    print(f"{'learner':<13} {'vectorised s':>13} {'vec rounds/s':>14} {'loop rounds/s':>14} {'speed-up':>9} {'same':>5} {'guard rounds':>13}")
    all_pools = []
    for seed in range(seeds):
        pool_rng = np.random.default_rng([seed, horizon])
        all_pools.append((dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon)))
    for name in ("fixed_price", "wbb_one_bit", "wbb_two_bit", "gbb_one_bit", "gbb_full"):
        vector_seconds = 0.0
        guard_rounds = 0
        for seed, seed_pools in enumerate(all_pools):
            market = Market(*seed_pools)
            started = time.perf_counter()
            _play(name, market, seed, settings, bench.fixed_price_x)
            vector_seconds += time.perf_counter() - started
            guard_rounds += int(np.count_nonzero(market.log().phase == GUARD))
            assert np.cumsum(market.log().profit).min() >= 0.0  # GBB held
        pool_rng = np.random.default_rng([0, loop_horizon])
        pools = (dist.sample(pool_rng, loop_horizon), dist.sample(pool_rng, loop_horizon))
        fast = Market(*pools)
        _play(name, fast, 0, settings, bench.fixed_price_x)
        slow = LoopMarket(*pools)
        started = time.perf_counter()
        _play(name, slow, 0, settings, bench.fixed_price_x)
        loop_seconds = time.perf_counter() - started
        a, b = fast.log(), slow.log()
        same = bool(
            np.array_equal(a.seller_price, b.seller_price)
            and np.array_equal(a.buyer_price, b.buyer_price)
            and np.array_equal(a.trade, b.trade)
        )
        started = time.perf_counter()
        _play(name, Market(*pools), 0, settings, bench.fixed_price_x)
        fast_seconds = time.perf_counter() - started
        vec_rate = horizon * seeds / vector_seconds
        loop_rate = loop_horizon / loop_seconds
        print(
            f"{name:<13} {vector_seconds:>13.2f} {vec_rate:>14,.0f} {loop_rate:>14,.0f} "
            f"{(loop_horizon / fast_seconds) / loop_rate:>8.1f}x {'yes' if same else 'NO':>5} {guard_rounds // seeds:>13,}"
        )
    print("vectorised s: all seeds, valuation sampling excluded; speed-up: both markets on the loop's T and seed;")
    print("same: identical couples and trades; guard rounds: per seed at the vectorised T")
    _feedback_table(args.quick)


def _feedback_table(quick: bool) -> None:
    """What the second bit buys: regret vs the best fixed price of the two explore-then-commit
    learners on the same pools and the same exploration couples (independent uniform values)."""
    dist = build_distribution(DistributionParams(kind="uniform"))
    wbb = compute_benchmarks(dist, 51).wbb
    print("\nindependent uniform values; per horizon the two learners share pools and exploration couples")
    print(f"{'T':>9} {'seeds':>6} {'one-bit regret':>15} {'two-bit regret':>15} {'ratio':>6} {'two-bit no worse':>17}")
    for horizon, seeds in ((1 << 16, 40),) if quick else ((1 << 16, 200), (1 << 18, 100)):
        regret: dict[str, list[float]] = {"wbb_one_bit": [], "wbb_two_bit": []}
        for seed in range(seeds):
            pool_rng = np.random.default_rng([seed, horizon, 7])
            pools = (dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon))
            for name in regret:
                run = run_learner(name, dist, pools, np.random.default_rng(seed), LearnerSettings(), 0.5)
                regret[name].append(float(run.regret(wbb)[-1]))
        one, two = np.array(regret["wbb_one_bit"]), np.array(regret["wbb_two_bit"])
        se = (one.std() / np.sqrt(seeds), two.std() / np.sqrt(seeds))
        print(
            f"{horizon:>9,} {seeds:>6} {one.mean():>8,.0f} +- {se[0]:>3.0f} {two.mean():>8,.0f} +- {se[1]:>3.0f}"
            f" {two.mean() / one.mean():>6.2f} {np.mean(two <= one + 1e-9):>17.0%}"
        )


if __name__ == "__main__":
    main()
