"""Streams from the bundled digits, domain shifts, label permutations and the replay buffer."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.continual import (
    ReplayBuffer,
    class_incremental_tasks,
    digits_dataset,
    domain_shift,
    gaussian_classes,
    label_permutation,
)


def test_class_incremental_tasks_partition_the_classes() -> None:
    tasks = class_incremental_tasks(5, np.random.default_rng(0))
    classes = [c for t in tasks for c in t.classes]
    assert sorted(classes) == list(range(10))
    x, _ = digits_dataset()
    assert sum(t.x_train.shape[0] + t.x_test.shape[0] for t in tasks) == x.shape[0]
    for t in tasks:
        assert set(np.unique(t.y_train)) == set(t.classes) == set(np.unique(t.y_test))


def test_same_seed_same_stream() -> None:
    a = class_incremental_tasks(3, np.random.default_rng(4))
    b = class_incremental_tasks(3, np.random.default_rng(4))
    assert all(np.array_equal(s.x_train, t.x_train) for s, t in zip(a, b, strict=True))


def test_domain_shifts() -> None:
    x, _ = digits_dataset()
    rng = np.random.default_rng(0)
    four = domain_shift(domain_shift(x[:5], "rotation", rng), "rotation", rng, 3.0)
    assert np.allclose(four, x[:5])  # 90 then 270 degrees
    assert np.allclose(domain_shift(domain_shift(x[:5], "inversion", rng), "inversion", rng), x[:5])
    blurred = domain_shift(x[:5], "blur", rng)
    assert blurred.std() < x[:5].std()
    noisy = domain_shift(x[:5], "noise", rng)
    assert noisy.min() >= 0.0 and noisy.max() <= 1.0 and not np.allclose(noisy, x[:5])


def test_label_permutation_moves_exactly_the_asked_labels() -> None:
    rng = np.random.default_rng(1)
    for swapped in (0, 2, 5, 10):
        perm = label_permutation(10, swapped, rng)
        assert sorted(perm) == list(range(10))
        assert int((perm != np.arange(10)).sum()) == swapped


def test_gaussian_classes_shape() -> None:
    x, y = gaussian_classes(3, 20, 4, 5.0, np.random.default_rng(0))
    assert x.shape == (60, 4) and np.bincount(y).tolist() == [20, 20, 20]


def test_reservoir_buffer_is_uniform_over_what_was_offered() -> None:
    counts = np.zeros(100)
    for seed in range(300):
        buf = ReplayBuffer(10, 1, np.random.default_rng(seed))
        buf.add(np.arange(100, dtype=np.float32)[:, None], np.arange(100))
        _, y = buf.contents()
        assert len(buf) == 10 and len(set(y.tolist())) == 10
        counts[y] += 1
    # each item is kept with probability 10/100: expect 30 of 300 runs; first and last halves agree
    assert counts.sum() == 3000
    assert abs(counts[:50].sum() - counts[50:].sum()) < 300
    with pytest.raises(ValueError):
        ReplayBuffer(-1, 1, np.random.default_rng(0))
