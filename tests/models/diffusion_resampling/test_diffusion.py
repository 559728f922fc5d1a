"""The diffusion resampler: exact ensemble score, consistency, differentiability, reproducibility."""

from __future__ import annotations

import math

import torch

from models.common.sampling import GaussianMixture
from models.diffusion_resampling.diffusion import diffusion_resample, ensemble_score, tweedie_denoise
from models.diffusion_resampling.moments import (
    draw_weighted_sets,
    moment_rmse,
    posterior_problem,
    weighted_set_derivative,
)
from models.diffusion_resampling.resamplers import ResamplerSettings
from tests.models.diffusion_resampling.conftest import weighted_set


def test_ensemble_score_is_the_score_of_the_noised_weighted_set() -> None:
    log_w, x = weighted_set(1, 6)
    log_w = log_w - torch.logsumexp(log_w, -1, keepdim=True)
    w = torch.exp(log_w)
    mean = (w.unsqueeze(-1) * x).sum(-2)
    var = (w.unsqueeze(-1) * (x - mean.unsqueeze(-2)) ** 2).sum(-2)
    t, a = 0.4, -1.0
    centres = mean + math.exp(a * t) * (x[0] - mean)
    sig2 = var[0] * (1 - math.exp(2 * a * t))
    mixture = GaussianMixture(w[0], centres, torch.diag_embed(sig2.expand(6, 2)).clone())
    y = torch.randn(1, 9, 2, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    assert torch.allclose(ensemble_score(y, log_w, x, mean, var, t, a)[0], mixture.score(y[0]), atol=1e-10)


def test_resampled_particles_match_the_weighted_moments_for_many_particles() -> None:
    log_w, x = weighted_set(2, 600, seed=1)
    _, y = diffusion_resample(log_w, x, torch.Generator().manual_seed(0), steps=32, horizon=4.0)
    w = torch.softmax(log_w, -1).unsqueeze(-1)
    target_mean = (w * x).sum(-2)
    target_var = (w * (x - target_mean.unsqueeze(-2)) ** 2).sum(-2)
    assert torch.allclose(y.mean(-2), target_mean, atol=0.05)
    assert torch.allclose(y.var(-2), target_var, rtol=0.15)


def test_more_ode_steps_transport_a_gaussian_reference_to_a_bimodal_target() -> None:
    # weights put two bumps at x_0 = -1, +1: the Gaussian reference has ~40% of its mass in |x_0| < 1/2,
    # the weighted set almost none; the flow must move it out, better with more steps
    gen = torch.Generator().manual_seed(2)
    x = torch.randn(4, 300, 2, generator=gen, dtype=torch.float64) * 1.5
    log_w = -((x[..., 0] ** 2 - 1.0) ** 2) / 0.1
    target = float((torch.softmax(log_w, -1) * (x[..., 0].abs() < 0.5)).sum(-1).mean())
    central = {}
    for steps in (2, 64):  # the plain ODE to t = 0 (no Tweedie step), whose transport needs the steps
        _, y = diffusion_resample(log_w, x, torch.Generator().manual_seed(0), steps=steps, t_min=0.0)
        central[steps] = float((y[..., 0].abs() < 0.5).double().mean())
    assert target < 0.01
    assert central[2] > 0.3
    assert central[64] < 0.1


def test_same_seed_same_particles() -> None:
    log_w, x = weighted_set(2, 50)
    a = diffusion_resample(log_w, x, torch.Generator().manual_seed(9), steps=5)[1]
    b = diffusion_resample(log_w, x, torch.Generator().manual_seed(9), steps=5)[1]
    c = diffusion_resample(log_w, x, torch.Generator().manual_seed(10), steps=5)[1]
    assert torch.equal(a, b) and not torch.equal(a, c)


def test_gradient_in_the_weights_matches_finite_differences_of_the_same_map() -> None:
    log_w, x = weighted_set(1, 20, seed=4)
    log_w = log_w.clone().requires_grad_(True)

    def resampled_mean(lw: torch.Tensor) -> torch.Tensor:
        return diffusion_resample(lw, x, torch.Generator().manual_seed(5), steps=6)[1].mean(-2)[0, 0]

    (grad,) = torch.autograd.grad(resampled_mean(log_w), log_w)
    h = 1e-6
    for j in (0, 7, 13):
        bump = torch.zeros_like(log_w)
        bump[0, j] = h
        fd = (resampled_mean(log_w.detach() + bump) - resampled_mean(log_w.detach() - bump)) / (2 * h)
        assert abs(float(grad[0, j]) - float(fd)) < 1e-5
    assert float(grad.abs().max()) > 1e-3  # the weights really move the output


def test_shifting_the_particles_shifts_the_output_exactly() -> None:
    log_w, x = weighted_set(1, 30, seed=6)
    base = diffusion_resample(log_w, x, torch.Generator().manual_seed(1), steps=8)[1]
    moved = diffusion_resample(log_w, x + torch.tensor([0.7, -0.2], dtype=x.dtype), torch.Generator().manual_seed(1), steps=8)[1]
    assert torch.allclose(moved - base, torch.tensor([0.7, -0.2], dtype=x.dtype).expand_as(base), atol=1e-10)


def test_observation_derivative_of_the_closed_form_matches_finite_differences() -> None:
    problem = posterior_problem("cpu")
    exact = problem.mean_derivative()
    h = 1e-3
    means = []
    for sign in (1.0, -1.0):
        y = problem.observation + sign * h
        means.append(float(problem.prior.linear_gaussian_posterior(y, problem.operator, problem.noise_cov).mean()[0]))
    assert abs(exact - (means[0] - means[1]) / (2 * h)) < 1e-3


def test_weighted_set_derivative_converges_to_the_exact_one() -> None:
    problem = posterior_problem("cpu")
    _, x = draw_weighted_sets(problem, 4000, 4, torch.Generator().manual_seed(0))
    assert abs(float(weighted_set_derivative(problem, x).mean()) - problem.mean_derivative()) < 0.05


def test_more_ode_steps_bring_the_moments_to_the_weighted_set() -> None:
    """The convergence check's premise: 32 Euler steps beat 4 on the moment error at N = 256."""
    problem = posterior_problem("cpu")
    _, x = draw_weighted_sets(problem, 256, 4, torch.Generator().manual_seed(2))
    errors = [moment_rmse(problem, x, "diffusion", ResamplerSettings(ode_steps=k), torch.Generator().manual_seed(3))
              for k in (4, 32)]
    assert errors[1] < errors[0]


def test_tweedie_step_is_the_posterior_mean_of_the_noised_set() -> None:
    """E[X_0 | X_t = y] by brute force: the mixture's component posteriors times the particles."""
    log_w, x = weighted_set(1, 7, seed=8)
    log_w = log_w - torch.logsumexp(log_w, -1, keepdim=True)
    w = torch.exp(log_w)
    mean = (w.unsqueeze(-1) * x).sum(-2)
    var = (w.unsqueeze(-1) * (x - mean.unsqueeze(-2)) ** 2).sum(-2)
    t = 0.3
    y = torch.randn(1, 5, 2, generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    centres = mean + math.exp(-t) * (x[0] - mean)
    sig2 = var[0] * (1 - math.exp(-2 * t))
    log_joint = log_w[0] + torch.stack([-0.5 * (((yi - centres) ** 2) / sig2).sum(-1) for yi in y[0]])
    brute = torch.softmax(log_joint, -1) @ x[0]
    assert torch.allclose(tweedie_denoise(y, log_w, x, mean, var, t)[0], brute, atol=1e-12)


def test_resampling_commutes_with_scaling_the_particles_even_at_tiny_scales() -> None:
    """The variance floor is relative to the particles' own spread, so resampling c x gives c times the
    output for any scale c (an absolute floor such as 1e-10 binds at c = 1e-6 and breaks this)."""
    log_w, x = weighted_set(2, 40, seed=5)
    base = diffusion_resample(log_w, x, torch.Generator().manual_seed(2), steps=8)[1]
    for scale in (1e-6, 1e3):
        scaled = diffusion_resample(log_w, scale * x, torch.Generator().manual_seed(2), steps=8)[1]
        assert torch.allclose(scaled / scale, base, rtol=1e-8, atol=1e-10)


def test_one_dominant_weight_gives_that_particle_and_a_finite_derivative() -> None:
    x = torch.tensor([[[0.0], [1.0], [2.0], [3.0]]], dtype=torch.float64)
    log_w = torch.tensor([[0.0, -90.0, -90.0, -90.0]], dtype=torch.float64, requires_grad=True)
    _, y = diffusion_resample(log_w, x, torch.Generator().manual_seed(0), steps=8)
    (g,) = torch.autograd.grad(y.sum(), log_w)
    assert torch.isfinite(g).all()
    assert float(y.detach().abs().max()) < 1e-6
