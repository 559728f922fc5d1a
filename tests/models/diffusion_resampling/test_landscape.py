"""The paper's LGSSM metrics: the Kalman grid, the CRN grid filter, the metrics, Gumbel-softmax, tuning."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.common.sampling import kalman_filter
from models.diffusion_resampling.benchmark import _edges, _tune_one, benchmark_data
from models.diffusion_resampling.filtering import lgssm
from models.diffusion_resampling.landscape import (
    _kl,
    crn_filter,
    grid_maximiser,
    kalman_grid,
    landscape_metrics,
)
from models.diffusion_resampling.resamplers import (
    Draws,
    ResamplerSettings,
    gumbel_softmax_resample,
    resampler,
)


def _observations(count: int, length: int) -> np.ndarray:
    return benchmark_data(count, length, 5, 123).observations


def test_kalman_grid_matches_the_shared_kalman_filter() -> None:
    ys = _observations(2, 12)
    thetas = np.array([0.3, 0.55])
    log_likelihood, means, variances = kalman_grid(thetas, ys)
    for g, theta in enumerate(thetas):
        for d in range(2):
            out = kalman_filter(lgssm(float(theta), "cpu"), torch.as_tensor(ys[d])[:, None])
            assert abs(float(out.log_likelihood) - log_likelihood[g, d]) < 1e-9
            assert np.allclose(out.means[:, 0].numpy(), means[g, d], atol=1e-9)
            assert np.allclose(out.covariances[:, 0, 0].numpy(), variances[g, d], atol=1e-9)


def test_grid_filter_uses_common_random_numbers_across_theta() -> None:
    """Two equal thetas in the grid give identical filters; a lone run at one theta gives the grid's row."""
    ys = _observations(3, 10)
    for name in ("multinomial", "soft", "gumbel", "diffusion"):
        run = resampler(name, ResamplerSettings(ode_steps=4))  # type: ignore[arg-type]
        paths = crn_filter(np.array([0.45, 0.5, 0.5]), ys, 16, run, seed=7)
        assert np.array_equal(paths.log_likelihood[1], paths.log_likelihood[2]), name
        alone = crn_filter(np.array([0.45]), ys, 16, run, seed=7)
        assert np.allclose(alone.log_likelihood[0], paths.log_likelihood[0], atol=1e-5), name


def test_many_particles_give_the_kalman_landscape_and_filtering_law() -> None:
    ys = _observations(2, 10)
    thetas = np.array([0.4, 0.5, 0.6])
    kalman = kalman_grid(thetas, ys)
    paths = crn_filter(thetas, ys, 4000, resampler("systematic", ResamplerSettings()), seed=1)
    metrics = landscape_metrics(thetas, ys, paths, kalman)
    assert metrics.landscape.max() < 0.1
    assert metrics.filtering_kl.max() < 0.01


def test_kl_is_zero_for_equal_gaussians_and_matches_the_closed_form() -> None:
    assert _kl(np.array(0.3), np.array(2.0), np.array(0.3), np.array(2.0)) == pytest.approx(0.0, abs=1e-15)
    # KL(N(0,1) || N(1,2)) = 0.5 (1/2 - 1 + 1/2 + log 2)
    assert _kl(np.array(0.0), np.array(1.0), np.array(1.0), np.array(2.0)) == pytest.approx(0.5 * np.log(2.0))


def test_grid_maximiser_finds_the_vertex_of_a_parabola_between_grid_points() -> None:
    thetas = np.linspace(0.4, 0.6, 9)
    values = -((thetas[:, None] - np.array([0.4731, 0.58, 0.35])) ** 2)
    assert np.allclose(grid_maximiser(thetas, values), [0.4731, 0.58, 0.4], atol=1e-12)


def test_draws_share_their_numbers_across_the_leading_axis_only() -> None:
    draws = Draws(torch.Generator().manual_seed(0), shared=1)
    z = draws.normal((3, 2, 5), torch.zeros((), dtype=torch.float64))
    assert torch.equal(z[0], z[2]) and not torch.equal(z[0, 0], z[0, 1])


def test_gumbel_softmax_at_small_tau_draws_ancestors_with_the_weights() -> None:
    """Gumbel-max: as tau -> 0 each output is one particle, particle j with probability w_j."""
    gen = torch.Generator().manual_seed(3)
    w = torch.tensor([0.4, 0.3, 0.1, 0.1, 0.05, 0.05], dtype=torch.float64)
    x = torch.arange(6, dtype=torch.float64).reshape(1, 6, 1).expand(2000, 6, 1)
    _, cold = gumbel_softmax_resample(torch.log(w).expand(2000, 6), x, 1e-3, gen)
    index = cold.round()
    assert float(((cold - index).abs() < 1e-6).double().mean()) > 0.97  # near-ties of two Gumbel maxima mix
    frequency = torch.stack([(index == j).double().mean() for j in range(6)])
    assert torch.allclose(frequency, w, atol=0.015)
    _, warm = gumbel_softmax_resample(torch.log(w).expand(2000, 6), x, 1.0, gen)
    assert float(((warm - warm.round()).abs() < 1e-6).double().mean()) < 0.5  # a real relaxation at tau = 1


def test_tuning_extends_a_grid_whose_best_lies_on_its_edge() -> None:
    assert _edges("ot", [(0.4,), (0.8,), (1.6,)], (0.4,)) == [(0.2,)]
    assert _edges("ot", [(0.4,), (0.8,), (1.6,)], (0.8,)) == []
    assert _edges("soft", [(0.5,), (0.7,), (0.9,)], (0.9,)) == [(0.95,)]  # halfway to alpha = 1 (multinomial)
    assert _edges("soft", [(0.1,), (0.5,)], (0.1,)) == []  # alpha >= 0 ends the domain
    data = benchmark_data(2, 8, 3, 5)
    tuning = _tune_one("ot", ResamplerSettings(sinkhorn_iterations=10), data, 8)
    points = [c.point[0] for c in tuning.cells]
    best = tuning.best[0]
    assert best == min(tuning.cells, key=lambda c: c.landscape).point[0]
    assert tuning.at_edge == (best in (min(points), max(points)))
    if best == 0.4 or best == 1.6:  # the reference grid's ends: the grid must have been extended past them
        assert tuning.extended and len(points) > 3
