"""The drift detector: near 0 without drift, near 1 for a mean shift; detection rates; the drift plan."""

from __future__ import annotations

import numpy as np
import pytest

from models.rc_fcl.concepts import plan_drift
from models.rc_fcl.detector import GaussianReference, score_drift
from models.rc_fcl.federation import MethodTrace
from models.rc_fcl.run import detection_rates


def _gaussian_data(shift: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y = np.repeat(np.arange(3), 60)
    means = np.eye(3, 16) * 2.0
    x = rng.normal(means[y] + shift, 1.0)
    return x, y


def test_no_drift_scores_near_zero_and_a_shift_scores_near_one() -> None:
    rng = np.random.default_rng(0)
    x, y = _gaussian_data(0.0, rng)
    reference = GaussianReference.fit(x, y)
    same = [score_drift(reference, *_gaussian_data(0.0, rng), rng).score for _ in range(20)]
    # held-out noise only: 180 held-out rows give 2 acc - 1 a spread of about 0.07 around 0 (clipped at 0)
    assert np.median(same) < 0.15 and np.mean(np.array(same) > 0.3) == 0.0
    shifted = score_drift(reference, *_gaussian_data(1.5, rng), rng)
    assert shifted.score > 0.9
    assert shifted.sample_new_probability.mean() > 0.9


def test_a_label_permutation_is_detected_class_by_class() -> None:
    rng = np.random.default_rng(1)
    x, y = _gaussian_data(0.0, rng)
    reference = GaussianReference.fit(x, y)
    x2, y2 = _gaussian_data(0.0, rng)
    swapped = np.array([1, 0, 2])[y2]  # classes 0 and 1 exchange labels; the inputs do not change
    drift = score_drift(reference, x2, swapped, rng)
    # two of three classes moved, each separable at ~90%: score ~ 2 (0.9 + 0.9 + 0.5) / 3 - 1 = 0.53
    assert drift.score > 0.35
    p = drift.sample_new_probability
    assert p[swapped != 2].mean() > 0.8 > 0.6 > p[swapped == 2].mean()


def test_detection_rates_on_a_hand_made_trace() -> None:
    trace = MethodTrace("rc_fcl")
    trace.truth = [[None, None], [True, False], [True, False], [False, True]]
    trace.detected = [[None, None], [True, True], [False, False], [False, True]]
    rates = detection_rates(trace)
    assert rates.true_positive_rate == pytest.approx(2 / 3)
    assert rates.false_positive_rate == pytest.approx(1 / 3)
    assert (rates.positives, rates.negatives) == (3, 3)


def test_drift_plan_moves_only_classes_the_client_holds() -> None:
    rng = np.random.default_rng(2)
    labels = [np.repeat([1, 4, 7], 10), np.repeat([2], 30), np.repeat(np.arange(10), 6)]
    for _ in range(10):
        plans = plan_drift(labels, 20, 1.0, rng)
        for plan, held in zip(plans, labels, strict=True):
            assert plan.drift_at is not None and 2 <= plan.drift_at <= 17
            assert 0.5 <= plan.magnitude <= 1.0
            if plan.new_concept.kind == "permutation":
                moved = np.flatnonzero(plan.new_concept.permutation != np.arange(10))
                assert set(moved) <= set(np.unique(held)) and moved.size >= 2
        assert plans[1].new_concept.kind == "rotation"  # one class: a permutation could not change its data
    assert all(p.drift_at is None for p in plan_drift(labels, 20, 0.0, rng))
