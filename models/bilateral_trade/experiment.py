"""Runs one learner on one market and turns the record into regret, profit and phase statistics."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.bilateral_trade.distributions import ValuationDistribution, gft_table
from models.bilateral_trade.learner_info import LearnerInfo
from models.bilateral_trade.learners import LEARNERS, LearnerContext
from models.bilateral_trade.market import COLLECT, EXPLOIT, EXPLORE, GUARD, PHASE_NAMES, Market
from models.bilateral_trade.schedule import LearnerSettings

__all__ = [
    "PHASE_KEYS",
    "LearnerRun",
    "crossing_round",
    "expected_gft",
    "fit_slope",
    "horizon_grid",
    "phase_spans",
    "run_learner",
    "win_horizon",
    "win_horizon_at_rate",
]

# result keys of the phases, in the market's phase codes
PHASE_KEYS = {COLLECT: "collection", EXPLORE: "exploration", EXPLOIT: "exploitation", GUARD: "guard"}


@dataclass
class LearnerRun:
    """One learner over one horizon: expected GFT and realised profit of every round (typed result
    of a learner; `info` keeps its learner-specific diagnostics, such as the exploration estimates)."""

    name: str
    expected_gft: np.ndarray
    profit: np.ndarray
    seller_price: np.ndarray
    buyer_price: np.ndarray
    phase: np.ndarray
    grid_points: int
    product_form: bool | None = None
    info: LearnerInfo = field(default_factory=LearnerInfo)

    def regret(self, benchmark: float) -> np.ndarray:
        """Cumulative pseudo-regret t * OPT - sum_{tau <= t} E[GFT(p_tau, q_tau)]."""
        rounds = np.arange(1, len(self.expected_gft) + 1)
        return rounds * benchmark - np.cumsum(self.expected_gft)

    def final_regret(self, benchmark: float) -> float:
        """The cumulative regret at the last round."""
        return float(len(self.expected_gft) * benchmark - self.expected_gft.sum())

    def regret_by_phase(self, benchmark: float) -> dict[str, float]:
        """sum over the rounds of each phase of OPT - E[GFT]; the values add up to the final regret."""
        per_round = benchmark - self.expected_gft
        totals = np.bincount(self.phase, weights=per_round, minlength=4)
        return {key: float(totals[code]) for code, key in PHASE_KEYS.items()}

    def cumulative_profit(self) -> np.ndarray:
        return np.cumsum(self.profit)


def run_learner(
    name: str,
    dist: ValuationDistribution,
    pools: tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    rng: np.random.Generator,
    settings: LearnerSettings,
    best_price: float,
    grid_offset: float | None = None,
) -> LearnerRun:
    """Play learner `name` on a market reading the given valuation pools (planned, guard), whose
    length is the horizon; sharing pools across learners gives common random numbers."""
    spec = LEARNERS.get(name)
    if spec is None:
        raise ValueError(f"unknown learner {name!r}")
    market = Market(*pools)
    schedule = spec.schedule(market.horizon, settings, grid_offset)
    info = spec.play(market, LearnerContext(rng, schedule, settings, best_price))
    log = market.log()
    expected = expected_gft(dist, log.seller_price, log.buyer_price)
    return LearnerRun(
        name,
        expected,
        log.profit,
        log.seller_price,
        log.buyer_price,
        log.phase,
        grid_points=schedule.grid_points,
        product_form=info.product_form,
        info=info,
    )


def expected_gft(dist: ValuationDistribution, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """E[GFT(p_t, q_t)] of every round, evaluated once per run of identical consecutive couples
    (a committed or fixed price repeats one couple for most of the horizon)."""
    if len(p) == 0:
        return np.zeros(0)
    starts = np.concatenate(([0], np.flatnonzero((p[1:] != p[:-1]) | (q[1:] != q[:-1])) + 1))
    values = gft_table(dist, p[starts], q[starts])["gft"]
    return np.repeat(values, np.diff(np.append(starts, len(p))))


def horizon_grid(horizon: int, min_exponent: int) -> list[int]:
    """The doubling grid T, T/2, T/4, ... down to 2^min_exponent, in increasing order."""
    horizons = [horizon]
    while horizons[-1] // 2 >= 2**min_exponent:
        horizons.append(horizons[-1] // 2)
    return sorted(horizons)


def fit_slope(horizons: list[int], regrets: list[float]) -> float | None:
    """Least-squares slope of log(regret) against log(T) over the horizons with positive regret
    (regret below 1e-6 per round counts as zero: float round-off of T x OPT - sum of GFT)."""
    fit = fit_power_law(horizons, regrets)
    return None if fit is None else fit[0]


def fit_power_law(horizons: list[int], regrets: list[float]) -> tuple[float, float] | None:
    """(slope, log intercept) of the least-squares line through log(regret) against log(T)."""
    pairs = [(h, r) for h, r in zip(horizons, regrets, strict=True) if r > 1e-6 * h]
    if len(pairs) < 2:
        return None
    x = np.log([h for h, _ in pairs])
    y = np.log([r for _, r in pairs])
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept)


def crossing_round(regret: np.ndarray, fixed_price_regret_per_round: float,
                   rounds: np.ndarray | None = None) -> int | None:
    """The round (1-based) from which the cumulative regret stays at or below the best fixed
    price's, t x (OPT - fixed price); None if it is above at the last round. `rounds` are the rounds
    of the regret values (default 1, 2, ...: every round); with checkpoints the answer is the first
    checkpoint of the final stretch below the line."""
    t = np.arange(1, len(regret) + 1) if rounds is None else np.asarray(rounds)
    line = t * fixed_price_regret_per_round
    above = np.flatnonzero(regret > line + 1e-9)
    if len(above) == 0:
        return int(t[0]) if rounds is not None else 1
    last = int(above[-1])
    if last == len(regret) - 1:
        return None
    return last + 2 if rounds is None else int(t[last + 1])


def win_horizon(slope: float | None, log_intercept: float | None, gap: float) -> float | None:
    """The horizon T at which the fitted regret exp(c) T^slope meets the fixed price's gap x T
    (None when the fit is missing, the slope is not below 1 or the gap is 0)."""
    if slope is None or log_intercept is None or slope >= 1.0 or gap <= 0:
        return None
    return float(np.exp((log_intercept - np.log(gap)) / (1.0 - slope)))


def win_horizon_at_rate(horizon: int, regret: float, gap: float, rate: float = 0.75) -> float | None:
    """The horizon at which regret x (T' / T)^rate meets gap x T' if the regret grows at the paper's
    rate from here on: T (regret / (gap T))^(1 / (1 - rate)); None when it already wins or gap = 0."""
    fixed = gap * horizon
    if fixed <= 0 or regret <= fixed:
        return None
    return float(horizon * (regret / fixed) ** (1.0 / (1.0 - rate)))


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
