"""The domain-incremental digit stream: four seen domains trained in order, one unseen domain for testing.

Every domain shows the ten digits; the training images are split into disjoint shares, one per seen
domain, and the same held-out images are shown in all five domains for testing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.continual import digits_dataset, domain_shift, train_test_split_indices
from models.common.continual.streams import DomainKind

__all__ = ["SEEN", "UNSEEN", "Domain", "build_domains"]

SEEN: tuple[tuple[str, DomainKind, float], ...] = (
    ("clean", "identity", 0.0),
    ("inverted", "inversion", 1.0),
    ("rotated 90°", "rotation", 1.0),
    ("noisy", "noise", 1.0),
)
UNSEEN: tuple[str, DomainKind, float] = ("blurred", "blur", 1.0)


@dataclass(frozen=True)
class Domain:
    name: str
    seen: bool
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


def build_domains(rng: np.random.Generator) -> list[Domain]:
    """Four seen domains (disjoint training shares) and the unseen one (test images only)."""
    x, y = digits_dataset()
    train_idx, test_idx = train_test_split_indices(y, 0.25, rng)
    shares = np.array_split(rng.permutation(train_idx), len(SEEN))
    out: list[Domain] = []
    for (name, kind, strength), share in zip(SEEN, shares, strict=True):
        out.append(
            Domain(
                name,
                True,
                domain_shift(x[share], kind, rng, strength),
                y[share].copy(),
                domain_shift(x[test_idx], kind, rng, strength),
                y[test_idx].copy(),
            )
        )
    name, kind, strength = UNSEEN
    empty = np.zeros((0, x.shape[1]), dtype=np.float32)
    out.append(Domain(name, False, empty, np.zeros(0, dtype=np.int64), domain_shift(x[test_idx], kind, rng, strength), y[test_idx].copy()))
    return out
