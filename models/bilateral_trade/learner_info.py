"""What a learner's play rule returns besides the market's log: its diagnostics, one typed record."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["DEPENDENCE_LEVEL", "LearnerInfo", "TwoBitEstimates"]

DEPENDENCE_LEVEL = 0.01  # false-alarm probability of the dependence test under independence


@dataclass(frozen=True)
class TwoBitEstimates:
    """Estimates at the grid prices x_k from two-bit exploration, with radii and standard errors.

    Marginals (valid for any D): F(x) = P(s <= x), G(x) = P(b >= x), I_S(x) = int_0^x F = E[(x-s)^+]
    and I_B(x) = int_x^1 G = E[(b-x)^+]. Joint (valid for any D, the one-bit estimator, one grid
    price per round): L(x) = E[(x - s) 1{s <= x <= b}], R(x) = E[(b - x) 1{s <= x <= b}], and
    GFT(x) = L(x) + R(x). Radii are Hoeffding (point values, joint) and Bernstein (integrals) at
    log(1/delta) = the schedule's log T plus a union bound; standard errors are empirical.
    """

    grid: np.ndarray
    seller_cdf: np.ndarray
    buyer_survival: np.ndarray
    seller_integral: np.ndarray
    buyer_integral: np.ndarray
    left_joint: np.ndarray
    right_joint: np.ndarray
    radius_cdf: np.ndarray
    radius_survival: np.ndarray
    radius_seller_integral: np.ndarray
    radius_buyer_integral: np.ndarray
    radius_left_joint: np.ndarray
    radius_right_joint: np.ndarray
    se_left_joint: np.ndarray
    se_right_joint: np.ndarray
    se_left_product: np.ndarray
    se_right_product: np.ndarray
    rounds_per_side: int

    @property
    def left_product(self) -> np.ndarray:
        """L(x) = G(x) I_S(x): exact when s and b are independent (Cesa-Bianchi et al. 2021)."""
        return self.buyer_survival * self.seller_integral

    @property
    def right_product(self) -> np.ndarray:
        """R(x) = F(x) I_B(x): exact when s and b are independent."""
        return self.seller_cdf * self.buyer_integral

    @property
    def radius_left_product(self) -> np.ndarray:
        """|G^ I^ - G I| <= G^ |I^ - I| + I |G^ - G|, with I_S(x) <= min(I^ + r, x)."""
        cap = np.minimum(self.seller_integral + self.radius_seller_integral, self.grid)
        return self.buyer_survival * self.radius_seller_integral + cap * self.radius_survival

    @property
    def radius_right_product(self) -> np.ndarray:
        cap = np.minimum(self.buyer_integral + self.radius_buyer_integral, 1.0 - self.grid)
        return self.seller_cdf * self.radius_buyer_integral + cap * self.radius_cdf

    def dependence(self, level: float = DEPENDENCE_LEVEL) -> np.ndarray:
        """Grid prices where the data reject L = G I_S or R = F I_B (so s and b are dependent).

        z-test of product minus joint at each of the 2K statements, Bonferroni at `level`, with the
        conservative standard error se_joint + se_product (the two share rounds). Under
        independence it fires with probability about `level` or less; it has power when the gap
        is a few standard errors (0.11 on two separated markets against ~0.015 at T = 2^16).
        """
        z = math.sqrt(2.0 * math.log(2.0 * 2 * len(self.grid) / level))
        gap_left = np.abs(self.left_product - self.left_joint)
        gap_right = np.abs(self.right_product - self.right_joint)
        return (gap_left > z * (self.se_left_joint + self.se_left_product) + 1e-12) | (
            gap_right > z * (self.se_right_joint + self.se_right_product) + 1e-12
        )

    def gft(self, level: float = DEPENDENCE_LEVEL) -> tuple[np.ndarray, bool]:
        """(GFT estimate of every grid price, whether the product form was used).

        If `dependence` fires anywhere, the product form is not trusted anywhere: the estimate is
        the joint one, exactly the one-bit learner's. Otherwise it is the product estimate projected
        onto the joint confidence interval [joint - r, joint + r], which holds the truth for any D
        w.h.p.: the projection is then never farther from the truth than the product estimate, and
        within 2r of it even under a dependence the test missed (twice the one-bit radius).
        """
        joint = self.left_joint + self.right_joint
        if np.any(self.dependence(level)):
            return joint, False
        left = np.clip(
            self.left_product,
            self.left_joint - self.radius_left_joint,
            self.left_joint + self.radius_left_joint,
        )
        right = np.clip(
            self.right_product,
            self.right_joint - self.radius_right_joint,
            self.right_joint + self.radius_right_joint,
        )
        return left + right, True


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
