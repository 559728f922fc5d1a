"""Seeded synthetic tabular data: spurious correlations, group shift, and correlated Gaussian classes."""

from __future__ import annotations

import numpy as np

from models.common.tabular.datasets import TabularData

__all__ = ["classification_blobs", "group_shift", "spurious_correlation", "waterbirds_like"]


def spurious_correlation(n: int, rng: np.random.Generator, *, correlation: float = 0.9, core_dims: int = 2,
                         spurious_dims: int = 2, core_signal: float = 1.0, spurious_signal: float = 2.0,
                         noise: float = 1.0) -> TabularData:
    """Binary labels y, a spurious attribute a equal to y with probability `correlation`, features of both.

    Core features ~ N((2y - 1) core_signal, noise^2) predict y the same way in every group; spurious
    features ~ N((2a - 1) spurious_signal, noise^2) predict y only through the correlation, so a model
    that leans on them fails on the minority groups (a != y). Groups are 2 y + a: (y, a) in
    {(0, 0), (0, 1), (1, 0), (1, 1)} (the Waterbirds/CelebA layout).
    """
    if not 0.0 <= correlation <= 1.0:
        raise ValueError(f"correlation {correlation} is outside [0, 1]")
    y = rng.integers(0, 2, size=n)
    a = np.where(rng.random(n) < correlation, y, 1 - y)
    core = (2 * y - 1)[:, None] * core_signal + noise * rng.standard_normal((n, core_dims))
    spurious = (2 * a - 1)[:, None] * spurious_signal + noise * rng.standard_normal((n, spurious_dims))
    names = tuple(f"core_{j}" for j in range(core_dims)) + tuple(f"spurious_{j}" for j in range(spurious_dims))
    groups = 2 * y + a
    return TabularData("spurious", np.hstack([core, spurious]), y, "classification", names, ("y = 0", "y = 1"),
                       groups=groups, group_names=("y=0, a=0", "y=0, a=1", "y=1, a=0", "y=1, a=1"))


def group_shift(n: int, rng: np.random.Generator, *, dims: int = 5, minority_fraction: float = 0.1,
                angle_degrees: float = 60.0, label_noise: float = 0.05) -> TabularData:
    """Two groups with rotated linear decision boundaries; the minority's boundary is turned by `angle_degrees`.

    x ~ N(0, I_dims); group 1 with probability `minority_fraction`; y = 1[<w_g, x> > 0] flipped with
    probability `label_noise`, where w_0 = e_1 and w_1 is e_1 rotated towards e_2. The group is not a
    feature: a model fitted to the majority misclassifies the minority's wedge between the boundaries.
    """
    if dims < 2:
        raise ValueError("group_shift needs dims >= 2")
    X = rng.standard_normal((n, dims))
    groups = (rng.random(n) < minority_fraction).astype(int)
    theta = np.deg2rad(angle_degrees)
    w = np.zeros((2, dims))
    w[0, 0] = 1.0
    w[1, 0], w[1, 1] = np.cos(theta), np.sin(theta)
    y = (np.einsum("ij,ij->i", X, w[groups]) > 0).astype(int)
    y = np.where(rng.random(n) < label_noise, 1 - y, y)
    return TabularData("group_shift", X, y, "classification", tuple(f"x{j}" for j in range(dims)),
                       ("y = 0", "y = 1"), groups=groups, group_names=("majority", "minority"))


def classification_blobs(n: int, rng: np.random.Generator, *, dims: int = 8, classes: int = 3,
                         chain_correlation: float = 0.8, separation: float = 1.5) -> TabularData:
    """Classes with shifted means over features correlated along a chain x_1 - x_2 - ... - x_dims.

    Within a class, x_1 ~ N(0, 1) and x_j = rho x_{j-1} + sqrt(1 - rho^2) e_j (an AR(1) chain, so the true
    dependency graph is a path: what a Chow-Liu tree should recover); class c adds separation * m_c with
    m_c a fixed random unit direction.
    """
    if not -1.0 < chain_correlation < 1.0:
        raise ValueError(f"chain_correlation {chain_correlation} is outside (-1, 1)")
    y = rng.integers(0, classes, size=n)
    means = rng.standard_normal((classes, dims))
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    X = np.empty((n, dims))
    X[:, 0] = rng.standard_normal(n)
    for j in range(1, dims):
        X[:, j] = chain_correlation * X[:, j - 1] + np.sqrt(1 - chain_correlation**2) * rng.standard_normal(n)
    X += separation * means[y]
    return TabularData("synthetic", X, y, "classification", tuple(f"x{j}" for j in range(dims)),
                       tuple(f"class {c}" for c in range(classes)))


def waterbirds_like(n: int, rng: np.random.Generator, *, correlation: float = 0.95, core_noise: float = 0.4,
                    spurious_signal: float = 2.0, noise_dims: int = 4) -> TabularData:
    """A Waterbirds-like group shift: the label lives in a non-linear core, a linear spurious cue agrees with it.

    y ~ Bernoulli(1/2); the attribute a equals y with probability `correlation` (the minority groups are
    a != y). Core: a 2-D point at angle ~ U(0, 2 pi) and radius 1 + y + N(0, core_noise^2), so the label is
    the ring a point lies on (no linear read-out of it exists). Spurious: a 2-D Gaussian at
    (2a - 1) spurious_signal (1, 1) with unit noise, linearly separable from itself. Plus `noise_dims`
    standard-normal columns. Groups are 2 y + a, as in spurious_correlation.
    """
    if not 0.0 <= correlation <= 1.0:
        raise ValueError(f"correlation {correlation} is outside [0, 1]")
    y = rng.integers(0, 2, size=n)
    a = np.where(rng.random(n) < correlation, y, 1 - y)
    angle = rng.uniform(0.0, 2 * np.pi, size=n)
    radius = 1.0 + y + core_noise * rng.standard_normal(n)
    core = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    spurious = (2 * a - 1)[:, None] * spurious_signal + rng.standard_normal((n, 2))
    X = np.hstack([core, spurious, rng.standard_normal((n, noise_dims))])
    names = ("core_0", "core_1", "spurious_0", "spurious_1") + tuple(f"noise_{j}" for j in range(noise_dims))
    return TabularData("waterbirds_like", X, y, "classification", names, ("y = 0", "y = 1"),
                       groups=2 * y + a, group_names=("y=0, a=0", "y=0, a=1", "y=1, a=0", "y=1, a=1"))
