"""The learner registry: one typed home for each learner's label, colour, random stream and play rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from models.bilateral_trade.learner_info import LearnerInfo
from models.bilateral_trade.learners_gbb import gbb_full_learner, gbb_one_bit_learner
from models.bilateral_trade.learners_paper import gbb_one_bit_paper_learner
from models.bilateral_trade.learners_two_bit import wbb_two_bit_learner
from models.bilateral_trade.learners_wbb import fixed_price_learner, wbb_one_bit_learner
from models.bilateral_trade.market import Market
from models.bilateral_trade.schedule import LearnerSettings, Schedule, make_schedule, paper_schedule

__all__ = ["GBB_LEARNERS", "LEARNERS", "LearnerContext", "LearnerInfo", "LearnerName", "LearnerSpec", "learner_names"]

LearnerName = Literal[
    "fixed_price", "wbb_one_bit", "wbb_two_bit", "gbb_one_bit", "gbb_one_bit_paper", "gbb_full"
]


@dataclass(frozen=True)
class LearnerContext:
    """What a play rule may use besides the market: its random stream, schedule and settings."""

    rng: np.random.Generator
    schedule: Schedule
    settings: LearnerSettings
    best_fixed_price: float


@dataclass(frozen=True)
class LearnerSpec:
    """One learner: how it is shown, which random stream it draws from, and how it plays.

    `stream` is the stable id of the learner's random stream (fixed forever, so adding a learner
    never changes another's numbers; learners sharing a stream share their exploration plan).
    `paper_schedule` learners ignore the advanced settings (the paper's constants).
    """

    name: LearnerName
    label: str
    colour: str
    stream: int
    family: Literal["wbb", "gbb"]
    play: Callable[[Market, LearnerContext], LearnerInfo]
    feedback: str
    uses_paper_schedule: bool = False

    def schedule(self, horizon: int, settings: LearnerSettings, grid_offset: float | None) -> Schedule:
        if self.uses_paper_schedule:
            return paper_schedule(horizon, grid_offset)
        return make_schedule(horizon, settings, grid_offset)


def _fixed(market: Market, c: LearnerContext) -> LearnerInfo:
    return fixed_price_learner(market, c.best_fixed_price)


def _wbb_one_bit(market: Market, c: LearnerContext) -> LearnerInfo:
    return wbb_one_bit_learner(market, c.rng, c.schedule)


def _wbb_two_bit(market: Market, c: LearnerContext) -> LearnerInfo:
    return wbb_two_bit_learner(market, c.rng, c.schedule)


def _gbb_one_bit(market: Market, c: LearnerContext) -> LearnerInfo:
    return gbb_one_bit_learner(market, c.rng, c.schedule, c.settings)


def _gbb_paper(market: Market, c: LearnerContext) -> LearnerInfo:
    return gbb_one_bit_paper_learner(market, c.rng, c.schedule)


def _gbb_full(market: Market, c: LearnerContext) -> LearnerInfo:
    return gbb_full_learner(market, c.rng, c.schedule, c.settings)


_SPECS = (
    LearnerSpec("fixed_price", "Best fixed price (WBB oracle)", "#7f7f7f", 1, "wbb", _fixed, "knows D"),
    LearnerSpec(
        "wbb_one_bit", "WBB explore-then-commit, one-bit", "#1f77b4", 2, "wbb", _wbb_one_bit, "one bit"
    ),
    # same stream as wbb_one_bit: both post the same exploration couples, so their regret gap is
    # what the second feedback bit buys
    LearnerSpec(
        "wbb_two_bit", "WBB explore-then-commit, two-bit", "#9467bd", 2, "wbb", _wbb_two_bit, "two bits"
    ),
    LearnerSpec("gbb_one_bit", "GBB one-bit, practical", "#d62728", 3, "gbb", _gbb_one_bit, "one bit"),
    LearnerSpec(
        "gbb_one_bit_paper",
        "GBB one-bit, as in the paper",
        "#ff7f0e",
        6,
        "gbb",
        _gbb_paper,
        "one bit",
        uses_paper_schedule=True,
    ),
    LearnerSpec("gbb_full", "GBB full feedback (reference)", "#2ca02c", 4, "gbb", _gbb_full, "sees (s, b)"),
)
LEARNERS: dict[str, LearnerSpec] = {spec.name: spec for spec in _SPECS}
GBB_LEARNERS = ("gbb_one_bit", "gbb_one_bit_paper")  # the one-bit GBB learners the verdict is about


def learner_names() -> tuple[str, ...]:
    """All learner names in display order."""
    return tuple(LEARNERS)
