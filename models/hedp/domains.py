"""The domain-incremental digit stream: four seen domains trained in order, one unseen domain for testing.

Every domain shows the ten digits. The training images are split into disjoint shares, one per seen
domain; a fifth of each share is held out (validation: where the selectors' temperatures are chosen).
The same held-out test images are shown in all five domains. The feature extractor is pre-trained on
the clean versions of all training images (`pretrain_x`), never on a test image.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.continual import digits_dataset, domain_shift, train_test_split_indices
from models.common.continual.streams import DomainKind

__all__ = ["SEEN", "UNSEEN", "Domain", "Stream", "build_domains"]

SEEN: tuple[tuple[str, DomainKind, float], ...] = (
    ("clean", "identity", 0.0),
    ("inverted", "inversion", 1.0),
    ("rotated 90°", "rotation", 1.0),
    ("noisy", "noise", 1.0),
)
UNSEEN: tuple[str, DomainKind, float] = ("blurred", "blur", 1.0)
VALIDATION = 0.2


@dataclass(frozen=True)
class Domain:
    name: str
    seen: bool
    x_train: np.ndarray
    y_train: np.ndarray
    x_val: np.ndarray
    y_val: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


@dataclass(frozen=True)
class Stream:
    domains: list[Domain]  # the seen ones in training order, then the unseen one
    pretrain_x: np.ndarray
    pretrain_y: np.ndarray

    @property
    def seen(self) -> list[Domain]:
        return [d for d in self.domains if d.seen]


def build_domains(rng: np.random.Generator) -> Stream:
    """Four seen domains (disjoint training shares, each with a validation fifth) and the unseen one."""
    x, y = digits_dataset()
    train_idx, test_idx = train_test_split_indices(y, 0.25, rng)
    shares = np.array_split(rng.permutation(train_idx), len(SEEN))
    out: list[Domain] = []
    empty_x, empty_y = np.zeros((0, x.shape[1]), dtype=np.float32), np.zeros(0, dtype=np.int64)
    for (name, kind, strength), share in zip(SEEN, shares, strict=True):
        cut = int(round(VALIDATION * share.size))
        val, train = share[:cut], share[cut:]
        out.append(Domain(
            name, True, domain_shift(x[train], kind, rng, strength), y[train].copy(),
            domain_shift(x[val], kind, rng, strength), y[val].copy(),
            domain_shift(x[test_idx], kind, rng, strength), y[test_idx].copy(),
        ))
    name, kind, strength = UNSEEN
    out.append(Domain(name, False, empty_x, empty_y, empty_x, empty_y,
                      domain_shift(x[test_idx], kind, rng, strength), y[test_idx].copy()))
    return Stream(out, x[train_idx].copy(), y[train_idx].copy())
