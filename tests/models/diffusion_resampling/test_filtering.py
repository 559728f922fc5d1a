"""Particle filter on the linear-Gaussian model against the Kalman filter."""

from __future__ import annotations

import numpy as np
import torch

from models.diffusion_resampling.filtering import (
    TRUE_THETA,
    gradient_stats,
    kalman_log_likelihood,
    kalman_mle,
    lgssm,
    paired_bootstrap,
    particle_log_likelihood,
)
from models.diffusion_resampling.resamplers import ResamplerSettings, resampler


def _data(steps: int = 20, seed: int = 0) -> torch.Tensor:
    return lgssm(TRUE_THETA, "cpu").simulate(steps, torch.Generator().manual_seed(seed))[1]


def test_particle_log_likelihood_approaches_kalman_with_many_particles() -> None:
    ys = _data()
    exact, _ = kalman_log_likelihood(0.5, ys)
    theta = torch.full((8,), 0.5, dtype=torch.float64)
    estimates = particle_log_likelihood(
        theta, ys, 2000, resampler("systematic", ResamplerSettings()), torch.Generator().manual_seed(1)
    )
    assert abs(float(estimates.mean()) - exact) < 0.1


def test_kalman_mle_maximises_the_kalman_log_likelihood() -> None:
    ys = _data(40)
    mle = kalman_mle(ys)
    best, grad = kalman_log_likelihood(mle, ys)
    assert abs(grad) < 1e-3
    for other in (mle - 0.05, mle + 0.05):
        assert kalman_log_likelihood(other, ys)[0] < best


def test_diffusion_filter_gradient_tracks_kalman_with_many_particles() -> None:
    ys = _data(10, seed=3)
    _, exact = kalman_log_likelihood(0.3, ys)
    settings = ResamplerSettings(ode_steps=8)
    stats = gradient_stats(0.3, ys, 64, 8, resampler("diffusion", settings), torch.Generator().manual_seed(2), exact)
    assert abs(stats.bias) < 0.25 * abs(exact) + 0.5
    assert len(stats.gradients) == 8


def test_paired_bootstrap_interval_excludes_zero_only_for_a_real_difference() -> None:
    rng = np.random.default_rng(0)
    shared = rng.normal(0.0, 2.0, 64)  # the filters' common noise
    better = shared * 0.8 + rng.normal(0.0, 0.1, 64)
    point, low, high = paired_bootstrap(better, shared, 2000, np.random.default_rng(1))
    assert low <= point <= high < 0
    same = shared + rng.normal(0.0, 0.01, 64)
    _, low, high = paired_bootstrap(same, shared, 2000, np.random.default_rng(1))
    assert low < 0 < high


def test_common_propagation_noise_pairs_the_filters() -> None:
    """With one noise seed, two resamplers' filters see the same draws: their gradients are correlated."""
    ys = _data(10, seed=4)
    _, exact = kalman_log_likelihood(0.3, ys)
    settings = ResamplerSettings(ode_steps=8, sinkhorn_iterations=20)
    grads = []
    for name, seed in (("soft", 1), ("ot", 2)):
        stats = gradient_stats(0.3, ys, 32, 32, resampler(name, settings), torch.Generator().manual_seed(seed), exact,
                               torch.Generator().manual_seed(7))
        grads.append(np.asarray(stats.gradients))
    assert np.corrcoef(grads[0], grads[1])[0, 1] > 0.5
