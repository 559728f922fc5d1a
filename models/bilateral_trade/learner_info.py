"""What a learner's play rule returns besides the market's log: its diagnostics, one typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from models.bilateral_trade.learners_two_bit import TwoBitEstimates

__all__ = ["LearnerInfo"]


@dataclass(frozen=True)
class LearnerInfo:
    """A learner's diagnostics; a field is None where the learner does not produce it.

    `price`: the posted fixed price (fixed_price) or the committed one (wbb_one_bit, wbb_two_bit).
    `grid_points`, `lp_solves`: the GBB learners' grid size K and optimistic LP solves (gbb_full: K only).
    `fallback`: the most profitable couple of the collection phase (gbb_one_bit).
    `left`, `right`: the exploration estimates L_hat, R_hat on the K x K grid (gbb_one_bit, gbb_one_bit_paper).
    `estimates`, `gft_estimate`, `product_form`, `dependent_prices`: wbb_two_bit's estimates, its GFT
    estimate of every grid price, whether it used the product form, and at how many grid prices the
    dependence test fired.
    """

    price: float | None = None
    grid_points: int | None = None
    lp_solves: int | None = None
    fallback: tuple[float, float] | None = None
    left: np.ndarray | None = None
    right: np.ndarray | None = None
    estimates: TwoBitEstimates | None = None
    gft_estimate: np.ndarray | None = None
    product_form: bool | None = None
    dependent_prices: int | None = None
