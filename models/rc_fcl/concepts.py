"""The federated continual stream: a shared concept sequence reached by each client at its own rounds.

Concepts (domains of the same ten digits, so one global model can serve all of them):
    C0 clean -> C1 rotated 90° -> C2 inverted.
Client k moves C0 -> C1 at its own local round d1_k and C1 -> C2 at d2_k > d1_k (on its own clock), with
its own magnitude m_k = drift_magnitude x U(0.5, 1): after a drift a share m_k of its fresh samples comes
from the new concept, the rest from the previous one (a partial drift). Every round each participating
client draws a fresh batch from its pool (sampling noise). Independently, each client's class prior
changes once (a label-proportion shift of the same concept: data that change without a concept drift,
where a detector can raise a false alarm).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.continual import domain_shift
from models.common.continual.streams import DomainKind

__all__ = ["CONCEPTS", "ClientPlan", "concept_data", "plan_clients"]

CONCEPTS: tuple[tuple[str, DomainKind, float], ...] = (
    ("clean", "identity", 0.0),
    ("rotated 90°", "rotation", 1.0),
    ("inverted", "inversion", 1.0),
)


def concept_data(x: np.ndarray) -> list[np.ndarray]:
    """x under every concept (deterministic transforms)."""
    return [domain_shift(x, kind, np.random.default_rng(0), strength) for _, kind, strength in CONCEPTS]


@dataclass(frozen=True)
class ClientPlan:
    client: int
    drift_at: tuple[int, ...]  # local rounds (0-based, own clock) at which C0 -> C1 and C1 -> C2
    magnitude: float  # share of fresh samples from the newest concept after a drift
    prior_shift_at: int  # local round at which the class prior changes (no concept drift)
    prior_before: np.ndarray  # class weights over the client's pool, before and after the shift
    prior_after: np.ndarray

    def concept_weights(self, local_round: int) -> np.ndarray:
        """P(concept) of a fresh sample at this local round."""
        stage = sum(local_round >= d for d in self.drift_at)
        weights = np.zeros(len(CONCEPTS))
        if stage == 0:
            weights[0] = 1.0
        else:
            weights[stage] = self.magnitude
            weights[stage - 1] = 1.0 - self.magnitude
        return weights

    def stage(self, local_round: int) -> int:
        return sum(local_round >= d for d in self.drift_at)

    def prior(self, local_round: int) -> np.ndarray:
        return self.prior_after if local_round >= self.prior_shift_at else self.prior_before


def _prior(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sampling weights of the pool's rows that give its classes Dirichlet(1) proportions."""
    classes = np.unique(labels)
    shares = rng.dirichlet(np.ones(classes.size))
    weights = np.zeros(labels.size)
    for c, share in zip(classes, shares, strict=True):
        rows = labels == c
        weights[rows] = share / rows.sum()
    return weights / weights.sum()


def plan_clients(labels_per_client: list[np.ndarray], rounds: int, magnitude: float,
                 rng: np.random.Generator) -> list[ClientPlan]:
    """Each client's two drift rounds, magnitude and prior shift (all from `rng`)."""
    plans = []
    third = max(2, rounds // 3)
    for k, labels in enumerate(labels_per_client):
        first = int(rng.integers(2, third + 2))
        second = first + int(rng.integers(third // 2 + 2, third + 3))
        m = magnitude * float(rng.uniform(0.5, 1.0))
        drift_at = () if magnitude <= 0 else tuple(d for d in (first, second) if d < rounds)
        uniform = np.full(labels.size, 1.0 / labels.size)
        plans.append(ClientPlan(k, drift_at, m, int(rng.integers(2, rounds)), uniform, _prior(labels, rng)))
    return plans
