"""Particle filter on the linear-Gaussian model against the Kalman filter."""

from __future__ import annotations

import numpy as np
import pytest
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
    """With one noise seed, two resamplers' filters see the same draws: their gradients are correlated, far
    more than with independent noise (the broken pairing)."""
    ys = _data(10, seed=4)
    _, exact = kalman_log_likelihood(0.3, ys)
    settings = ResamplerSettings(ode_steps=8, sinkhorn_iterations=20, ot_epsilon=0.5)
    correlation = {}
    for shared in (True, False):
        grads = []
        for name, seed in (("soft", 1), ("ot", 2)):
            noise = torch.Generator().manual_seed(7 if shared else 100 + seed)
            stats = gradient_stats(0.3, ys, 32, 64, resampler(name, settings), torch.Generator().manual_seed(seed),
                                   exact, noise)
            grads.append(np.asarray(stats.gradients))
        correlation[shared] = np.corrcoef(grads[0], grads[1])[0, 1]
    assert correlation[True] > 0.3
    assert correlation[True] > correlation[False] + 0.25


@pytest.mark.slow
def test_diffusion_gradient_has_no_heavy_tail_over_the_reviewed_filters() -> None:
    """The review's case (seed 53: 26 observations, 32 particles, 128 filters, theta 0.3): with the ODE run to
    t ~ 0 diffusion's largest |dl/dtheta - Kalman| was 83 against <= 26 for every rival. Stopped at T_MIN with
    a Tweedie step it is at most TAIL_RATIO x the best rival's largest error over the same filters; the test
    also runs the unfixed ODE (t_min = 0) on the same filters and sees it fail that bound."""
    from models.diffusion_resampling.claims import TAIL_RATIO
    from models.diffusion_resampling.run import _generator

    _, ys = lgssm(TRUE_THETA, "cpu").simulate(25, _generator("cpu", 53, 3))
    _, kalman = kalman_log_likelihood(0.3, ys)
    largest = {}
    cases = [(name, ResamplerSettings(ot_epsilon=0.5, sinkhorn_iterations=30, ode_steps=32)) for name in
             ("multinomial", "systematic", "soft", "ot", "diffusion")]
    cases.append(("unfixed", ResamplerSettings(ode_steps=32, t_min=0.0)))
    for index, (name, settings) in enumerate(cases):
        which = "diffusion" if name == "unfixed" else name
        stats = gradient_stats(0.3, ys, 32, 128, resampler(which, settings),  # type: ignore[arg-type]
                               _generator("cpu", 53, 4, min(index, 4)), kalman, _generator("cpu", 53, 5))
        largest[name] = max(abs(g - kalman) for g in stats.gradients)
    best_rival = min(largest[n] for n in ("multinomial", "systematic", "soft", "ot"))
    assert largest["diffusion"] <= TAIL_RATIO * best_rival
    assert largest["unfixed"] > TAIL_RATIO * best_rival
