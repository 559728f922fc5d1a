"""Feldman's function: exact population loss vs enumeration, the overfitting ERM, subgradients and GD."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models.erm_overfit.code import gold_code
from models.erm_overfit.construction import (
    Sample,
    _subgradient,
    empirical_loss,
    population_loss,
    projected_gd,
)


def _small_code(k: int = 7, d: int = 5, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(k, d))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_population_loss_equals_the_average_over_all_subsets() -> None:
    code = _small_code()
    x = np.random.default_rng(1).normal(size=5)
    x *= 0.9 / np.linalg.norm(x)
    inner = code @ x
    total = 0.0
    for mask in itertools.product([False, True], repeat=len(code)):
        best = max([inner[i] for i in range(len(code)) if mask[i]], default=-np.inf)
        total += max(0.5, best)
    exact = total / 2 ** len(code)
    assert population_loss(x, code, 0.0) == pytest.approx(exact, rel=1e-12)
    assert population_loss(x, code, 0.2) == pytest.approx(exact + 0.1 * 0.81, rel=1e-12)


def test_an_unseen_code_vector_fits_perfectly_and_generalises_badly() -> None:
    code = gold_code(5).vectors
    sample = Sample.draw(np.random.default_rng(2), 4, code)
    unseen = sample.unseen()
    assert unseen.size > 0
    u = code[unseen[0]]
    assert empirical_loss(u, code, sample, 0.0) == 0.5
    assert empirical_loss(np.zeros(31), code, sample, 0.0) == 0.5
    assert population_loss(u, code, 0.0) == pytest.approx(0.75)  # 1 w.p. 1/2, else 1/2 (coherence 9/31 < 1/2)
    seen = np.nonzero(sample.membership.any(axis=0))[0][0]
    assert empirical_loss(code[seen], code, sample, 0.0) > 0.5


def test_subgradient_matches_finite_differences_where_the_loss_is_smooth() -> None:
    code = gold_code(5).vectors
    sample = Sample.draw(np.random.default_rng(3), 5, code)
    rng = np.random.default_rng(4)
    x = 0.8 * code[sample.membership[0].nonzero()[0][0]] + 0.01 * rng.normal(size=31)
    grad = _subgradient(x, code, sample, 0.3)
    for _ in range(5):
        direction = rng.normal(size=31)
        h = 1e-6
        numeric = (empirical_loss(x + h * direction, code, sample, 0.3, True)
                   - empirical_loss(x - h * direction, code, sample, 0.3, True)) / (2 * h)
        assert numeric == pytest.approx(grad @ direction, rel=1e-5, abs=1e-8)


def test_gd_in_the_flat_region_walks_along_minus_the_noise_and_gains_eta_t_times_its_norm_squared() -> None:
    code = gold_code(7).vectors
    sample = Sample.draw(np.random.default_rng(5), 8, code)
    eta, horizon = 0.01, 20
    path = projected_gd(code, sample, 0.0, eta, [horizon])
    x = path.iterates[0]
    assert np.allclose(x, -eta * horizon * sample.noise)
    gap = population_loss(x, code, 0.0) - empirical_loss(x, code, sample, 0.0, with_noise=True)
    assert gap == pytest.approx(eta * horizon * float(sample.noise @ sample.noise), rel=1e-6)
    far = projected_gd(code, sample, 0.0, 1.0, [500]).iterates[0]
    assert np.linalg.norm(far) <= 1.0 + 1e-12
