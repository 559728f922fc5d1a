"""Rounds per second of the bilateral trade learners: vectorised market vs a per-round Python loop.

Each learner runs on the same valuation pools and the same learner seed twice:
  * vectorised: `models.bilateral_trade.market.Market`, which plays a whole plan of price couples
    at once (numpy) and applies the GBB guard with one searchsorted + a running maximum;
  * baseline: `LoopMarket` below, the same market written as a plain per-round Python loop (post,
    compare, update the budget, top up with the fallback couple when a subsidy is not covered).
Both must produce the identical sequence of couples, trades and profit (checked: "same"). The
learners' own statistics and LP solves are shared code, so the ratio isolates the round loop.
Regret accounting (expected GFT of every posted couple) is excluded from both timings.
The headline table runs the whole method (`run`, its defaults: T = 2^20, 5 seeds, random grid offsets)
on two separated markets and two small squares: regret against GBB by learner, as a multiple of the
best fixed price's, median slope and IQR over seeds, crossing round, regret by phase, and the GBB
bracket. A third table follows the paper-faithful learner beyond the page's largest horizon.
The last table compares the one-bit and two-bit explore-then-commit learners' regret on
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
from models.bilateral_trade.learners import LEARNERS, LearnerContext  # noqa: E402
from models.bilateral_trade.market import GUARD, Market  # noqa: E402
from models.bilateral_trade.params import DistributionParams, Params  # noqa: E402
from models.bilateral_trade.run import run  # noqa: E402
from models.bilateral_trade.scenarios import build_distribution  # noqa: E402
from models.bilateral_trade.schedule import LearnerSettings  # noqa: E402
from models.bilateral_trade.streaming import stream_learner  # noqa: E402
from models.common import no_progress  # noqa: E402

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

    def play_or_halt(self, p, q, phase):  # type: ignore[no-untyped-def]
        (ps, pb), _ = self._pools
        bits, played = [], []
        for i in range(min(len(p), self.remaining)):
            pi, qi = float(p[i]), float(q[i])
            covered = pi - qi <= 0 or self.budget >= pi - qi + MARGIN
            if not covered:  # the no-trade couple instead, in the same round
                pi, qi = 0.0, 1.0
            k = self._next[0]
            trade = bool(ps[k] <= pi + EPS and pb[k] >= qi - EPS)
            self._post(pi, qi, ps[k], pb[k], trade, phase if covered else GUARD)
            self._next[0] += 1
            bits.append(trade)
            played.append(covered)
        return np.array(bits, dtype=bool), np.array(played, dtype=bool)

    def _post(self, p: float, q: float, s: float, b: float, trade: bool, phase: int) -> None:
        t = self.t
        self._p[t], self._q[t], self._s[t], self._b[t], self._trade[t], self._phase[t] = p, q, s, b, trade, phase
        if trade:
            self.budget += q - p
        self.t += 1


def _play(name: str, market: Market, seed: int, settings: LearnerSettings, best_price: float) -> None:
    spec = LEARNERS[name]
    schedule = spec.schedule(market.horizon, settings, None)
    spec.play(market, LearnerContext(np.random.default_rng(seed), schedule, settings, best_price))


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
    print(f"{'learner':<18} {'vectorised s':>13} {'vec rounds/s':>14} {'loop rounds/s':>14} {'speed-up':>9} {'same':>5} {'guard rounds':>13}")
    all_pools = []
    for seed in range(seeds):
        pool_rng = np.random.default_rng([seed, horizon])
        all_pools.append((dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon)))
    for name in LEARNERS:
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
            f"{name:<18} {vector_seconds:>13.2f} {vec_rate:>14,.0f} {loop_rate:>14,.0f} "
            f"{(loop_horizon / fast_seconds) / loop_rate:>8.1f}x {'yes' if same else 'NO':>5} {guard_rounds // seeds:>13,}"
        )
    print("vectorised s: all seeds, valuation sampling excluded; speed-up: both markets on the loop's T and seed;")
    print("same: identical couples and trades; guard rounds: per seed at the vectorised T")
    _headline_table(args.quick)
    _paper_beyond(args.quick)
    _feedback_table(args.quick)


def _headline_table(quick: bool) -> None:
    """The method end to end (its defaults) on the two bounded-density instances of the issue."""
    horizon, seeds = (1 << 16, 3) if quick else (1 << 20, 5)
    for kind in ("two_markets", "two_squares"):
        started = time.perf_counter()
        result = run(Params(distribution=DistributionParams(kind=kind), horizon=horizon, seeds=seeds), no_progress)
        seconds = time.perf_counter() - started
        b = result.benchmarks
        fixed = (b.gbb - b.fixed_price) * horizon
        print(f"\n{kind}: T = {horizon:,} x {seeds} seeds, run() in {seconds:.1f} s wall")
        print(f"  GBB bracket [{b.gbb_lower:.5f}, {b.gbb_upper:.5f}]; best fixed price {b.fixed_price:.5f}; "
              f"fixed-price regret {fixed:,.0f}")
        print(f"  {'learner':<18} {'regret':>9} {'x fixed':>8} {'slope':>6} {'IQR':>13} {'crossing':>9} "
              f"{'win T (3/4)':>11}  regret by phase (collection/exploration/exploitation/guard)")
        for name, s in result.learners.items():
            iqr = "-" if s.regret_slope_iqr is None else f"{s.regret_slope_iqr[0]:.3f}-{s.regret_slope_iqr[1]:.3f}"
            slope = "-" if s.regret_slope_vs_gbb is None else f"{s.regret_slope_vs_gbb:.3f}"
            win = "-" if s.win_horizon_at_rate is None else f"{s.win_horizon_at_rate:.2g}"
            phases = "/".join(f"{v:,.0f}" for v in s.regret_by_phase.model_dump().values())
            print(f"  {name:<18} {s.final_regret_vs_gbb:>9,.0f} {s.final_regret_vs_gbb / fixed:>8.2f} {slope:>6} "
                  f"{iqr:>13} {str(s.crossing_round or '-'):>9} {win:>11}  {phases}")
        verdict = result.verdict()
        print(f"  verdict: {verdict.label} ({verdict.tone})")


def _paper_beyond(quick: bool) -> None:
    """The paper-faithful learner past the page's per-round horizons, side by side: the per-round learner
    (`run_learner`, arrays of T rounds) and the streamed one (`stream_learner`, counts where exact) on the
    same instance; rounds per second of each and the regret ratio to the best fixed price."""
    dist = build_distribution(DistributionParams(kind="two_markets"))
    bench = compute_benchmarks(dist, 101)
    gap = bench.gbb - bench.fixed_price
    print("\ntwo separated markets, gbb_one_bit_paper alone (random grid offsets)")
    print(f"{'T':>11} {'seeds':>5} {'per-round rounds/s':>19} {'streamed rounds/s':>18} {'speed-up':>8} "
          f"{'x fixed (per-round)':>19} {'x fixed (streamed)':>18}")
    for exponent in (18, 20) if quick else (20, 22, 24, 26):
        horizon, seeds = 1 << exponent, (1 if exponent >= 26 else 3)
        ratios: dict[str, list[float]] = {"per-round": [], "streamed": []}
        seconds = {"per-round": 0.0, "streamed": 0.0}
        for seed in range(seeds):
            offset = float(np.random.default_rng([seed, 5]).random())
            if exponent <= 22:  # the per-round learner keeps arrays of T rounds
                pool_rng = np.random.default_rng([seed, horizon, 11])
                pools = (dist.sample(pool_rng, horizon), dist.sample(pool_rng, horizon))
                start = time.process_time()
                outcome = run_learner("gbb_one_bit_paper", dist, pools, np.random.default_rng(seed),
                                      LearnerSettings(), bench.fixed_price_x, offset)
                seconds["per-round"] += time.process_time() - start
                ratios["per-round"].append(outcome.final_regret(bench.gbb) / (gap * horizon))
            start = time.process_time()
            streamed = stream_learner("gbb_one_bit_paper", dist, np.random.default_rng(seed), horizon,
                                      np.array([horizon]), bench.fixed_price_x, offset)
            seconds["streamed"] += time.process_time() - start
            ratios["streamed"].append(streamed.final_regret(bench.gbb) / (gap * horizon))
        rate = {k: seeds * horizon / v if v else None for k, v in seconds.items()}
        cells = [f"{rate[k]:,.0f}" if rate[k] else "—" for k in ("per-round", "streamed")]
        fast, slow = rate["streamed"], rate["per-round"]
        speed = f"{fast / slow:.1f}x" if fast and slow else "—"
        shown = [f"{np.mean(ratios[k]):.2f}" if ratios[k] else "—" for k in ("per-round", "streamed")]
        print(f"{horizon:>11,} {seeds:>5} {cells[0]:>19} {cells[1]:>18} {speed:>8} {shown[0]:>19} {shown[1]:>18}")


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
