"""The active-positioning environment: move a point in [-1, 1]^D onto an unseen target; reward -||x - target||.

Vectorised over episodes. Dynamics x' = clip(x + STEP a, -1, 1) with a in [-1, 1]^D; the episode ends
(terminal) when ||x' - target|| < tolerance(D) or after horizon(D) steps. The agent observes the
displacement x - target (full), or with partial observation a saturating sensor clip((x - target) / SENSOR,
-1, 1) per coordinate: far from the target only the direction of each coordinate is seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SENSOR", "STEP", "TARGET_BOX", "Positioning"]

STEP = 0.2  # largest move per coordinate and step
SENSOR = 0.2  # partial observation: the sensor saturates beyond this displacement per coordinate
TARGET_BOX = 0.8  # targets are drawn uniformly in [-0.8, 0.8]^D, starts in [-1, 1]^D


@dataclass(frozen=True)
class Positioning:
    """A positioning task in `dimension` dimensions, fully or partially observed."""

    dimension: int
    partial: bool = False

    @property
    def tolerance(self) -> float:
        """Success radius 0.05 sqrt(D): a per-coordinate accuracy of about 0.05."""
        return 0.05 * float(np.sqrt(self.dimension))

    @property
    def horizon(self) -> int:
        return 10 + 5 * self.dimension

    def reset(self, rng: np.random.Generator, episodes: int) -> tuple[np.ndarray, np.ndarray]:
        """Start positions and targets, each (episodes x D)."""
        starts = rng.uniform(-1.0, 1.0, size=(episodes, self.dimension))
        targets = rng.uniform(-TARGET_BOX, TARGET_BOX, size=(episodes, self.dimension))
        return starts, targets

    def observe(self, positions: np.ndarray, targets: np.ndarray) -> np.ndarray:
        displacement = positions - targets
        return np.clip(displacement / SENSOR, -1.0, 1.0) if self.partial else displacement

    def step(self, positions: np.ndarray, actions: np.ndarray, targets: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Next positions, rewards -||x' - target|| and the success flags ||x' - target|| < tolerance."""
        moved = np.clip(positions + STEP * np.clip(actions, -1.0, 1.0), -1.0, 1.0)
        distance = np.linalg.norm(moved - targets, axis=-1)
        return moved, -distance, distance < self.tolerance
