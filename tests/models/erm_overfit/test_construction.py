"""The code, the exact population loss vs enumeration, the bad ERM, and the solver vs brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models.erm_overfit.code import random_linear_code
from models.erm_overfit.construction import (
    Sample,
    empirical_objective,
    population_excess,
    solve_regularised_erm,
)


def _small_code(k: int = 7, d: int = 5, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(k, d))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_code_coherence_is_the_largest_gram_entry_and_vectors_are_unit() -> None:
    code = random_linear_code(24, 7)
    gram = code.vectors @ code.vectors.T
    np.fill_diagonal(gram, -np.inf)
    assert code.vectors.shape == (128, 24)
    assert np.allclose(np.linalg.norm(code.vectors, axis=1), 1.0)
    assert code.coherence == pytest.approx(gram.max(), abs=1e-12)
    assert len({row.tobytes() for row in code.vectors}) == 128  # distinct codewords
    assert code.coherence < 0.75  # asymptotically good: far from 1 at rate 7/24


def test_code_is_a_fixed_instance() -> None:
    assert np.array_equal(random_linear_code(30, 8).vectors, random_linear_code(30, 8).vectors)


def test_population_excess_equals_the_average_over_all_subsets() -> None:
    code = _small_code()
    x = np.random.default_rng(1).normal(size=5)
    x *= 0.9 / np.linalg.norm(x)
    inner = code @ x
    total = 0.0
    for mask in itertools.product([False, True], repeat=len(code)):
        total += max([0.4] + [inner[i] for i in range(len(code)) if mask[i]])
    exact = total / 2 ** len(code)
    assert population_excess(x, code, 0.4, 0.0) == pytest.approx(exact - 0.4, rel=1e-12)
    assert population_excess(x, code, 0.4, 0.2) == pytest.approx(exact - 0.4 + 0.1 * 0.81, rel=1e-12)
    assert population_excess(np.zeros(5), code, 0.4, 0.2) == 0.0


def test_an_unseen_codeword_fits_perfectly_and_overfits_by_the_guarantee() -> None:
    code = random_linear_code(36, 9)
    theta = (1 + code.coherence) / 2
    sample = Sample.draw(np.random.default_rng(3), 6, code.vectors)
    unseen = sample.unseen()
    assert unseen.size > 0
    u = code.vectors[unseen[0]]
    assert empirical_objective(u, code.vectors, sample, theta, 0.0, 0.0) == pytest.approx(theta, abs=1e-12)
    assert population_excess(u, code.vectors, theta, 0.0) == pytest.approx((1 - theta) / 2, abs=1e-12)
    seen = code.vectors[sample.membership[0]][0]
    assert empirical_objective(seen, code.vectors, sample, theta, 0.0, 0.0) > theta + 1e-3


def test_noise_is_the_signed_codeword_sum_and_has_mean_zero() -> None:
    code = random_linear_code(24, 7).vectors
    one = Sample.draw(np.random.default_rng(9), 1, code)
    signs = np.where(one.membership[0], 1.0, -1.0)
    assert np.allclose(one.noise, signs @ code / np.sqrt(len(code)))
    noise = np.mean([Sample.draw(np.random.default_rng(s), 1, code).noise for s in range(4000)], axis=0)
    assert np.abs(noise).max() < 0.05


def test_solver_beats_every_random_point_and_its_certificate_is_valid() -> None:
    code = random_linear_code(24, 7)
    theta, lam = (1 + code.coherence) / 2, 4**-1.5
    sample = Sample.draw(np.random.default_rng(0), 4, code.vectors)
    sol = solve_regularised_erm(code.vectors, sample, theta, 0.5, lam)
    assert sol.gap <= 1e-6 and np.linalg.norm(sol.x) <= 1 + 1e-12
    rng = np.random.default_rng(1)
    points = rng.normal(size=(3000, 24))
    points *= rng.random((3000, 1)) ** (1 / 24) / np.linalg.norm(points, axis=1, keepdims=True)
    best = min(empirical_objective(p, code.vectors, sample, theta, 0.5, lam) for p in points)
    assert sol.lower_bound <= sol.objective + 1e-12 and sol.objective <= best
    for scale in (0.9, 0.99):  # strong convexity: moving towards 0 is worse
        assert empirical_objective(scale * sol.x, code.vectors, sample, theta, 0.5, lam) > sol.objective


def test_without_noise_the_unique_minimiser_is_zero() -> None:
    code = random_linear_code(24, 7)
    sample = Sample.draw(np.random.default_rng(0), 4, code.vectors)
    sol = solve_regularised_erm(code.vectors, sample, 0.7, 0.0, 0.1)
    assert np.linalg.norm(sol.x) < 1e-4
