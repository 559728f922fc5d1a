"""Client concepts and the asynchronous drift schedule.

Each client holds a Dirichlet share of the digits. It drifts once, at its own local round (on its own
clock) and with its own magnitude m_k = drift_magnitude x U(0.5, 1):
* label permutation (when the client holds at least two classes with 5+ examples, half of such
  clients): a cycle over max(2, round(m_k x c)) of its c classes, so its own data really change;
* feature rotation (the others): its images turned by 180° x m_k.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from models.common.continual import domain_shift

__all__ = ["Concept", "DriftPlan", "plan_drift"]


@dataclass(frozen=True)
class Concept:
    """How a client's data look: labels mapped by `permutation`, images rotated by `rotation` x 90°."""

    kind: Literal["original", "permutation", "rotation"] = "original"
    permutation: np.ndarray = field(default_factory=lambda: np.arange(10))
    rotation: float = 0.0

    def apply(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.kind == "rotation":
            x = domain_shift(x, "rotation", np.random.default_rng(0), self.rotation)
        return x, self.permutation[y]


@dataclass(frozen=True)
class DriftPlan:
    client: int
    drift_at: int | None  # local round (client clock) of the change; None = never drifts
    magnitude: float
    new_concept: Concept

    def describe(self) -> str:
        if self.drift_at is None:
            return "no drift"
        c = self.new_concept
        if c.kind == "rotation":
            return f"rotation by {90 * c.rotation:.0f}° at local round {self.drift_at + 1}"
        moved = int((c.permutation != np.arange(10)).sum())
        return f"{moved} labels permuted at local round {self.drift_at + 1}"


def plan_drift(
    labels_per_client: list[np.ndarray], rounds: int, magnitude: float, rng: np.random.Generator
) -> list[DriftPlan]:
    """One drift per client: its round, kind and magnitude (all from `rng`)."""
    plans: list[DriftPlan] = []
    for k, labels in enumerate(labels_per_client):
        counts = np.bincount(labels, minlength=10)
        present = np.flatnonzero(counts >= 5)
        m = magnitude * float(rng.uniform(0.5, 1.0))
        drift_at = int(rng.integers(2, rounds - 2))
        use_permutation = present.size >= 2 and rng.random() < 0.5
        if magnitude <= 0.0:
            plans.append(DriftPlan(k, None, 0.0, Concept()))
        elif use_permutation:
            moved = min(present.size, max(2, int(round(m * present.size))))
            chosen = rng.choice(present, size=moved, replace=False)
            perm = np.arange(10)
            perm[chosen] = np.roll(chosen, 1)
            plans.append(DriftPlan(k, drift_at, m, Concept("permutation", perm)))
        else:
            plans.append(DriftPlan(k, drift_at, m, Concept("rotation", rotation=2.0 * m)))
    return plans
