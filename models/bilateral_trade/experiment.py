"""Runs one learner on one market and turns the record into regret, profit and phase statistics."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.bilateral_trade.distributions import ValuationDistribution, gft_table
from models.bilateral_trade.learners_gbb import gbb_full_learner, gbb_one_bit_learner
from models.bilateral_trade.learners_two_bit import wbb_two_bit_learner
from models.bilateral_trade.learners_wbb import fixed_price_learner, wbb_one_bit_learner
from models.bilateral_trade.market import COLLECT, EXPLOIT, EXPLORE, GUARD, PHASE_NAMES, Market
from models.bilateral_trade.schedule import LearnerSettings, make_schedule

__all__ = ["LearnerRun", "fit_slope", "horizon_grid", "phase_spans", "run_learner"]


@dataclass
class LearnerRun:
    """One learner over one horizon: expected GFT and realised profit of every round."""

    name: str
    expected_gft: np.ndarray
    profit: np.ndarray
    seller_price: np.ndarray
    buyer_price: np.ndarray
    phase: np.ndarray
    info: dict[str, object] = field(default_factory=dict)

    def regret(self, benchmark: float) -> np.ndarray:
        """Cumulative pseudo-regret t * OPT - sum_{tau <= t} E[GFT(p_tau, q_tau)]."""
        rounds = np.arange(1, len(self.expected_gft) + 1)
        return rounds * benchmark - np.cumsum(self.expected_gft)

    def cumulative_profit(self) -> np.ndarray:
        return np.cumsum(self.profit)


def run_learner(
    name: str,
    dist: ValuationDistribution,
    pools: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    rng: np.random.Generator,
    settings: LearnerSettings,
    best_price: float,
) -> LearnerRun:
    """Play learner `name` on a market reading the given valuation pools (planned, guard), whose
    length is the horizon; sharing pools across learners gives common random numbers."""
    market = Market(*pools)
    schedule = make_schedule(market.horizon, settings)
    if name == "fixed_price":
        info: dict[str, object] = dict(fixed_price_learner(market, best_price))
    elif name == "wbb_one_bit":
        info = dict(wbb_one_bit_learner(market, rng, schedule))
    elif name == "wbb_two_bit":
        info = wbb_two_bit_learner(market, rng, schedule)
    elif name == "gbb_one_bit":
        info = gbb_one_bit_learner(market, rng, schedule, settings)
    elif name == "gbb_full":
        info = gbb_full_learner(market, rng, schedule, settings)
    else:
        raise ValueError(f"unknown learner {name!r}")
    log = market.log()
    expected = gft_table(dist, log.seller_price, log.buyer_price)["gft"]
    info.setdefault("grid_points", schedule.grid_points)
    return LearnerRun(name, expected, log.profit, log.seller_price, log.buyer_price, log.phase, info)


def horizon_grid(horizon: int, min_exponent: int) -> list[int]:
    """The doubling grid T, T/2, T/4, ... down to 2^min_exponent, in increasing order."""
    horizons = [horizon]
    while horizons[-1] // 2 >= 2**min_exponent:
        horizons.append(horizons[-1] // 2)
    return sorted(horizons)


def fit_slope(horizons: list[int], regrets: list[float]) -> float | None:
    """Least-squares slope of log(regret) against log(T) over the horizons with positive regret
    (regret below 1e-6 per round counts as zero: float round-off of T x OPT - sum of GFT)."""
    pairs = [(h, r) for h, r in zip(horizons, regrets, strict=True) if r > 1e-6 * h]
    if len(pairs) < 2:
        return None
    x = np.log([h for h, _ in pairs])
    y = np.log([r for _, r in pairs])
    return float(np.polyfit(x, y, 1)[0])


def phase_spans(phase: np.ndarray) -> list[dict[str, object]]:
    """First and last round (1-based, inclusive) of each phase, and its number of rounds."""
    spans = []
    for code in (COLLECT, EXPLORE, EXPLOIT, GUARD):
        where = np.flatnonzero(phase == code)
        if len(where):
            spans.append(
                {
                    "phase": PHASE_NAMES[code],
                    "start": int(where[0]) + 1,
                    "end": int(where[-1]) + 1,
                    "rounds": len(where),
                }
            )
    return spans
