"""Weakly budget balanced learners: the best fixed price oracle and a one-bit explore-then-commit."""

from __future__ import annotations

import numpy as np

from models.bilateral_trade.learner_info import LearnerInfo
from models.bilateral_trade.market import EXPLOIT, EXPLORE, Market
from models.bilateral_trade.schedule import Schedule

__all__ = ["fixed_price_learner", "wbb_one_bit_learner"]


def fixed_price_learner(market: Market, best_price: float) -> LearnerInfo:
    """Posts the best fixed price (p = q = x*) every round: the WBB benchmark played exactly."""
    prices = np.full(market.remaining, best_price)
    market.play(prices, prices, EXPLOIT, fallback=(best_price, best_price))
    return LearnerInfo(price=best_price)


def wbb_one_bit_learner(market: Market, rng: np.random.Generator, schedule: Schedule) -> LearnerInfo:
    """Explore-then-commit over fixed prices with one-bit feedback (Cesa-Bianchi et al. 2021 style).

    GFT(x) = L(x, x) + R(x, x) with L(x, x) = x E[1{trade at (U, x)}], U ~ U[0, x], and
    R(x, x) = (1 - x) E[1{trade at (x, V)}], V ~ U[x, 1]. Every explored couple has p <= q, so
    the learner is weakly budget balanced in every round. It then commits to the best estimate.
    """
    grid = schedule.grid
    k, n = len(grid), schedule.samples_per_line
    price_index = np.repeat(np.arange(k), 2 * n)
    seller_side = np.tile(np.repeat([True, False], n), k)  # True: random seller price (L), else R
    order = rng.permutation(len(price_index))
    price_index, seller_side = price_index[order], seller_side[order]
    x = grid[price_index]
    u = rng.random(len(x))
    p = np.where(seller_side, u * x, x)
    q = np.where(seller_side, x, x + u * (1.0 - x))
    bits = market.play(p, q, EXPLORE, fallback=(0.0, 1.0))
    done = len(bits)
    left_hits = np.bincount(price_index[:done], weights=bits & seller_side[:done], minlength=k)
    left_count = np.bincount(price_index[:done], weights=seller_side[:done], minlength=k)
    right_hits = np.bincount(price_index[:done], weights=bits & ~seller_side[:done], minlength=k)
    right_count = np.bincount(price_index[:done], weights=~seller_side[:done], minlength=k)
    estimate = grid * left_hits / np.maximum(left_count, 1) + (1 - grid) * right_hits / np.maximum(
        right_count, 1
    )
    best = float(grid[int(np.argmax(estimate))])
    prices = np.full(market.remaining, best)
    market.play(prices, prices, EXPLOIT, fallback=(best, best))
    return LearnerInfo(price=best)
