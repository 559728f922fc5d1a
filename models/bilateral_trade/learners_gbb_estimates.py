"""GBB learners' estimation stage: realised-profit UCBs, L_hat and R_hat from one-bit exploration,
and the confidence bounds on P(trade) their secants give."""

from __future__ import annotations

import math

import numpy as np

from models.bilateral_trade.distributions import EPS

__all__ = ["ProfitStats", "line_estimates", "line_radius", "trade_bounds"]


class ProfitStats:
    """Realised profit per grid cell, observable under one-bit feedback (prices are known)."""

    def __init__(self, grid: np.ndarray, confidence_log: float, scale: float) -> None:
        self.margin = grid[None, :] - grid[:, None]  # q - p on the grid, cell (i, j) = (p_i, q_j)
        self.pulls = np.zeros(self.margin.shape)
        self.total = np.zeros(self.margin.shape)
        self.confidence_log = confidence_log
        self.scale = scale

    def add(self, cells: np.ndarray, bits: np.ndarray) -> None:
        flat = self.margin.size
        self.pulls += np.bincount(cells, minlength=flat).reshape(self.margin.shape)
        self.total += np.bincount(cells, weights=bits * self.margin.ravel()[cells], minlength=flat).reshape(
            self.margin.shape
        )

    def upper(
        self, trade_lower: np.ndarray | None = None, trade_upper: np.ndarray | None = None
    ) -> np.ndarray:
        """UCB of profit(p, q) = (q - p) P(trade), clipped to its range [min(0, q-p), max(0, q-p)].

        Confidence bounds on P(trade) from the exploration phase tighten the range: profit <=
        (q - p) lower(P) on subsidised cells (q < p) and <= (q - p) upper(P) on the others.
        """
        lo, hi = np.minimum(self.margin, 0.0), np.maximum(self.margin, 0.0)
        if trade_lower is not None and trade_upper is not None:
            hi = np.where(self.margin < 0, self.margin * trade_lower, self.margin * trade_upper)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = self.total / self.pulls
            # empirical Bernstein on the trade frequency: most cells trade rarely
            freq = np.clip(mean / self.margin, 0.0, 1.0)
            log_n = self.confidence_log / self.pulls
            radius = (
                self.scale * np.abs(self.margin) * (np.sqrt(2.0 * freq * (1 - freq) * log_n) + 3.0 * log_n)
            )
        ucb = np.where(self.pulls > 0, mean + radius, hi)
        return np.clip(ucb, lo, hi)


def trade_bounds(
    grid: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    samples: float,
    confidence_log: float,
    scale: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper confidence bounds on P(s <= p, b >= q) on the grid from L_hat and R_hat.

    F(p, q) = P(s <= p, b >= q) is non-decreasing in p and non-increasing in q, and
    L(p', q) - L(p, q) = int_p^p' F(u, q) du, R(p, q') - R(p, q) = int_q'^q F(p, v) dv, so every
    secant of L (R) over a grid interval ending (starting) at the cell bounds F there from below
    (above). Each secant is one Bernoulli mean over n samples (the bits with U in the interval), so
    it gets an empirical Bernstein radius. Cell (i, j) is the couple (p_i, q_j).
    """
    log_n = confidence_log / max(samples, 1.0)

    def bernstein(mean: np.ndarray) -> np.ndarray:
        mean = np.clip(np.nan_to_num(mean), 0.0, 1.0)
        return scale * (np.sqrt(2.0 * mean * (1 - mean) * log_n) + 3.0 * log_n)

    k = len(grid)
    gap = grid[None, :] - grid[:, None]  # gap[a, c] = grid[c] - grid[a]
    with np.errstate(divide="ignore", invalid="ignore"):
        # slope_left[a, c, j] = (L[c, j] - L[a, j]) / (p_c - p_a), valid for a < c
        diff_left = left[None, :, :] - left[:, None, :]
        slope_left = diff_left / gap[:, :, None]
        slack_left = bernstein(diff_left) / gap[:, :, None]
        # slope_right[a, c, i] = (R[i, a] - R[i, c]) / (q_c - q_a) for a < c
        diff_right = right.T[:, None, :] - right.T[None, :, :]
        slope_right = diff_right / gap[:, :, None]
        slack_right = bernstein(diff_right) / gap[:, :, None]
    below = np.triu(np.ones((k, k), dtype=bool), 1)[:, :, None]  # a < c
    inf = np.inf
    # lower bounds: secant of L over [p_a, p_i] (a < i); secant of R over [q_j, q_c] (c > j)
    low_l = np.where(below, slope_left - slack_left, -inf).max(axis=0)  # indexed [c=i, j]
    low_r = np.where(below, slope_right - slack_right, -inf).max(axis=1).T  # [a=j, i] -> [i, j]
    # upper bounds: secant of L over [p_i, p_c] (c > i); secant of R over [q_a, q_j] (a < j)
    up_l = np.where(below, slope_left + slack_left, inf).min(axis=1)  # indexed [a=i, j]
    up_r = np.where(below, slope_right + slack_right, inf).min(axis=0).T  # [c=j, i] -> [i, j]
    lower = np.clip(np.maximum(low_l, low_r), 0.0, 1.0)
    upper = np.clip(np.minimum(up_l, up_r), 0.0, 1.0)
    return lower, np.maximum(upper, lower)


def line_estimates(
    grid: np.ndarray, seller_side: np.ndarray, line: np.ndarray, random_price: np.ndarray, bits: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(L_hat, R_hat, column counts, row counts) on the K x K grid from one-bit exploration.

    A column task posts (U, q_j) with U ~ U[0, 1]: since L(p, q) = int_0^p P(s <= u, b >= q) du,
    its trade bit times 1{U <= p_i} is an unbiased sample of L(p_i, q_j) for every row i at once.
    A row task posts (p_i, V) with V ~ U[0, 1] and updates R(p_i, q_j) for every column j with
    q_j <= V (Lunghi et al. 2026, exploration phase: 2K estimations cover the K^2 couples).
    """
    k = len(grid)
    cols = seller_side
    first_row = np.searchsorted(grid, random_price[cols] - EPS, side="left")  # first p_i >= U
    hits = np.zeros((k + 1, k))
    np.add.at(hits, (first_row, line[cols]), bits[cols])
    col_count = np.bincount(line[cols], minlength=k).astype(float)
    left = np.cumsum(hits[:k], axis=0) / np.maximum(col_count, 1)[None, :]
    rows = ~seller_side
    last_col = np.searchsorted(grid, random_price[rows] + EPS, side="right") - 1  # last q_j <= V
    hits = np.zeros((k, k + 1))
    np.add.at(hits, (line[rows], last_col + 1), bits[rows])
    row_count = np.bincount(line[rows], minlength=k).astype(float)
    right = np.cumsum(hits[:, ::-1], axis=1)[:, ::-1][:, 1:] / np.maximum(row_count, 1)[:, None]
    return left, right, col_count, row_count


def line_radius(samples_per_line: int, confidence_log: float, scale: float = 1.0) -> float:
    """Hoeffding radius of every L_hat and R_hat cell (bits in [0, 1], n samples per line)."""
    return scale * math.sqrt(confidence_log / (2.0 * max(samples_per_line, 1)))
