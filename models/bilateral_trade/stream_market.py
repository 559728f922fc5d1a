"""A streaming market: what a long run records without keeping any per-round array.

It keeps the budget, the cumulative expected GFT and realised profit at the checkpoint rounds, each
phase's expected GFT and rounds, its first and last round, and a 20 x 20 histogram of the posted couples:
memory is fixed by the checkpoints and the learner's state, not by the horizon T. Rounds arrive either
one by one (`play_rounds`, the exact budget guard of `Market.play_or_halt`) or as a block of i.i.d. rounds
summarised by counts (`add_block`); a caller splits blocks at `room()` so no block crosses a checkpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.bilateral_trade.distributions import EPS, ValuationDistribution, gft_table
from models.bilateral_trade.market import GUARD, PHASE_NAMES

__all__ = ["HEAT_BINS", "StreamRecorder"]

HEAT_BINS = 20
_MARGIN = 1e-9  # as in Market: a subsidy is posted only when the budget exceeds its worst loss by this


def _bins(x: np.ndarray) -> np.ndarray:
    return np.minimum((np.asarray(x) * HEAT_BINS).astype(int), HEAT_BINS - 1)


@dataclass
class StreamRecorder:
    """The record of one learner's run over `horizon` rounds, at the given checkpoint rounds (ascending)."""

    horizon: int
    checkpoints: np.ndarray
    t: int = 0
    budget: float = 0.0
    gft: float = 0.0
    min_profit: float = 0.0  # a lower bound on the cumulative profit of every round
    gft_at: list[float] = field(default_factory=list)
    profit_at: list[float] = field(default_factory=list)
    phase_gft: np.ndarray = field(default_factory=lambda: np.zeros(4))
    phase_rounds: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    first: dict[int, int] = field(default_factory=dict)
    last: dict[int, int] = field(default_factory=dict)
    heat: np.ndarray = field(default_factory=lambda: np.zeros((HEAT_BINS, HEAT_BINS)))

    @property
    def remaining(self) -> int:
        return self.horizon - self.t

    def room(self) -> int:
        """Rounds left before the next checkpoint (inclusive)."""
        done = len(self.gft_at)
        return int(self.checkpoints[done]) - self.t if done < len(self.checkpoints) else self.remaining

    def _span(self, phase: int, start: int, stop: int) -> None:
        self.first.setdefault(phase, start + 1)
        self.last[phase] = stop

    def _close(self) -> None:
        while len(self.gft_at) < len(self.checkpoints) and self.t >= self.checkpoints[len(self.gft_at)]:
            self.gft_at.append(self.gft)
            self.profit_at.append(self.budget)

    def add_block(self, rounds: int, gft: float, profit: float, phase: int, p: np.ndarray, q: np.ndarray,
                  counts: np.ndarray, worst_loss: float = 0.0) -> None:
        """`rounds` i.i.d. rounds of one phase: couples (p, q) posted `counts` times, expected GFT `gft` in
        all, realised profit `profit`; `worst_loss` bounds how far the budget can dip inside the block."""
        assert 0 < rounds <= self.room(), "a block may not cross a checkpoint"
        self.min_profit = min(self.min_profit, self.budget - worst_loss)
        self._span(phase, self.t, self.t + rounds)
        self.t += rounds
        self.gft += gft
        self.budget += profit
        self.min_profit = min(self.min_profit, self.budget)
        self.phase_gft[phase] += gft
        self.phase_rounds[phase] += rounds
        np.add.at(self.heat, (_bins(p), _bins(q)), counts / self.horizon)
        self._close()

    def play_rounds(self, dist: ValuationDistribution, rng: np.random.Generator, p: np.ndarray, q: np.ndarray,
                    phase: int) -> tuple[np.ndarray, np.ndarray]:
        """Post the couples one round each (a prefix if the horizon ends), fresh valuations from D, with the
        guard of `Market.play_or_halt`: a subsidy the budget cannot cover posts (0, 1) instead (phase GUARD).
        Returns (trade bits, played mask)."""
        n = min(len(p), self.remaining)
        s, b = dist.sample(rng, n)
        p, q = np.asarray(p[:n], dtype=float).copy(), np.asarray(q[:n], dtype=float).copy()
        trade = (s <= p + EPS) & (b >= q - EPS)
        profit = np.where(trade, q - p, 0.0)
        played = np.ones(n, dtype=bool)
        loss = p - q
        before = self.budget + np.concatenate(([0.0], np.cumsum(profit)[:-1]))
        short = np.flatnonzero((loss > 0) & (loss + _MARGIN > before))
        if len(short):  # from the first shortfall on, each decision depends on the budget path
            budget = float(before[short[0]])
            for i in range(int(short[0]), n):
                if loss[i] > 0 and loss[i] + _MARGIN > budget:
                    played[i], p[i], q[i] = False, 0.0, 1.0
                    trade[i] = bool(s[i] <= EPS and b[i] >= 1.0 - EPS)
                    profit[i] = 1.0 if trade[i] else 0.0
                budget += float(profit[i])
        gft = gft_table(dist, p, q)["gft"]
        phases = np.where(played, phase, GUARD)
        start = 0
        while start < n:  # split at the checkpoints
            stop = start + min(self.room(), n - start)
            self.record_rounds(gft[start:stop], profit[start:stop], phases[start:stop], p[start:stop], q[start:stop])
            start = stop
        return trade, played

    def record_rounds(self, gft: np.ndarray, profit: np.ndarray, phases: np.ndarray, p: np.ndarray, q: np.ndarray) -> None:
        cumulative = self.budget + np.cumsum(profit)
        self.min_profit = min(self.min_profit, float(cumulative.min(initial=0.0)))
        for code in np.unique(phases):
            where = np.flatnonzero(phases == code)
            self._span(int(code), self.t + int(where[0]), self.t + int(where[-1]) + 1)
            self.phase_gft[code] += float(gft[where].sum())
            self.phase_rounds[code] += len(where)
        self.t += len(gft)
        self.gft += float(gft.sum())
        self.budget = float(cumulative[-1]) if len(cumulative) else self.budget
        np.add.at(self.heat, (_bins(p), _bins(q)), 1.0 / self.horizon)
        self._close()

    def spans(self) -> list[dict[str, object]]:
        """First and last round (1-based) and rounds of each phase, in phase order."""
        return [{"phase": PHASE_NAMES[c], "start": self.first[c], "end": self.last[c],
                 "rounds": int(self.phase_rounds[c])} for c in sorted(self.first)]
