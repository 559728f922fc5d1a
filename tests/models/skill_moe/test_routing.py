"""Routing and voting against brute force on random profiles."""

from __future__ import annotations

from collections import Counter

import numpy as np

from models.skill_moe import routing
from models.skill_moe.wordsuite import SKILLS, TASKS


def _profile(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random((16, len(SKILLS)))


def test_instance_routing_takes_the_best_experts_of_the_skill() -> None:
    profile = _profile(0)
    chosen = routing.instance_top_k(profile, ["maximum", "square", None], 3)
    for experts, column in zip(chosen, [profile[:, 3], profile[:, 6], profile.mean(axis=1)], strict=True):
        assert len(set(experts)) == 3
        assert sorted(column[experts]) == sorted(column)[-3:]


def test_task_routing_is_the_same_for_a_task_and_best_on_its_mean() -> None:
    profile = _profile(1)
    chosen = routing.task_top_k(profile, ["arithmetic", "mixed_b", "arithmetic"], 2)
    assert chosen[0] == chosen[2]
    mean = profile[:, [SKILLS.index(s) for s in TASKS["mixed_b"]]].mean(axis=1)
    assert set(chosen[1]) == set(np.argsort(mean)[-2:].tolist())


def test_weighted_vote_matches_brute_force() -> None:
    rng = np.random.default_rng(2)
    answers = rng.integers(0, 10, (200, 5))
    weights = rng.random((200, 5))
    voted = routing.weighted_vote(answers, weights)
    for row, w, v in zip(answers, weights, voted, strict=True):
        totals = {c: sum(wi for a, wi in zip(row, w, strict=True) if a == c) for c in range(10)}
        assert totals[int(v)] == max(totals.values())


def test_unit_weights_are_a_majority_vote_with_ties_to_the_smallest_class() -> None:
    answers = np.array([[3, 3, 1], [4, 2, 7], [5, 5, 5]])
    assert routing.weighted_vote(answers, np.ones((3, 3))).tolist() == [3, 2, 5]
    rng = np.random.default_rng(3)
    many = rng.integers(0, 10, (100, 7))
    for row, v in zip(many, routing.weighted_vote(many, np.ones((100, 7))), strict=True):
        counts = Counter(row.tolist())
        assert counts[int(v)] == max(counts.values())


def test_random_k_is_distinct_and_seeded() -> None:
    a = routing.random_k(16, 50, 4, np.random.default_rng(9))
    assert all(len(set(row)) == 4 for row in a)
    assert a == routing.random_k(16, 50, 4, np.random.default_rng(9))


def test_trained_router_learns_who_is_right_from_the_features() -> None:
    rng = np.random.default_rng(4)
    features = np.eye(4)[rng.integers(0, 4, 400)]  # four kinds of query, one-hot
    kind = features.argmax(axis=1)
    correct = np.stack([kind == e % 4 for e in range(8)])  # expert e is right exactly on kind e % 4
    router = routing.TrainedRouter(features, correct, seed=0)
    chosen, weights = router.route(features, 2)
    assert all(set(c) == {int(q), int(q) + 4} for c, q in zip(chosen, kind, strict=True))
    assert weights.shape == (400, 2) and (weights > 0.5).all()
