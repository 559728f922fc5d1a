"""The accuracy matrix R[i, j] (accuracy on task j after training task i) and the metrics read from it.

Definitions follow Avalanche (`avalanche.evaluation.metrics.forgetting_bwt`) and GEM (Lopez-Paz &
Ranzato 2017), whose BWT Avalanche reproduces as `BWT = -forgetting`:

* forgetting of task j = R[j, j] - R[T-1, j]: the accuracy right after training task j (Avalanche's
  "initial" value for the experience) minus the accuracy after the last task ("last" value);
  StreamForgetting averages it over the tasks j < T-1 (the task just trained has no forgetting yet);
* backward transfer = -forgetting = mean_{j < T-1} (R[T-1, j] - R[j, j]);
* average accuracy = mean_j R[T-1, j], the accuracy on every task after the whole stream (GEM's ACC;
  it equals Avalanche's stream accuracy when the tasks' test sets have equal size).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["AccuracyMatrix", "average_accuracy", "backward_transfer", "forgetting", "per_task_forgetting"]


def _square(matrix: np.ndarray) -> np.ndarray:
    r = np.asarray(matrix, dtype=float)
    if r.ndim != 2 or r.shape[0] != r.shape[1] or r.shape[0] == 0:
        raise ValueError(f"an accuracy matrix must be square and non-empty, got shape {r.shape}")
    return r


def average_accuracy(matrix: np.ndarray) -> float:
    """mean_j R[T-1, j]: accuracy on every task after training the last one."""
    r = _square(matrix)
    return float(r[-1].mean())


def per_task_forgetting(matrix: np.ndarray) -> np.ndarray:
    """R[j, j] - R[T-1, j] for j < T-1 (Avalanche's ExperienceForgetting at the end of the stream)."""
    r = _square(matrix)
    t = r.shape[0]
    return np.array([r[j, j] - r[t - 1, j] for j in range(t - 1)], dtype=float)


def forgetting(matrix: np.ndarray) -> float:
    """Mean of `per_task_forgetting` (Avalanche's StreamForgetting); 0 for a single task."""
    values = per_task_forgetting(matrix)
    return float(values.mean()) if values.size else 0.0


def backward_transfer(matrix: np.ndarray) -> float:
    """GEM's BWT = mean_{j < T-1} (R[T-1, j] - R[j, j]) = -forgetting (Avalanche's StreamBWT)."""
    return -forgetting(matrix)


@dataclass
class AccuracyMatrix:
    """R[i, j], filled row by row as the stream is trained (NaN until measured)."""

    tasks: int
    values: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.values = np.full((self.tasks, self.tasks), np.nan)

    def record(self, trained: int, evaluated: int, accuracy: float) -> None:
        if not 0.0 <= accuracy <= 1.0:
            raise ValueError(f"accuracy must be a fraction in [0, 1], got {accuracy}")
        self.values[trained, evaluated] = accuracy

    def complete(self) -> bool:
        return bool(np.isfinite(self.values).all())

    def average_accuracy(self) -> float:
        return average_accuracy(self.values)

    def forgetting(self) -> float:
        return forgetting(self.values)

    def backward_transfer(self) -> float:
        return backward_transfer(self.values)

    def rows(self) -> list[list[float]]:
        return [[float(v) for v in row] for row in self.values]
