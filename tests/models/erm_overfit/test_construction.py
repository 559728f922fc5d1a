"""The code, the exact population loss vs a sampled average, the theorem's closed form vs the solver and vs
random points, the sampling model's rates, and SGD."""

from __future__ import annotations

import numpy as np
import pytest

from models.erm_overfit.code import random_linear_code
from models.erm_overfit.construction import (
    Sample,
    closed_form_erm,
    empirical_objective,
    feldman_population,
    one_pass_sgd,
    solve_regularised_erm,
)

M = 5
CODE = random_linear_code(6 * M, M + 3).vectors
THETA = (M - 2 + 0.5) / np.sqrt(M * 6 * M)  # margin 0.25
LAM, ALPHA = M**-1.5, 2.0 / M


def _clean_sample(seed: int = 0) -> Sample:
    """A draw without repeated coordinates (the theorem's case)."""
    rng = np.random.default_rng(seed)
    while True:
        sample = Sample.draw(rng, M, CODE)
        if sample.collisions == 0:
            return sample


def test_code_coherence_is_the_largest_gram_entry_and_vectors_are_unit() -> None:
    code = random_linear_code(24, 7)
    gram = code.vectors @ code.vectors.T
    np.fill_diagonal(gram, -np.inf)
    assert code.vectors.shape == (128, 24)
    assert np.allclose(np.linalg.norm(code.vectors, axis=1), 1.0)
    assert code.coherence == pytest.approx(gram.max(), abs=1e-12)


def test_population_loss_is_the_average_over_all_2d_draws() -> None:
    """Brute force: loop over every (j, s), take V(j, s) literally, compare with the vectorised formula."""
    x = np.random.default_rng(1).normal(size=CODE.shape[1])
    x *= 0.8 / np.linalg.norm(x)
    inner = CODE @ x
    total = [max(THETA, inner[s * CODE[:, j] < 0].max()) for j in range(CODE.shape[1]) for s in (-1.0, 1.0)]
    assert feldman_population(x, CODE, THETA) == pytest.approx(np.mean(total) - THETA, rel=1e-12)
    assert feldman_population(np.zeros(CODE.shape[1]), CODE, THETA) == 0.0


def test_each_codeword_is_in_a_fresh_v_with_probability_one_half() -> None:
    d = CODE.shape[1]
    members = np.array([[s * CODE[k, j] < 0 for j in range(d) for s in (-1.0, 1.0)] for k in range(len(CODE))])
    assert np.allclose(members.mean(axis=1), 0.5)
    assert np.allclose(members.mean(axis=0), 0.5)  # every V is half the code


def test_unseen_codewords_agree_with_every_sampled_sign() -> None:
    sample = _clean_sample(3)
    agree = np.all(sample.signs[None, :] * CODE[:, sample.coordinates] > 0, axis=1)
    assert np.array_equal(~sample.seen, agree) and agree.any()


def test_closed_form_is_the_solvers_minimiser_and_beats_random_points() -> None:
    sample = _clean_sample(0)
    x = closed_form_erm(CODE, sample, THETA, ALPHA, LAM)
    assert x is not None
    solved = solve_regularised_erm(CODE, sample, THETA, ALPHA, LAM)
    assert np.abs(solved.x - x).max() < 1e-4
    best = empirical_objective(x, CODE, sample, THETA, ALPHA, LAM)
    rng = np.random.default_rng(2)
    points = rng.normal(size=(2000, CODE.shape[1]))
    points *= rng.random((2000, 1)) ** (1 / CODE.shape[1]) / np.linalg.norm(points, axis=1, keepdims=True)
    points = np.vstack([points, x + 0.05 * points[:200]])
    points /= np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1.0)
    assert best < min(empirical_objective(p, CODE, sample, THETA, ALPHA, LAM) for p in points)


def test_closed_form_fits_the_data_and_overfits_by_the_guarantee() -> None:
    gamma = 0.75 / np.sqrt(M * 6 * M)
    for seed in range(5):
        sample = _clean_sample(seed)
        x = closed_form_erm(CODE, sample, THETA, ALPHA, LAM)
        assert x is not None
        feldman = empirical_objective(x, CODE, sample, THETA, 0.0, 0.0)
        assert feldman == pytest.approx(THETA, abs=1e-12)  # zero training error
        assert feldman_population(x, CODE, THETA) >= gamma - 1e-12


def test_closed_form_is_refused_when_a_seen_codeword_crosses_theta_or_the_noise_is_weak() -> None:
    sample = _clean_sample(0)
    assert closed_form_erm(CODE, sample, THETA - 0.1, ALPHA, LAM) is None  # theta below the seen maximum
    assert closed_form_erm(CODE, sample, THETA, LAM / 2, LAM) is None  # alpha ||h|| / m < lambda


def test_opposite_signs_on_one_coordinate_leave_no_unseen_codeword() -> None:
    sample = Sample.of(np.array([0, 0, 1]), np.array([1.0, -1.0, 1.0]), CODE)
    assert sample.seen.all() and sample.collisions == 1
    assert sample.noise_vector(CODE.shape[1])[0] == 0.0 and sample.noise_vector(CODE.shape[1])[1] == 1.0


def test_sgd_stays_in_the_ball_and_generalises_here() -> None:
    sample = _clean_sample(1)
    x = one_pass_sgd(CODE, sample, THETA, ALPHA, LAM)
    assert np.linalg.norm(x) <= 1.0 + 1e-12
    assert feldman_population(x, CODE, THETA) < 0.5 * 0.75 / np.sqrt(M * 6 * M)
