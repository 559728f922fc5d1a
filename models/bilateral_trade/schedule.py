"""Grid size and phase lengths of the learners as functions of the horizon T (Lunghi et al. 2026)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["LearnerSettings", "Schedule", "learner_grid", "make_schedule", "paper_schedule"]


@dataclass(frozen=True)
class LearnerSettings:
    """The advanced settings of the practical learners: 0 for the grid size means K = ceil(T^(1/4))."""

    grid_points: int = 0
    explore_scale: float = 0.5
    beta_scale: float = 0.1
    confidence_scale: float = 0.25
    batch_growth: float = 0.05


@dataclass(frozen=True)
class Schedule:
    """Phase lengths for one horizon, and the learners' price grid."""

    horizon: int
    grid_points: int  # K prices
    samples_per_line: int  # n: exploration rounds per row (R) and per column (L) of the grid
    budget_target: float  # beta: profit collected before the exploration phase
    confidence_log: float  # log(1/delta) used by every confidence radius
    grid_offset: float | None = None  # None: 0, 1/(K-1), ..., 1; u in [0, 1): (i + u) / K

    @property
    def exploration_rounds(self) -> int:
        return 2 * self.grid_points * self.samples_per_line

    @property
    def grid(self) -> np.ndarray:
        return learner_grid(self.grid_points, self.grid_offset)


def learner_grid(k: int, offset: float | None = None) -> np.ndarray:
    """The learners' K prices: 0, 1/(K-1), ..., 1 without an offset; (i + u) / K, i < K, with a
    random offset u in [0, 1), so the distribution's breakpoints (0.15, 0.3, 0.5, ...) do not fall
    on the grid by construction (a grid price on a breakpoint is luck, not learning)."""
    if offset is None:
        return np.linspace(0.0, 1.0, k)
    return (np.arange(k) + offset) / k


def make_schedule(horizon: int, settings: LearnerSettings, grid_offset: float | None = None) -> Schedule:
    """K ~ T^(1/4) prices; n ~ sqrt(T) samples per row and column, so 2Kn ~ T^(3/4) exploration
    rounds; a budget target beta proportional to the exploration length (its worst loss per round
    is below 1). The exploration is capped at half the horizon for very short runs.
    """
    k = settings.grid_points or max(3, math.ceil(horizon**0.25))
    n = max(1, math.ceil(settings.explore_scale * math.sqrt(horizon)))
    n = max(1, min(n, horizon // (4 * k)))
    beta = settings.beta_scale * 2 * k * n
    log_term = math.log(max(horizon, 2))
    return Schedule(
        horizon=horizon,
        grid_points=k,
        samples_per_line=n,
        budget_target=beta,
        confidence_log=log_term,
        grid_offset=grid_offset,
    )


def paper_schedule(horizon: int, grid_offset: float | None = None) -> Schedule:
    """The paper's orders with constant 1: K = ceil(T^(1/4)), n = ceil(sqrt(T)) rounds per line
    (2Kn ~ 2 T^(3/4) exploration rounds), budget target beta = T^(3/4), delta = 1/T. No setting
    changes them: this schedule is what `gbb_one_bit_paper` runs. Only very short horizons are
    capped (exploration at most half of T)."""
    k = max(3, math.ceil(horizon**0.25))
    n = max(1, min(math.ceil(math.sqrt(horizon)), horizon // (4 * k)))
    return Schedule(
        horizon=horizon,
        grid_points=k,
        samples_per_line=n,
        budget_target=float(horizon) ** 0.75,
        confidence_log=math.log(max(horizon, 2)),
        grid_offset=grid_offset,
    )
