"""Grid size and phase lengths of the learners as functions of the horizon T (Lunghi et al. 2026)."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["LearnerSettings", "Schedule", "make_schedule"]


@dataclass(frozen=True)
class LearnerSettings:
    """The advanced settings: 0 for the grid size means the paper's K = ceil(T^(1/4))."""

    grid_points: int = 0
    explore_scale: float = 0.5
    beta_scale: float = 0.1
    confidence_scale: float = 0.25
    batch_growth: float = 0.05


@dataclass(frozen=True)
class Schedule:
    """Phase lengths for one horizon."""

    horizon: int
    grid_points: int  # K, prices 0, 1/(K-1), ..., 1
    samples_per_line: int  # n: exploration rounds per row (R) and per column (L) of the grid
    budget_target: float  # beta: profit collected before the exploration phase
    confidence_log: float  # log(1/delta) used by every confidence radius

    @property
    def exploration_rounds(self) -> int:
        return 2 * self.grid_points * self.samples_per_line


def make_schedule(horizon: int, settings: LearnerSettings) -> Schedule:
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
        horizon=horizon, grid_points=k, samples_per_line=n, budget_target=beta, confidence_log=log_term
    )
