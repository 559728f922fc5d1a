"""Accuracy-matrix metrics on hand-made matrices (Avalanche/GEM definitions)."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.continual import (
    AccuracyMatrix,
    average_accuracy,
    backward_transfer,
    forgetting,
    per_task_forgetting,
)

# R[i, j]: accuracy on task j after training task i
R = np.array(
    [
        [0.90, 0.10, 0.00],
        [0.60, 0.80, 0.05],
        [0.30, 0.70, 0.95],
    ]
)


def test_metrics_on_a_hand_made_matrix() -> None:
    assert average_accuracy(R) == pytest.approx((0.30 + 0.70 + 0.95) / 3)
    assert per_task_forgetting(R) == pytest.approx([0.90 - 0.30, 0.80 - 0.70])
    assert forgetting(R) == pytest.approx(((0.90 - 0.30) + (0.80 - 0.70)) / 2)
    assert backward_transfer(R) == pytest.approx(-forgetting(R))


def test_no_forgetting_when_rows_keep_their_diagonal() -> None:
    perfect = np.triu(np.ones((4, 4))) * 0 + np.tril(np.ones((4, 4)))
    assert forgetting(perfect) == 0.0
    assert average_accuracy(perfect) == 1.0


def test_positive_backward_transfer() -> None:
    improving = np.array([[0.5, 0.0], [0.8, 0.9]])
    assert backward_transfer(improving) == pytest.approx(0.3)
    assert forgetting(improving) == pytest.approx(-0.3)


def test_single_task_has_no_forgetting() -> None:
    assert forgetting(np.array([[0.7]])) == 0.0
    assert average_accuracy(np.array([[0.7]])) == pytest.approx(0.7)


def test_accuracy_matrix_records_and_rejects() -> None:
    m = AccuracyMatrix(3)
    assert not m.complete()
    for i in range(3):
        for j in range(3):
            m.record(i, j, float(R[i, j]))
    assert m.complete()
    assert m.forgetting() == pytest.approx(forgetting(R))
    with pytest.raises(ValueError, match="fraction"):
        m.record(0, 0, 1.5)
    with pytest.raises(ValueError, match="square"):
        average_accuracy(np.ones((2, 3)))
