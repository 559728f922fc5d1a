"""Bundled data sets, stratified splits, standardisation and the shift generators."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.tabular import (
    BUNDLED,
    classification_blobs,
    group_shift,
    load_dataset,
    split,
    spurious_correlation,
    standardise,
)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_sets_load_with_their_known_shapes(name: str) -> None:
    shapes = {"breast_cancer": (569, 30), "wine": (178, 13), "digits": (1797, 64), "diabetes": (442, 10),
              "iris": (150, 4)}
    data = load_dataset(name)
    assert data.X.shape == shapes[name] and len(data.feature_names) == data.d
    if name == "diabetes":
        assert data.task == "regression" and data.groups is not None and set(np.unique(data.groups)) == {0, 1}
    else:
        assert data.classes == len(data.target_names)


def test_an_unknown_dataset_names_the_choices() -> None:
    with pytest.raises(ValueError, match="breast_cancer"):
        load_dataset("adult")


def test_split_is_disjoint_complete_stratified_and_seeded() -> None:
    data = load_dataset("wine")
    parts = split(data, [0.5, 0.2, 0.3], np.random.default_rng(3))
    assert sum(p.n for p in parts) == data.n
    rows = np.concatenate([p.X for p in parts])
    assert len(np.unique(rows, axis=0)) == len(np.unique(data.X, axis=0))
    for part, fraction in zip(parts, [0.5, 0.2, 0.3], strict=True):
        for c in range(data.classes):
            assert abs(np.sum(part.y == c) - fraction * np.sum(data.y == c)) <= 1.0
    again = split(data, [0.5, 0.2, 0.3], np.random.default_rng(3))
    assert all(np.array_equal(a.X, b.X) for a, b in zip(parts, again, strict=True))
    with pytest.raises(ValueError, match="sum"):
        split(data, [0.5, 0.4], np.random.default_rng(0))


def test_standardise_uses_the_training_statistics() -> None:
    train, test = split(load_dataset("iris"), [0.6, 0.4], np.random.default_rng(0))
    train_s, test_s = standardise(train, test)
    assert np.allclose(train_s.X.mean(axis=0), 0, atol=1e-12) and np.allclose(train_s.X.std(axis=0), 1)
    assert np.allclose(test_s.X, (test.X - train.X.mean(axis=0)) / train.X.std(axis=0))


def test_spurious_attribute_agrees_with_the_label_at_the_set_rate() -> None:
    data = spurious_correlation(20000, np.random.default_rng(0), correlation=0.9)
    assert data.groups is not None
    label, attribute = data.groups // 2, data.groups % 2
    assert np.array_equal(label, data.y)
    assert abs(np.mean(attribute == data.y) - 0.9) < 0.01
    # the spurious features carry the attribute, the core features the label
    assert np.corrcoef(data.X[:, 2], attribute)[0, 1] > 0.8 and np.corrcoef(data.X[:, 0], data.y)[0, 1] > 0.4


def test_group_shift_rotates_the_minority_boundary() -> None:
    data = group_shift(20000, np.random.default_rng(1), minority_fraction=0.2, angle_degrees=90, label_noise=0.0)
    assert data.groups is not None and abs(np.mean(data.groups) - 0.2) < 0.01
    majority, minority = data.groups == 0, data.groups == 1
    assert np.array_equal(data.y[majority], (data.X[majority, 0] > 0).astype(int))
    assert np.array_equal(data.y[minority], (data.X[minority, 1] > 0).astype(int))


def test_blobs_follow_the_chain_correlation() -> None:
    data = classification_blobs(50000, np.random.default_rng(2), classes=1, separation=0.0, chain_correlation=0.8)
    corr = np.corrcoef(data.X.T)
    assert abs(corr[0, 1] - 0.8) < 0.02 and abs(corr[0, 2] - 0.64) < 0.02
