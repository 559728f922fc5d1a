"""The two-bit learner's integral stage: I_S and I_B at every grid price by inverse propensity over the
random prices of the exploration plan, with their Bernstein radii."""

from __future__ import annotations

import numpy as np

__all__ = ["bernstein", "buyer_integral", "design_density", "seller_integral"]


def design_density(
    grid: np.ndarray, seller_count: np.ndarray, buyer_count: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells c = 0..K between the edges 0, x_0, ..., x_{K-1}, 1 (cell c holds the prices in
    (x_{c-1}, x_c], with x_{-1} = 0 and x_K = 1): their lengths and the summed density of the random
    prices in each, seller side S_S(c) = sum_{k >= c} n_k / x_k (line k posts P ~ U[0, x_k] n_k
    times) and buyer side S_B(c) = sum_{k < c, x_k < 1} m_k / (1 - x_k) (Q ~ U[x_k, 1], m_k times).
    The grid need not contain 0 or 1 (random grid offsets)."""
    seller_rate = np.where(grid > 0, seller_count / np.where(grid > 0, grid, 1.0), 0.0)
    buyer_rate = np.where(grid < 1, buyer_count / np.where(grid < 1, 1.0 - grid, 1.0), 0.0)
    seller = np.concatenate((np.cumsum(seller_rate[::-1])[::-1], [0.0]))  # sum over k >= c
    buyer = np.concatenate(([0.0], np.cumsum(buyer_rate)))  # sum over k < c
    lengths = np.diff(np.concatenate(([0.0], grid, [1.0])))
    return lengths, np.maximum(seller, 1e-300), np.maximum(buyer, 1e-300)


def _upper_tail(per_cell: np.ndarray) -> np.ndarray:
    """Sum over the cells c > j, for every grid price j < K."""
    return np.maximum(np.cumsum(per_cell[::-1])[::-1][1:], 0.0)


def bernstein(second: np.ndarray, value_range: float, log_term: float) -> np.ndarray:
    """Bernstein radius of a sum with variance bound `second` and terms in [0, value_range]."""
    return np.sqrt(2.0 * second * log_term) + value_range * log_term / 3.0


def seller_integral(
    grid: np.ndarray, prices: np.ndarray, bits: np.ndarray, lengths: np.ndarray, density: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """I_S(x_j) by inverse propensity over the seller prices P <= x_j (clipped to [0, x_j]), the sum of
    squared weights, the variance bound int_0^{x_j} 1/S_S and the largest weight 1/min S_S."""
    k = len(grid)
    cell = np.searchsorted(grid, prices, side="left")  # P in (x_{c-1}, x_c], c <= K - 1
    weight = bits / density[cell]
    integral = np.cumsum(np.bincount(cell, weights=weight, minlength=k + 1))[:k]  # P <= x_j
    square = np.cumsum(np.bincount(cell, weights=weight**2, minlength=k + 1))[:k]
    mass = density[:k] > 1e-200  # cells the seller prices cover
    bound = np.cumsum(np.where(mass, lengths[:k] / density[:k], 0.0))
    value_range = 1.0 / density[:k][mass].min() if mass.any() else 0.0
    return np.clip(integral, 0.0, grid), square, bound, value_range


def buyer_integral(
    grid: np.ndarray, prices: np.ndarray, bits: np.ndarray, lengths: np.ndarray, density: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """I_B(x_j) by inverse propensity over the buyer prices Q > x_j (clipped to [0, 1 - x_j]), the sum
    of squared weights, the variance bound int_{x_j}^1 1/S_B and the largest weight 1/min S_B."""
    k = len(grid)
    cell = np.searchsorted(grid, prices, side="left")  # Q in (x_{c-1}, x_c], c >= 1
    weight = bits / density[cell]
    integral = _upper_tail(np.bincount(cell, weights=weight, minlength=k + 1))  # Q > x_j
    square = _upper_tail(np.bincount(cell, weights=weight**2, minlength=k + 1))
    mass = density > 1e-200
    bound = _upper_tail(np.where(mass, lengths / density, 0.0))
    value_range = 1.0 / density[mass].min() if mass.any() else 0.0
    return np.clip(integral, 0.0, 1.0 - grid), square, bound, value_range
