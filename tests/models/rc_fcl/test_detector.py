"""The drift detector, Wilson intervals, detection rates, experiences and Avalanche metrics, the stream plan."""

from __future__ import annotations

import numpy as np
import pytest

from models.rc_fcl.concepts import ClientPlan, plan_clients
from models.rc_fcl.detector import GaussianReference, score_drift, wilson_interval
from models.rc_fcl.evaluation import detection_rates, experience_ends, local_clocks, stream_metrics
from models.rc_fcl.federation import MethodTrace


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


def test_wilson_interval_matches_the_closed_form_and_narrows() -> None:
    low, high = wilson_interval(8, 10)
    assert (low, high) == pytest.approx((0.4902, 0.9433), abs=1e-4)  # textbook values for 8 / 10 at 95%
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 50)[0] == 0.0 and wilson_interval(50, 50)[1] == 1.0
    wide, narrow = wilson_interval(5, 20), wilson_interval(50, 200)
    assert narrow[1] - narrow[0] < wide[1] - wide[0] and narrow[0] < 0.25 < narrow[1]


def _plan(drift_at: tuple[int, ...], magnitude: float = 1.0) -> ClientPlan:
    return ClientPlan(0, drift_at, magnitude, 3, np.full(4, 0.25), np.array([0.7, 0.1, 0.1, 0.1]))


def test_detection_rates_count_events_and_false_alarms() -> None:
    # two clients trained every round; client 0 drifts at local rounds 2 and 5, client 1 never
    plans = [_plan((2, 5)), _plan(())]
    participates = np.ones((7, 2), dtype=bool)
    trace = MethodTrace("rc_fcl")
    trace.detected = [[None, None], [False, False], [False, True], [True, False], [None, False], [False, False],
                      [False, False]]
    rates = detection_rates(trace, plans, participates)
    # event at 2 found at round 3 (within 2 rounds); event at 5 missed (rounds 5 and 6 not flagged)
    assert (rates.events, rates.detected_events) == (2, 1)
    # negatives: client 0 rounds 1 and 4 (round 4 unscored: None), client 1 rounds 1-6: 1 + 6 = 7, one flagged
    assert (rates.negatives, rates.false_positives) == (7, 1)
    assert rates.true_positive_rate == pytest.approx(0.5) and rates.fpr_interval[0] < 1 / 7 < rates.fpr_interval[1]


def test_local_clocks_and_experience_ends_follow_participation() -> None:
    participates = np.array([[1, 1], [0, 1], [1, 1], [1, 0], [1, 1]], dtype=bool)
    assert local_clocks(participates).tolist() == [[0, 0], [1, 1], [1, 2], [2, 3], [3, 3]]
    plans = [_plan((2, 3)), _plan((2, 9))]
    # half the clients (one of two) reach concept 1 at server round 2 (client 1's clock 2), concept 2 at round 4
    assert experience_ends(plans, participates, 3) == [1, 3, 4]
    assert experience_ends([_plan(()), _plan(())], participates, 3) == [4]


def test_stream_metrics_are_avalanche_s() -> None:
    trace = MethodTrace("fedavg")
    trace.concept_accuracy = [[0.9, 0.1, 0.0], [0.8, 0.7, 0.1], [0.5, 0.6, 0.9]]
    matrix, average, forgetting = stream_metrics(trace, [0, 1, 2])
    assert matrix == trace.concept_accuracy
    assert average == pytest.approx((0.5 + 0.6 + 0.9) / 3)
    assert forgetting == pytest.approx(((0.9 - 0.5) + (0.7 - 0.6)) / 2)
    assert stream_metrics(trace, [2])[2] is None


def test_concept_weights_prior_and_batches() -> None:
    plan = _plan((2, 5), magnitude=0.7)
    assert plan.concept_weights(1).tolist() == [1.0, 0.0, 0.0]
    assert plan.concept_weights(2) == pytest.approx([0.3, 0.7, 0.0])
    assert plan.concept_weights(6) == pytest.approx([0.0, 0.3, 0.7])
    assert plan.prior(2).tolist() == [0.25] * 4 and plan.prior(3)[0] == 0.7
    rng = np.random.default_rng(0)
    labels = [np.repeat([1, 4, 7], 10), np.arange(10).repeat(3)]
    for p, held in zip(plan_clients(labels, 30, 1.0, rng), labels, strict=True):
        assert 2 <= p.drift_at[0] < p.drift_at[1] < 30 and 0.5 <= p.magnitude <= 1.0
        assert p.prior_after.sum() == pytest.approx(1.0) and p.prior_after.size == held.size
    assert all(p.drift_at == () for p in plan_clients(labels, 30, 0.0, rng))
