"""Seeded sweeps over a grid of settings, and power-law (log-log) fits with confidence intervals.

Several methods simulate a cheap model over a grid of settings and seeds and then read a scaling
exponent off a log-log plot. `run_grid` runs the cells in a fixed order with one independent,
reproducible random generator per (cell, seed) and reports progress once per cell, so Cancel is
honoured between cells; `fit_power_law` fits log y = log c + k log x by least squares and gives a
Student-t confidence interval for the exponent k.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np
from scipy import stats

from models.common.contract import Progress, no_progress

__all__ = ["GridCell", "PowerLawFit", "cell_rng", "fit_power_law", "run_grid"]

S = TypeVar("S")
R = TypeVar("R")


def cell_rng(base_seed: int, cell_index: int, seed_index: int) -> np.random.Generator:
    """The generator of one (cell, seed) pair: independent streams, the same numbers on every run.

    Seeding by the triple (rather than base_seed + index) keeps streams of neighbouring base
    seeds from overlapping: seed 1, cell 0 and seed 0, cell 1 get unrelated numbers.
    """
    return np.random.default_rng([int(base_seed), int(cell_index), int(seed_index)])


@dataclass(frozen=True)
class GridCell(Generic[S, R]):
    """One setting of the grid and the results of its seeds, in seed order."""

    setting: S
    results: list[R]


def run_grid(
    settings: Sequence[S],
    simulate: Callable[[S, list[np.random.Generator]], list[R]],
    *,
    seeds: int,
    base_seed: int = 0,
    progress: Progress = no_progress,
    label: Callable[[S], str] = str,
) -> list[GridCell[S, R]]:
    """Run `simulate(setting, rngs)` for every setting, with one generator per seed.

    `simulate` receives all seeds' generators at once so it can vectorise over seeds; it must
    return one result per generator. Progress is reported before each cell (its label) and once at
    the end; a `Cancelled` raised by the callback propagates between cells.
    """
    if seeds < 1:
        raise ValueError(f"seeds must be at least 1, got {seeds}")
    cells: list[GridCell[S, R]] = []
    total = len(settings)
    for index, setting in enumerate(settings):
        progress(index / max(total, 1), f"cell {index + 1}/{total}: {label(setting)}")
        rngs = [cell_rng(base_seed, index, s) for s in range(seeds)]
        results = list(simulate(setting, rngs))
        if len(results) != seeds:
            raise ValueError(f"simulate returned {len(results)} results for {seeds} seeds")
        cells.append(GridCell(setting, results))
    progress(1.0, f"{total} cells done")
    return cells


@dataclass(frozen=True)
class PowerLawFit:
    """y ~ prefactor * x^exponent fitted on log-log axes, with a confidence interval on the exponent.

    `exponent_low`/`exponent_high` are NaN when there are only two points (no residual degrees of
    freedom), and equal to the exponent when the points lie exactly on a line.
    """

    exponent: float
    exponent_low: float
    exponent_high: float
    prefactor: float
    r_squared: float
    points: int
    confidence: float

    def predict(self, x: np.ndarray | Sequence[float]) -> np.ndarray:
        """The fitted power law at `x`."""
        return self.prefactor * np.asarray(x, dtype=float) ** self.exponent

    def contains(self, exponent: float) -> bool:
        """Whether `exponent` lies inside the confidence interval."""
        return bool(self.exponent_low <= exponent <= self.exponent_high)


def fit_power_law(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> PowerLawFit | None:
    """Least-squares fit of log y = log c + k log x over the points with x > 0 and y > 0.

    Returns None with fewer than two usable points or when all x are equal. The interval is
    k +- t_{(1+confidence)/2, n-2} * se(k), the textbook OLS interval on the log scale.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0)
    lx, ly = np.log(xs[keep]), np.log(ys[keep])
    n = int(lx.size)
    if n < 2 or np.ptp(lx) == 0.0:
        return None
    centred = lx - lx.mean()
    sxx = float(centred @ centred)
    slope = float(centred @ (ly - ly.mean()) / sxx)
    intercept = float(ly.mean() - slope * lx.mean())
    residuals = ly - (intercept + slope * lx)
    sse = float(residuals @ residuals)
    sst = float(((ly - ly.mean()) ** 2).sum())
    r_squared = 1.0 - sse / sst if sst > 0 else 1.0
    if n > 2:
        se = math.sqrt(sse / (n - 2) / sxx)
        half = float(stats.t.ppf(0.5 + confidence / 2, n - 2)) * se
        low, high = slope - half, slope + half
    else:
        low = high = float("nan")
    return PowerLawFit(slope, low, high, math.exp(intercept), r_squared, n, confidence)
