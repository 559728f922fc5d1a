"""Task and domain streams from scikit-learn's bundled digits (8 x 8 images) and from generated Gaussians.

Nothing is downloaded: `load_digits` ships with scikit-learn. Pixels are scaled to [0, 1].
* class-incremental tasks: the ten digits split into disjoint groups of classes, one task each;
* domains: the same digits under a rotation, an inversion (1 - x), additive noise or a Gaussian blur;
* drift: a permutation of the labels (the concept changes, the inputs do not).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from scipy import ndimage

__all__ = [
    "DOMAIN_KINDS",
    "DomainKind",
    "Task",
    "class_incremental_tasks",
    "digits_dataset",
    "domain_shift",
    "gaussian_classes",
    "label_permutation",
    "train_test_split_indices",
]

IMAGE_SIDE = 8
DomainKind = Literal["identity", "rotation", "inversion", "noise", "blur"]
DOMAIN_KINDS: tuple[DomainKind, ...] = ("identity", "rotation", "inversion", "noise", "blur")


@dataclass(frozen=True)
class Task:
    """One task of a stream: its name, classes and a train/test split (float32 inputs, int64 labels)."""

    name: str
    classes: tuple[int, ...]
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray


@lru_cache(maxsize=1)
def _digits() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    data = load_digits()
    x = (data.data / 16.0).astype(np.float32)
    y = data.target.astype(np.int64)
    x.setflags(write=False)
    y.setflags(write=False)
    return x, y


def digits_dataset() -> tuple[np.ndarray, np.ndarray]:
    """The 1797 digits as (x in [0, 1]^64, y in 0..9), read-only copies shared by every caller."""
    return _digits()


def train_test_split_indices(
    labels: np.ndarray, test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A stratified random split: the same fraction of every class goes to the test side."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError("test_fraction must be in (0, 1)")
    train: list[np.ndarray] = []
    test: list[np.ndarray] = []
    for label in np.unique(labels):
        idx = rng.permutation(np.flatnonzero(labels == label))
        cut = max(1, int(round(test_fraction * idx.size)))
        test.append(idx[:cut])
        train.append(idx[cut:])
    return np.sort(np.concatenate(train)), np.sort(np.concatenate(test))


def class_incremental_tasks(
    tasks: int, rng: np.random.Generator, test_fraction: float = 0.25, classes: int = 10
) -> list[Task]:
    """Split the digit classes 0..classes-1 (shuffled by `rng`) into `tasks` near-equal disjoint groups."""
    if not 1 <= tasks <= classes:
        raise ValueError(f"tasks must be between 1 and {classes}, got {tasks}")
    x, y = digits_dataset()
    keep = y < classes
    x, y = x[keep], y[keep]
    train_idx, test_idx = train_test_split_indices(y, test_fraction, rng)
    order = rng.permutation(classes)
    groups = np.array_split(order, tasks)
    stream: list[Task] = []
    for t, group in enumerate(groups):
        in_train = train_idx[np.isin(y[train_idx], group)]
        in_test = test_idx[np.isin(y[test_idx], group)]
        stream.append(
            Task(
                name=f"task {t + 1}: digits {', '.join(str(int(c)) for c in sorted(group))}",
                classes=tuple(int(c) for c in sorted(group)),
                x_train=x[in_train].copy(),
                y_train=y[in_train].copy(),
                x_test=x[in_test].copy(),
                y_test=y[in_test].copy(),
            )
        )
    return stream


def domain_shift(
    x: np.ndarray, kind: DomainKind, rng: np.random.Generator, strength: float = 1.0
) -> np.ndarray:
    """The images `x` (n x 64, values in [0, 1]) seen in another domain.

    rotation: by `strength` x 90 degrees (bilinear, about the centre); inversion: 1 - x blended
    with x by `strength`; noise: N(0, (0.3 strength)^2) added, clipped to [0, 1]; blur: a Gaussian
    filter of width `strength` pixels. `identity` returns a copy.
    """
    images = np.asarray(x, dtype=np.float32).reshape(-1, IMAGE_SIDE, IMAGE_SIDE)
    if kind == "identity":
        out = images.copy()
    elif kind == "rotation":
        angle = 90.0 * strength
        if float(angle).is_integer() and int(angle) % 90 == 0:
            out = np.rot90(images, k=int(angle) // 90, axes=(1, 2)).copy()
        else:
            out = ndimage.rotate(images, angle, axes=(1, 2), reshape=False, order=1, mode="constant")
    elif kind == "inversion":
        out = (1.0 - strength) * images + strength * (1.0 - images)
    elif kind == "noise":
        out = images + rng.normal(0.0, 0.3 * strength, size=images.shape).astype(np.float32)
    elif kind == "blur":
        out = ndimage.gaussian_filter(images, sigma=(0.0, strength, strength), mode="constant")
    else:  # pragma: no cover - Literal guards the callers
        raise ValueError(f"unknown domain kind {kind!r}")
    return np.clip(out, 0.0, 1.0).reshape(-1, IMAGE_SIDE * IMAGE_SIDE).astype(np.float32)


def label_permutation(classes: int, swapped: int, rng: np.random.Generator) -> np.ndarray:
    """A permutation of 0..classes-1 that moves exactly `swapped` labels (a cycle over a random subset).

    `swapped` = 0 is the identity; 1 is impossible (a single label cannot move) and is raised to 2.
    """
    if not 0 <= swapped <= classes:
        raise ValueError(f"swapped must be between 0 and {classes}")
    perm = np.arange(classes)
    if swapped == 0:
        return perm
    chosen = rng.choice(classes, size=max(2, swapped), replace=False)
    perm[chosen] = np.roll(chosen, 1)
    return perm


def gaussian_classes(
    classes: int, per_class: int, features: int, separation: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Generated data: `per_class` points of N(mu_c, I) per class, class means at distance ~ `separation`."""
    means = rng.normal(0.0, separation / np.sqrt(2.0), size=(classes, features))
    x = np.concatenate([rng.normal(means[c], 1.0, size=(per_class, features)) for c in range(classes)])
    y = np.repeat(np.arange(classes), per_class)
    return x.astype(np.float32), y.astype(np.int64)
