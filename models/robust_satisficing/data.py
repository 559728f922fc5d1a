"""The three shifted data sets: spurious correlations, long-tailed digits, subgroup-shifted diabetes.

Built on `models.common.tabular` (bundled scikit-learn data and the spurious-correlation generator);
only the shift applied to each training set lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from models.common.tabular import TabularData, load_dataset, split, spurious_correlation, standardise

__all__ = ["IMBALANCE", "MINORITY_KEEP", "SPURIOUS_CORRELATION", "ShiftedData", "build"]

SPURIOUS_CORRELATION = 0.9  # P(attribute = label) in training and test
IMBALANCE = 0.05  # long_tail: class c keeps IMBALANCE^(c / 9) of its training rows (class 9 keeps 5%)
MINORITY_KEEP = 0.25  # diabetes: share of the sex = higher group kept in training


@dataclass(frozen=True)
class ShiftedData:
    """Standardised train and test parts with groups; `target_scale` undoes the regression target's scaling."""

    train: TabularData
    test: TabularData
    group_names: tuple[str, ...]
    target_scale: float = 1.0

    @property
    def regression(self) -> bool:
        return self.train.task == "regression"


def _spurious(rng: np.random.Generator, train_size: int) -> ShiftedData:
    train = spurious_correlation(train_size, rng, correlation=SPURIOUS_CORRELATION)
    test = spurious_correlation(max(4000, train_size), rng, correlation=SPURIOUS_CORRELATION)
    train, test = standardise(train, test)
    return ShiftedData(train, test, train.group_names)


def _long_tail(rng: np.random.Generator) -> ShiftedData:
    digits = load_dataset("digits")
    digits = replace(digits, groups=digits.y.copy(), group_names=tuple(f"digit {c}" for c in range(10)))
    train, test = split(digits, [0.5, 0.5], rng)
    keep = np.zeros(train.n, dtype=bool)
    for c in range(10):
        rows = rng.permutation(np.flatnonzero(train.y == c))
        keep[rows[: max(2, round(len(rows) * IMBALANCE ** (c / 9)))]] = True
    train, test = standardise(train.take(keep), test)
    return ShiftedData(train, test, digits.group_names)


def _diabetes(rng: np.random.Generator) -> ShiftedData:
    data = load_dataset("diabetes")
    train, test = split(data, [0.6, 0.4], rng)
    assert train.groups is not None
    minority = np.flatnonzero(train.groups == 1)
    dropped = rng.permutation(minority)[round(len(minority) * MINORITY_KEEP):]
    keep = np.ones(train.n, dtype=bool)
    keep[dropped] = False
    train, test = standardise(train.take(keep), test)
    mean, scale = float(train.y.mean()), float(train.y.std())
    train = replace(train, y=(train.y - mean) / scale)
    test = replace(test, y=(test.y - mean) / scale)
    return ShiftedData(train, test, data.group_names, target_scale=scale)


def build(dataset: str, rng: np.random.Generator, *, train_size: int = 2000) -> ShiftedData:
    """The named data set with its training shift; the test part keeps the unshifted distribution."""
    if dataset == "spurious":
        return _spurious(rng, train_size)
    if dataset == "long_tail":
        return _long_tail(rng)
    if dataset == "diabetes":
        return _diabetes(rng)
    raise ValueError(f"dataset {dataset!r} is not one of spurious, long_tail, diabetes")
