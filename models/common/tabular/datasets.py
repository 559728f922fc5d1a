"""scikit-learn's bundled tabular data sets as `TabularData`, stratified splits and standardisation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

__all__ = ["BUNDLED", "TabularData", "load_dataset", "split", "standardise"]

Task = Literal["classification", "regression"]
BUNDLED = ("breast_cancer", "wine", "digits", "diabetes", "iris")


@dataclass(frozen=True)
class TabularData:
    """Features `X` (n x d float), target `y` (int labels or float values), optional `groups` (n ints)."""

    name: str
    X: np.ndarray
    y: np.ndarray
    task: Task
    feature_names: tuple[str, ...]
    target_names: tuple[str, ...] = ()
    groups: np.ndarray | None = None
    group_names: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.X.ndim != 2 or len(self.X) != len(self.y):
            raise ValueError(f"{self.name}: X must be n x d and y of length n, got {self.X.shape} and {self.y.shape}")
        if self.groups is not None and len(self.groups) != len(self.y):
            raise ValueError(f"{self.name}: groups must have one entry per row")

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    @property
    def classes(self) -> int:
        """Number of classes (0 for regression)."""
        return 0 if self.task == "regression" else int(self.y.max()) + 1

    def take(self, rows: np.ndarray) -> TabularData:
        """The rows `rows` (indices or a boolean mask) as a new data set."""
        return replace(self, X=self.X[rows], y=self.y[rows], groups=None if self.groups is None else self.groups[rows])


def load_dataset(name: str) -> TabularData:
    """One of scikit-learn's bundled data sets (no download): breast_cancer, wine, digits, diabetes, iris.

    diabetes is a regression task; its `groups` are the two values of the (standardised) sex column, the
    others have no groups.
    """
    from sklearn import datasets as sk

    loaders = {"breast_cancer": sk.load_breast_cancer, "wine": sk.load_wine, "digits": sk.load_digits,
               "diabetes": sk.load_diabetes, "iris": sk.load_iris}
    if name not in loaders:
        raise ValueError(f"dataset {name!r} is not one of {', '.join(BUNDLED)}")
    bunch = loaders[name]()
    X = np.asarray(bunch.data, dtype=float)
    features = tuple(str(f) for f in getattr(bunch, "feature_names", [f"x{j}" for j in range(X.shape[1])]))
    if name == "diabetes":
        sex = (X[:, features.index("sex")] > 0).astype(int)
        return TabularData(name, X, np.asarray(bunch.target, dtype=float), "regression", features,
                           groups=sex, group_names=("sex = lower value", "sex = higher value"))
    targets = tuple(str(t) for t in bunch.target_names)
    return TabularData(name, X, np.asarray(bunch.target, dtype=int), "classification", features, targets)


def split(data: TabularData, fractions: Sequence[float], rng: np.random.Generator) -> list[TabularData]:
    """Disjoint random parts with the given fractions (they must sum to 1), stratified by class (and group).

    Each stratum is shuffled and cut at the cumulative fractions, so every part sees every class in
    proportion; the last part takes the rounding remainder.
    """
    cuts = np.cumsum(np.asarray(fractions, dtype=float))
    if len(fractions) < 2 or min(fractions) <= 0 or abs(cuts[-1] - 1.0) > 1e-9:
        raise ValueError(f"split fractions must be >= 2 positive numbers summing to 1, got {list(fractions)}")
    if data.task == "classification":
        strata = data.y.astype(np.int64) * 1000 + (0 if data.groups is None else data.groups.astype(np.int64))
    else:
        strata = np.zeros(data.n, dtype=np.int64) if data.groups is None else data.groups.astype(np.int64)
    parts: list[list[np.ndarray]] = [[] for _ in fractions]
    for stratum in np.unique(strata):
        rows = rng.permutation(np.flatnonzero(strata == stratum))
        bounds = np.concatenate([[0], np.round(cuts * len(rows)).astype(int)])
        for k in range(len(fractions)):
            parts[k].append(rows[bounds[k]:bounds[k + 1]])
    return [data.take(np.sort(np.concatenate(p))) for p in parts]


def standardise(train: TabularData, *others: TabularData) -> list[TabularData]:
    """Every part scaled by the training part's mean and standard deviation (constant columns left at 0)."""
    mean = train.X.mean(axis=0)
    scale = train.X.std(axis=0)
    scale[scale == 0] = 1.0
    return [replace(part, X=(part.X - mean) / scale) for part in (train, *others)]
