"""The official recruitment (net profiles, competence, weighted sampling with replacement), the aggregators,
and the per-query paired gain claim."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from models.common.claims import evaluate_claims
from models.skill_moe import routing
from models.skill_moe.claims import CLAIMS, MIN_GAIN
from models.skill_moe.run import _gain


def test_net_profile_counts_right_minus_wrong_per_skill() -> None:
    rng = np.random.default_rng(0)
    correct = rng.random((5, 40)) < 0.6
    skill_of = rng.integers(0, 3, 40)
    net = routing.net_profile(correct, skill_of, 3)
    for e in range(5):
        for s in range(3):
            mask = skill_of == s
            assert net[e, s] == int(correct[e, mask].sum()) - int((~correct[e, mask]).sum())


def test_competence_shifts_squares_and_normalises() -> None:
    profile = np.array([[3, -1], [-4, 0], [1, 1]])  # sums 2, -4, 2 -> shifted 7, 1, 7 -> squared 49, 1, 49
    assert np.allclose(routing.competence(profile), np.array([49, 1, 49]) / 99)
    positive = np.array([[1, 1], [2, 1]])  # sums 2, 3: no shift -> 4, 9
    assert np.allclose(routing.competence(positive), np.array([4, 9]) / 13)


def test_recruit_samples_positive_scores_in_proportion_to_score_times_competence() -> None:
    profile = np.array([[4, 0, -1], [2, 0, 0], [-3, 0, -2], [0, 5, -1]])
    strength = np.array([0.1, 0.4, 0.3, 0.2])
    chosen, local = routing.recruit(profile, strength, [[0]] * 4000, 3, np.random.default_rng(1))
    picks = np.array(chosen).ravel()
    assert set(picks) == {0, 1}  # only positive local scores are eligible
    expected = 4 * 0.1 / (4 * 0.1 + 2 * 0.4)  # 1/3 for expert 0
    assert abs(np.mean(picks == 0) - expected) < 0.02
    assert any(len(set(c)) < 3 for c in chosen)  # with replacement: duplicates happen
    assert set(np.unique(local)) == {4.0, 2.0}
    # none positive: every score shifted to min 1, so all experts are eligible
    chosen, _ = routing.recruit(profile, strength, [[2]] * 2000, 2, np.random.default_rng(2))
    assert set(np.array(chosen).ravel()) == {0, 1, 2, 3}


def test_recruit_is_seeded() -> None:
    profile = np.array([[4, 1], [2, 3], [1, 1]])
    strength = routing.competence(profile)
    a = routing.recruit(profile, strength, [[0], [1]] * 20, 3, np.random.default_rng(5))
    b = routing.recruit(profile, strength, [[0], [1]] * 20, 3, np.random.default_rng(5))
    assert a[0] == b[0] and np.array_equal(a[1], b[1])


def test_aggregator_weights() -> None:
    local = np.array([[3.0, 1.0], [2.0, 2.0]])
    strength = np.array([0.5, 0.25, 0.25])
    chosen = [[0, 1], [2, 2]]
    assert np.array_equal(routing.aggregator_weights("majority", local, strength, chosen), np.ones((2, 2)))
    assert np.array_equal(routing.aggregator_weights("competence", local, strength, chosen),
                          np.array([[0.5, 0.25], [0.25, 0.25]]))
    assert np.array_equal(routing.aggregator_weights("skill", local, strength, chosen), local)
    with pytest.raises(ValueError):
        routing.aggregator_weights("debate", local, strength, chosen)


def _seed(ours: np.ndarray, router: np.ndarray, other: float = 0.5) -> SimpleNamespace:
    n = len(ours)
    rest = np.arange(n) < other * n
    correct = {"instance_routing": ours, "trained_router": router, "task_top_k": rest, "best_single": rest,
               "majority_vote": rest, "random_k": np.arange(n) < 0.1 * n}
    return SimpleNamespace(correct=correct, accuracy={k: float(v.mean()) for k, v in correct.items()})


def test_gain_units_are_paired_wins_and_losses_against_the_best_baseline() -> None:
    router = np.arange(400) % 10 != 0  # 90%
    ours = router.copy()
    ours[:20] = True  # 2 queries fixed of the first 20 (0 and 10), one broken below
    ours[5] = False
    m = _gain(ours, _seed(ours, router))
    units = np.array(m.units)
    assert set(np.unique(units)) <= {-100.0, 0.0, 100.0} and len(units) == 400
    assert m.value == pytest.approx(100 * (ours.mean() - router.mean()))
    assert (units > 0).sum() == 2 and (units < 0).sum() == 1
    assert m.null == pytest.approx(100 * (0.1 - 0.9))


def test_a_lead_of_a_few_queries_is_not_held_and_a_large_one_is() -> None:
    rng = np.random.default_rng(3)
    gain = next(c for c in CLAIMS if c.id == "gain")
    tie, win = [], []
    for _ in range(3):
        router = rng.random(400) < 0.9
        few = router.copy()
        few[np.flatnonzero(~router)[:3]] = True  # +0.75 points: the review's tie
        many = router.copy()
        many[np.flatnonzero(~router)[:30]] = True  # +7.5 points
        tie.append(_gain(few, _seed(few, router)))
        win.append(_gain(many, _seed(many, router)))
    held = {name: evaluate_claims([gain], {"gain": ms}, [0, 1, 2])[0] for name, ms in (("tie", tie), ("win", win))}
    assert held["tie"].holds != "held" and held["win"].holds == "held"
    assert held["win"].test is not None and held["win"].test.p_value is not None and held["win"].test.p_value < 0.05
    assert 7.5 - 1e-9 > MIN_GAIN
