"""Size-balanced coalition sampling: distinct, endpoints first, equal counts per size, budget kept."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.shapley_graph.coalitions import sample_coalitions


@pytest.mark.parametrize("n,budget", [(12, 300), (20, 500), (60, 50), (30, 2000)])
def test_sampling_is_distinct_balanced_and_within_budget(n: int, budget: int) -> None:
    z = sample_coalitions(n, budget, np.random.default_rng(0))
    assert z.shape == (budget, n)
    assert not z[0].any() and z[1].all()
    assert len({row.tobytes() for row in z}) == budget
    sizes = z[2:].sum(axis=1)
    counts = np.bincount(sizes, minlength=n + 1)[1:n]
    capacity = np.array([math.comb(n, k) for k in range(1, n)])
    uncapped = counts < capacity
    assert counts[uncapped].max() - counts[uncapped].min() <= 1


def test_small_games_use_every_coalition() -> None:
    z = sample_coalitions(7, 500, np.random.default_rng(0))
    assert z.shape == (128, 7)
    assert len({row.tobytes() for row in z}) == 128


def test_sampling_is_deterministic_given_the_seed() -> None:
    a = sample_coalitions(25, 300, np.random.default_rng(5))
    b = sample_coalitions(25, 300, np.random.default_rng(5))
    c = sample_coalitions(25, 300, np.random.default_rng(6))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
