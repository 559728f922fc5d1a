"""Risk formula, effective model size and the SGD theory against closed forms and brute force."""

from __future__ import annotations

import numpy as np
import pytest

from models.precision_scaling.run import model_size_from_risk
from models.precision_scaling.simulation import make_problem, sgd_risk
from models.precision_scaling.theory import _averaged_contraction, theory


def _problem(seed: int = 0, samples: int = 3000):
    return make_problem(np.random.default_rng(seed), dimension=128, exponent=2.0, max_size=32, samples=samples,
                        label_noise=0.1)


def test_effective_size_is_m_at_full_precision_and_m_over_1_plus_delta_for_proportional_noise() -> None:
    p = _problem()
    s = p.sketch_of(16)
    full = theory(s, p.spectrum, p.target, np.zeros(128), 0.1, 0.01, [100])
    assert full.effective_size == pytest.approx(16.0)
    delta = 0.3
    proportional = theory(s, p.spectrum, p.target, delta * p.spectrum, 0.1, 0.01, [100])
    assert proportional.effective_size == pytest.approx(16.0 / (1 + delta))
    flat = theory(s, p.spectrum, p.target, np.full(128, 1e-3), 0.1, 0.01, [100])
    assert flat.effective_size < 0.9 * 16


def test_infinite_data_risk_is_the_least_squares_error_of_the_sketch() -> None:
    p = _problem(1)
    s = p.sketch_of(8)
    point = theory(s, p.spectrum, p.target, np.zeros(128), 0.0, 0.01, [10])
    h_half = np.sqrt(p.spectrum)
    v, *_ = np.linalg.lstsq((s * h_half).T, h_half * p.target, rcond=None)  # min ||H^1/2 (S^T v - w)||
    brute = float(((s.T @ v - p.target) ** 2 * p.spectrum).sum())
    assert point.infinite_data_risk == pytest.approx(brute, rel=1e-9)


def test_averaged_contraction_matches_the_explicit_mean() -> None:
    mu = np.array([0.0, 1e-4, 0.1, 1.0])
    gamma, n = 0.5, 40
    explicit = np.mean([(1 - gamma * mu) ** t for t in range(n // 2 + 1, n + 1)], axis=0)
    assert np.allclose(_averaged_contraction(mu, gamma, n), explicit)


def test_risk_of_sgd_equals_a_monte_carlo_test_error_and_falls_with_data() -> None:
    p = _problem(2)
    run = sgd_risk([p], [8, 32], "full", 8, [np.random.default_rng(0)])
    assert np.all(np.diff(run.risk[0, 1]) < 0.05)  # no big rise along the pass
    assert run.risk[0, 1, -1] < run.risk[0, 1, 0]
    assert run.risk[0, 1, -1] < run.risk[0, 0, -1]  # bigger model, lower risk
    # the exact risk formula against a test error on fresh samples (label noise removed)
    rng = np.random.default_rng(5)
    v = rng.normal(size=8) * 0.1
    s = p.sketch_of(8)
    x = rng.normal(size=(200_000, 128)) * np.sqrt(p.spectrum)
    test_error = float(np.mean((x @ s.T @ v - x @ p.target) ** 2))
    residual = s.T @ v - p.target
    assert float(residual @ (p.spectrum * residual)) == pytest.approx(test_error, rel=0.02)


def test_theory_tracks_simulated_sgd_at_full_precision() -> None:
    p = _problem(3, samples=4000)
    run = sgd_risk([p], [16], "full", 8, [np.random.default_rng(0)])
    point = theory(p.sketch_of(16), p.spectrum, p.target, run.noise_variance[0], 0.1, float(run.step_sizes[0, 0]), run.record)
    assert point.risk_at[run.record[-1]] == pytest.approx(run.risk[0, 0, -1], rel=0.25)


def test_model_size_from_risk_inverts_a_power_law() -> None:
    sizes = [8, 16, 32, 64]
    full = 2.0 * np.asarray(sizes, float) ** -0.8
    assert model_size_from_risk(sizes, full, 2.0 * 20**-0.8) == pytest.approx(20.0, rel=1e-9)
    assert model_size_from_risk(sizes, full, 2.0 * 4**-0.8) == pytest.approx(4.0, rel=1e-9)  # extrapolated
    assert model_size_from_risk(sizes, np.ones(4), 0.5) is None
