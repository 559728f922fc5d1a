"""The repeated market: posts price couples round by round, vectorised, with the exact GBB guard."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.bilateral_trade.distributions import EPS, ValuationDistribution

__all__ = ["COLLECT", "EXPLOIT", "EXPLORE", "GUARD", "PHASE_NAMES", "Market", "MarketLog"]

COLLECT, EXPLORE, EXPLOIT, GUARD = 0, 1, 2, 3
_MARGIN = 1e-9
PHASE_NAMES = {
    COLLECT: "profit collection",
    EXPLORE: "exploration",
    EXPLOIT: "exploitation",
    GUARD: "guard top-up",
}


@dataclass
class MarketLog:
    """What happened in every round: posted prices, trade bit, realised profit and phase."""

    seller_price: np.ndarray
    buyer_price: np.ndarray
    trade: np.ndarray
    profit: np.ndarray
    phase: np.ndarray


class Market:
    """T rounds of bilateral trade with i.i.d. valuations from D (Lunghi et al. 2026).

    Round t: seller value s_t, buyer value b_t; the learner posts (p_t, q_t); trade iff s_t <= p_t
    and b_t >= q_t; profit (q_t - p_t) 1{trade}. The budget is the realised cumulative profit.

    GBB guard: a subsidised couple (p > q) is posted only when the budget covers its worst loss
    p - q; otherwise the learner's WBB `fallback` couple is posted first (phase GUARD) until it
    does, so the cumulative profit is never negative. Planned couples keep their order.

    Vectorisation: planned rounds and guard rounds read values from two i.i.d. pools, so the
    number of guard rounds before planned round i is F_i = max_{j <= i} g_j, where g_j is the
    first k with budget + (planned profit before j) + (first k fallback profits) >= need_j. The
    fallback profit is non-negative, so its cumulative sum is sorted and g is one searchsorted.
    Which pool a round reads from depends only on earlier values, so every round is still a fresh
    draw from D.
    """

    def __init__(
        self, planned_values: tuple[np.ndarray, np.ndarray], guard_values: tuple[np.ndarray, np.ndarray]
    ) -> None:
        self.horizon = len(planned_values[0])
        self._pools = (planned_values, guard_values)
        self._next = [0, 0]
        self.t = 0
        self.budget = 0.0
        self._p = np.zeros(self.horizon)
        self._q = np.ones(self.horizon)
        self._s = np.zeros(self.horizon)
        self._b = np.zeros(self.horizon)
        self._trade = np.zeros(self.horizon, dtype=bool)
        self._phase = np.full(self.horizon, EXPLOIT, dtype=np.int8)

    @classmethod
    def sample(cls, dist: ValuationDistribution, horizon: int, rng: np.random.Generator) -> Market:
        """A market with fresh valuation pools drawn from `dist`."""
        return cls(dist.sample(rng, horizon), dist.sample(rng, horizon))

    @property
    def remaining(self) -> int:
        return self.horizon - self.t

    def observed_values(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """(s, b) of rounds start..stop-1: full feedback, for learners that are allowed to see it."""
        return self._s[start:stop], self._b[start:stop]

    def _draw(self, pool: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        s, b = self._pools[pool]
        first = self._next[pool]
        return s[first : first + n], b[first : first + n]

    def play(
        self,
        p: np.ndarray,
        q: np.ndarray,
        phase: int,
        fallback: tuple[float, float],
        max_rounds: int | None = None,
    ) -> np.ndarray:
        """Post the planned couples in order under the GBB guard; returns their trade bits.

        Stops early when the horizon ends or after `max_rounds` rounds (guard rounds included),
        so the result may be shorter than the plan.
        """
        if fallback[1] < fallback[0]:
            raise ValueError("the fallback couple must be weakly budget balanced (p <= q)")
        stop = self.horizon if max_rounds is None else min(self.horizon, self.t + max_rounds)
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        bits = []
        done = 0
        while done < len(p) and self.t < stop:
            chunk = self._play_chunk(p[done:], q[done:], phase, fallback, stop - self.t)
            bits.append(chunk)
            done += len(chunk)
        return np.concatenate(bits) if bits else np.zeros(0, dtype=bool)

    def play_or_halt(self, p: np.ndarray, q: np.ndarray, phase: int) -> tuple[np.ndarray, np.ndarray]:
        """Post the planned couples in order; a subsidised couple whose worst loss p - q the budget
        cannot cover is replaced, in its own round, by the no-trade couple (0, 1) (phase GUARD).

        Returns (trade bits, played mask) of the posted prefix of the plan: a replaced round has
        played = False and its bit carries no information about the planned couple. Nothing is
        delayed and no profit is collected on the learner's behalf: the minimal safety that keeps
        the realised budget non-negative for a learner whose analysis only holds w.h.p.
        """
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        n = min(len(p), self.remaining)
        s, b = self._draw(0, n)
        p, q = p[:n].copy(), q[:n].copy()
        played = np.ones(n, dtype=bool)
        trade = (s <= p + EPS) & (b >= q - EPS)
        profit = np.where(trade, q - p, 0.0)
        loss = p - q
        before = self.budget + np.concatenate(([0.0], np.cumsum(profit)[:-1]))
        short = np.flatnonzero((loss > 0) & (loss + _MARGIN > before))
        budget = self.budget + float(profit.sum())
        if len(short):  # from the first shortfall on, the budget path depends on each decision
            first = int(short[0])
            budget = float(before[first])
            for i in range(first, n):
                if loss[i] > 0 and loss[i] + _MARGIN > budget:
                    played[i] = False
                    p[i], q[i] = 0.0, 1.0
                    trade[i] = bool(s[i] <= EPS and b[i] >= 1.0 - EPS)
                    profit[i] = 1.0 if trade[i] else 0.0
                budget += float(profit[i])
        self._record(p, q, s, b, trade, np.where(played, phase, GUARD).astype(np.int8))
        self.budget = budget
        self._next[0] += n
        return trade, played

    def play_two_bit(
        self, p: np.ndarray, q: np.ndarray, phase: int, fallback: tuple[float, float]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Post a weakly budget balanced plan (p <= q in every round) and return its two-bit
        feedback (1{s <= p}, 1{b >= q}) round by round, never s or b themselves.

        A WBB plan never triggers the GBB guard, so its rounds are contiguous in the record.
        """
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        if np.any(p > q):
            raise ValueError("two-bit plans must be weakly budget balanced (p <= q in every round)")
        start = self.t
        trade = self.play(p, q, phase, fallback)
        n = len(trade)
        s, b = self._s[start : start + n], self._b[start : start + n]
        return s <= p[:n] + EPS, b >= q[:n] - EPS

    def _play_chunk(
        self, p: np.ndarray, q: np.ndarray, phase: int, fallback: tuple[float, float], limit: int
    ) -> np.ndarray:
        """Play a prefix of the plan within `limit` rounds, peeking at a bounded guard pool."""
        fp, fq = fallback
        n = min(len(p), limit, 1 << 17)
        p, q = p[:n], q[:n]
        s, b = self._draw(0, n)
        trade = (s <= p + EPS) & (b >= q - EPS)
        profit = np.where(trade, q - p, 0.0)
        loss = p - q
        if not np.any(loss > 0):  # weakly budget balanced plan: the guard never acts
            self._record(p, q, s, b, trade, np.full(n, phase, dtype=np.int8))
            self.budget = float(self.budget + profit.sum())
            self._next[0] += n
            return trade
        before = self.budget + np.concatenate(([0.0], np.cumsum(profit)[:-1]))
        need = np.where(loss > 0, loss + _MARGIN - before, -np.inf)
        peek = min(limit, max(4 * n, 4096))
        gs, gb = self._draw(1, peek)
        guard_trade = (gs <= fp + EPS) & (gb >= fq - EPS)
        guard_cum = np.concatenate(([0.0], np.cumsum(np.where(guard_trade, fq - fp, 0.0))))
        guards_before = np.maximum.accumulate(np.searchsorted(guard_cum, need, side="left"))
        slot = np.arange(n) + guards_before
        late = np.flatnonzero((slot >= limit) | (guards_before >= len(guard_cum)))
        done = int(late[0]) if len(late) else n
        if done == n:
            used_guard = int(guards_before[-1])
        else:
            used_guard = int(min(guards_before[done], limit - done, len(guard_cum) - 1))
        total = done + used_guard
        is_planned = np.zeros(total, dtype=bool)
        is_planned[slot[:done]] = True
        order = np.empty(total, dtype=int)  # index into the concatenation planned + guard
        order[is_planned] = np.arange(done)
        order[~is_planned] = done + np.arange(used_guard)
        merged_p = np.concatenate((p[:done], np.full(used_guard, fp)))[order]
        merged_q = np.concatenate((q[:done], np.full(used_guard, fq)))[order]
        merged_s = np.concatenate((s[:done], gs[:used_guard]))[order]
        merged_b = np.concatenate((b[:done], gb[:used_guard]))[order]
        merged_trade = np.concatenate((trade[:done], guard_trade[:used_guard]))[order]
        self._record(merged_p, merged_q, merged_s, merged_b, merged_trade, np.where(is_planned, phase, GUARD))
        self.budget = float(self.budget + profit[:done].sum() + guard_cum[used_guard])
        self._next[0] += done
        self._next[1] += used_guard
        return trade[:done]

    def _record(
        self, p: np.ndarray, q: np.ndarray, s: np.ndarray, b: np.ndarray, trade: np.ndarray, phase: np.ndarray
    ) -> None:
        window = slice(self.t, self.t + len(p))
        self._p[window], self._q[window], self._s[window], self._b[window] = p, q, s, b
        self._trade[window], self._phase[window] = trade, phase
        self.t += len(p)

    def log(self) -> MarketLog:
        """The record of the rounds played so far."""
        n = self.t
        profit = np.where(self._trade[:n], self._q[:n] - self._p[:n], 0.0)
        return MarketLog(self._p[:n], self._q[:n], self._trade[:n], profit, self._phase[:n])
