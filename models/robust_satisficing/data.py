"""The shifted data sets: a Waterbirds-like group shift, linear spurious correlations, long-tailed digits, diabetes.

Built on `models.common.tabular`. Each set has a training part, an in-distribution validation part (used
for tau and for tuning the baselines, as in the group-DRO and JTT protocols: worst-group validation
accuracy), and a test part whose groups are scored. The test groups are reweighted to two distributions:
the training one (in-distribution) and a shifted one; the difference of the two scores is the
degradation under shift.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from models.common.tabular import (
    TabularData,
    load_dataset,
    split,
    spurious_correlation,
    standardise,
    waterbirds_like,
)

__all__ = ["IMBALANCE", "MINORITY_KEEP", "SPURIOUS_CORRELATION", "WATERBIRDS_CORRELATION", "ShiftedData", "build"]

WATERBIRDS_CORRELATION = 0.95  # P(attribute = label) in training (minority groups 5%), as Waterbirds
SPURIOUS_CORRELATION = 0.9  # the linear spurious set
IMBALANCE = 0.05  # long_tail: class c keeps IMBALANCE^(c / 9) of its training rows (class 9 keeps 5%)
MINORITY_KEEP = 0.25  # diabetes: share of the sex = higher group kept in training


@dataclass(frozen=True)
class ShiftedData:
    """Standardised train, validation and test parts with groups; group weights of the two test distributions.

    `id_weights[g]` is group g's share in training (the in-distribution mixture), `shift_weights[g]` its share
    after the shift (attribute reversed, or classes balanced). `target_scale` undoes a regression target's scaling.
    """

    train: TabularData
    validation: TabularData
    test: TabularData
    group_names: tuple[str, ...]
    id_weights: np.ndarray
    shift_weights: np.ndarray
    shift_name: str
    target_scale: float = 1.0

    @property
    def regression(self) -> bool:
        return self.train.task == "regression"


def _shares(groups: np.ndarray, count: int) -> np.ndarray:
    return np.bincount(groups, minlength=count) / len(groups)


def _reversed(shares: np.ndarray) -> np.ndarray:
    """Groups 2 y + a with the attribute flipped: (y, a) takes the share of (y, 1 - a)."""
    return shares[[1, 0, 3, 2]]


def _correlated(train: TabularData, validation: TabularData, test: TabularData) -> ShiftedData:
    train, validation, test = standardise(train, validation, test)
    assert train.groups is not None
    shares = _shares(train.groups, 4)
    return ShiftedData(train, validation, test, train.group_names, shares, _reversed(shares),
                       "spurious attribute reversed")


def _waterbirds(rng: np.random.Generator, train_size: int) -> ShiftedData:
    c = WATERBIRDS_CORRELATION
    return _correlated(waterbirds_like(train_size, rng, correlation=c),
                       waterbirds_like(max(400, train_size // 2), rng, correlation=c),
                       waterbirds_like(4000, rng, correlation=0.5))


def _spurious(rng: np.random.Generator, train_size: int) -> ShiftedData:
    c = SPURIOUS_CORRELATION
    return _correlated(spurious_correlation(train_size, rng, correlation=c),
                       spurious_correlation(max(400, train_size // 2), rng, correlation=c),
                       spurious_correlation(4000, rng, correlation=0.5))


def _long_tail(rng: np.random.Generator) -> ShiftedData:
    digits = load_dataset("digits")
    digits = replace(digits, groups=digits.y.copy(), group_names=tuple(f"digit {c}" for c in range(10)))
    train, test = split(digits, [0.5, 0.5], rng)
    keep = np.zeros(train.n, dtype=bool)
    for c in range(10):
        rows = rng.permutation(np.flatnonzero(train.y == c))
        keep[rows[: max(4, round(len(rows) * IMBALANCE ** (c / 9)))]] = True
    train, validation = split(train.take(keep), [0.75, 0.25], rng)
    train, validation, test = standardise(train, validation, test)
    assert train.groups is not None
    return ShiftedData(train, validation, test, digits.group_names, _shares(train.groups, 10), np.full(10, 0.1),
                       "classes balanced")


def _diabetes(rng: np.random.Generator) -> ShiftedData:
    data = load_dataset("diabetes")
    train, test = split(data, [0.6, 0.4], rng)
    assert train.groups is not None and test.groups is not None
    minority = np.flatnonzero(train.groups == 1)
    dropped = rng.permutation(minority)[round(len(minority) * MINORITY_KEEP):]
    keep = np.ones(train.n, dtype=bool)
    keep[dropped] = False
    train, validation = split(train.take(keep), [0.75, 0.25], rng)
    train, validation, test = standardise(train, validation, test)
    mean, scale = float(train.y.mean()), float(train.y.std())
    train, validation, test = (replace(part, y=(part.y - mean) / scale) for part in (train, validation, test))
    assert train.groups is not None and test.groups is not None
    return ShiftedData(train, validation, test, data.group_names, _shares(train.groups, 2), _shares(test.groups, 2),
                       "natural sex proportions", target_scale=scale)


def build(dataset: str, rng: np.random.Generator, *, train_size: int = 1000) -> ShiftedData:
    """The named data set with its training shift and validation split."""
    if dataset == "waterbirds":
        return _waterbirds(rng, train_size)
    if dataset == "spurious":
        return _spurious(rng, train_size)
    if dataset == "long_tail":
        return _long_tail(rng)
    if dataset == "diabetes":
        return _diabetes(rng)
    raise ValueError(f"dataset {dataset!r} is not one of waterbirds, spurious, long_tail, diabetes")
