"""WBB explore-then-commit with two-bit feedback: the GFT of every grid price from each round (the
inverse-propensity integrals in learners_two_bit_integrals.py)."""

from __future__ import annotations

import math

import numpy as np

from models.bilateral_trade.learner_info import DEPENDENCE_LEVEL, LearnerInfo, TwoBitEstimates
from models.bilateral_trade.learners_two_bit_integrals import (
    bernstein,
    buyer_integral,
    design_density,
    seller_integral,
)
from models.bilateral_trade.market import EXPLOIT, EXPLORE, Market
from models.bilateral_trade.schedule import Schedule

__all__ = [
    "DEPENDENCE_LEVEL",
    "TwoBitEstimates",
    "two_bit_design",
    "two_bit_estimates",
    "wbb_two_bit_learner",
]




def two_bit_design(
    grid: np.ndarray, samples_per_line: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The one-bit learner's exploration plan (line, seller_side, p, q), in random order: for every
    grid price x_k, n seller-side rounds (U x_k, x_k) and n buyer-side rounds (x_k, x_k + U (1 - x_k)),
    U ~ U[0, 1], so p <= q in every round. Sharing the plan isolates what the second bit adds."""
    k, n = len(grid), samples_per_line
    line = np.repeat(np.arange(k), 2 * n)
    seller_side = np.tile(np.repeat([True, False], n), k)
    order = rng.permutation(len(line))
    line, seller_side = line[order], seller_side[order]
    x = grid[line]
    u = rng.random(len(line))
    p = np.where(seller_side, u * x, x)
    q = np.where(seller_side, x, x + u * (1.0 - x))
    return line, seller_side, p, q


def _line_stats(
    index: np.ndarray, values: np.ndarray, k: int, log_term: float, default: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per grid line: sample count, mean of values in [0, 1] (`default` with no sample), Hoeffding
    radius (1 with no sample) and standard error (with the (hits + 1) / (count + 2) frequency, so
    a line with no hit is not taken as exact)."""
    count = np.bincount(index, minlength=k).astype(float)
    total = np.bincount(index, weights=values.astype(float), minlength=k)
    safe = np.maximum(count, 1.0)
    mean = np.where(count > 0, total / safe, default)
    radius = np.where(count > 0, np.minimum(np.sqrt(log_term / (2.0 * safe)), 1.0), 1.0)
    smooth = (total + 1.0) / (count + 2.0)
    return count, mean, radius, np.sqrt(smooth * (1.0 - smooth) / safe)


def two_bit_estimates(
    grid: np.ndarray,
    line: np.ndarray,
    seller_side: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
    seller_bits: np.ndarray,
    buyer_bits: np.ndarray,
    confidence_log: float,
) -> TwoBitEstimates:
    """All estimates of `TwoBitEstimates` from the rounds of `two_bit_design` and their two bits.

    * Seller-side round of x_k (posts (P, x_k), P ~ U[0, x_k]): the buyer bit 1{b >= x_k} samples
      G(x_k), the seller bit 1{s <= P} samples F at the random price P, and the trade bit (their
      product) samples L(x_k) / x_k. Buyer-side rounds are symmetric (F(x_k), 1{b >= Q}, R(x_k)).
    * I_S(x_j) = int_0^{x_j} F for every j at once, by inverse propensity: the seller prices P_t
      have summed density S_S(u) = sum_{k: x_k >= u} n_k / x_k over the plan, so
      sum_t 1{s <= P_t} 1{P_t <= x_j} / S_S(P_t) is unbiased; its terms lie in [0, 1/S_S(1)] and
      its variance is at most int_0^{x_j} 1/S_S (Bernstein radius). I_B likewise.
    None of these needs independence of s and b; only the product form GFT = G I_S + F I_B does.
    """
    k = len(grid)
    log_term = confidence_log + math.log(6 * k)  # union bound over the 6K statements
    sellers, buyers = seller_side, ~seller_side
    trade = seller_bits & buyer_bits
    count_s, survival, r_surv, se_surv = _line_stats(line[sellers], buyer_bits[sellers], k, log_term, 1.0)
    count_b, cdf, r_cdf, se_cdf = _line_stats(line[buyers], seller_bits[buyers], k, log_term, 1.0)
    _, left_mean, r_left, se_left = _line_stats(line[sellers], trade[sellers], k, log_term, 0.0)
    _, right_mean, r_right, se_right = _line_stats(line[buyers], trade[buyers], k, log_term, 0.0)

    lengths, density_s, density_b = design_density(grid, count_s, count_b)
    use_s = sellers & (grid[line] > 0)  # P = 0 when x_k = 0: an atom outside the density
    integral_s, square_s, bound_s, range_s = seller_integral(
        grid, p[use_s], seller_bits[use_s], lengths, density_s
    )
    use_b = buyers & (grid[line] < 1)
    integral_b, square_b, bound_b, range_b = buyer_integral(
        grid, q[use_b], buyer_bits[use_b], lengths, density_b
    )
    return TwoBitEstimates(
        grid=grid,
        seller_cdf=cdf,
        buyer_survival=survival,
        seller_integral=integral_s,
        buyer_integral=integral_b,
        left_joint=grid * left_mean,
        right_joint=(1.0 - grid) * right_mean,
        radius_cdf=r_cdf,
        radius_survival=r_surv,
        radius_seller_integral=np.minimum(bernstein(bound_s, range_s, log_term), grid),
        radius_buyer_integral=np.minimum(bernstein(bound_b, range_b, log_term), 1.0 - grid),
        radius_left_joint=grid * r_left,
        radius_right_joint=(1.0 - grid) * r_right,
        se_left_joint=grid * se_left,
        se_right_joint=(1.0 - grid) * se_right,
        se_left_product=np.sqrt(integral_s**2 * se_surv**2 + survival**2 * square_s),
        se_right_product=np.sqrt(integral_b**2 * se_cdf**2 + cdf**2 * square_b),
        rounds_per_side=int(count_s.max(initial=0)),
    )


def wbb_two_bit_learner(market: Market, rng: np.random.Generator, schedule: Schedule) -> LearnerInfo:
    """Explore-then-commit over fixed prices with two-bit feedback (Cesa-Bianchi et al. 2021 style).

    Exploration: exactly the one-bit learner's plan (`two_bit_design`: 2Kn rounds, p <= q), but
    observing 1{s <= p} and 1{b >= q} separately. Every round updates the integrals I_S or I_B at
    all K grid prices and one point value G(x_k) or F(x_k), so the product estimate
    G(x) I_S(x) + F(x) I_B(x) of GFT(x) is much tighter than the one-bit estimate when s and b are
    independent. A dependence test decides between it and the joint (one-bit) estimate from the
    same rounds (see `TwoBitEstimates.gft`). Then it commits to the best estimated grid price x
    (p = q = x) for the remaining rounds; every round is weakly budget balanced.
    """
    grid = schedule.grid
    line, seller_side, p, q = two_bit_design(grid, schedule.samples_per_line, rng)
    seller_bits, buyer_bits = market.play_two_bit(p, q, EXPLORE, fallback=(0.0, 1.0))
    done = len(seller_bits)
    estimates = two_bit_estimates(
        grid,
        line[:done],
        seller_side[:done],
        p[:done],
        q[:done],
        seller_bits,
        buyer_bits,
        schedule.confidence_log,
    )
    gft, product_used = estimates.gft()
    best = float(grid[int(np.argmax(gft))])
    prices = np.full(market.remaining, best)
    market.play(prices, prices, EXPLOIT, fallback=(best, best))
    return LearnerInfo(
        price=best,
        estimates=estimates,
        gft_estimate=gft,
        product_form=product_used,
        dependent_prices=int(np.count_nonzero(estimates.dependence())),
    )
