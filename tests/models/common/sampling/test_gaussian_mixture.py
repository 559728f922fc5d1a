"""Gaussian mixtures: score = gradient of the log density, VP marginals in closed form, exact posterior."""

from __future__ import annotations

import math

import torch

from models.common.sampling import GaussianMixture, VPSchedule, tweedie_mean


def _mixture() -> GaussianMixture:
    gen = torch.Generator().manual_seed(3)
    means = torch.randn(3, 2, generator=gen, dtype=torch.float64) * 2
    factors = torch.randn(3, 2, 2, generator=gen, dtype=torch.float64)
    covs = factors @ factors.transpose(-1, -2) + 0.3 * torch.eye(2, dtype=torch.float64)
    return GaussianMixture(torch.tensor([0.2, 0.5, 0.3], dtype=torch.float64), means, covs)


def test_score_matches_finite_differences_of_the_log_density() -> None:
    gmm = _mixture()
    x = torch.randn(20, 2, generator=torch.Generator().manual_seed(1), dtype=torch.float64) * 2
    step = 1e-5
    fd = torch.stack(
        [
            (gmm.log_prob(x + step * e) - gmm.log_prob(x - step * e)) / (2 * step)
            for e in torch.eye(2, dtype=torch.float64)
        ],
        dim=-1,
    )
    assert torch.allclose(gmm.score(x), fd, atol=1e-6)


def test_log_density_integrates_to_one_on_a_grid() -> None:
    gmm = _mixture()
    axis = torch.linspace(-14, 14, 561, dtype=torch.float64)
    grid = torch.stack(torch.meshgrid(axis, axis, indexing="ij"), dim=-1)
    mass = torch.exp(gmm.log_prob(grid)).sum() * (axis[1] - axis[0]) ** 2
    assert abs(float(mass) - 1.0) < 1e-4


def test_samples_have_the_mixture_moments() -> None:
    gmm = _mixture()
    draws = gmm.sample(200_000, torch.Generator().manual_seed(0))
    assert torch.allclose(draws.mean(0), gmm.mean(), atol=0.03)
    assert torch.allclose(torch.cov(draws.T), gmm.covariance(), atol=0.08)


def test_vp_marginal_matches_simulated_forward_process() -> None:
    gmm, schedule, t = _mixture(), VPSchedule(), 0.3
    gen = torch.Generator().manual_seed(5)
    x0 = gmm.sample(200_000, gen)
    abar = schedule.alpha_bar(t)
    xt = math.sqrt(abar) * x0 + math.sqrt(1 - abar) * torch.randn(x0.shape, generator=gen, dtype=x0.dtype)
    marginal = schedule.marginal(gmm, t)
    assert torch.allclose(xt.mean(0), marginal.mean(), atol=0.02)
    assert torch.allclose(torch.cov(xt.T), marginal.covariance(), atol=0.05)
    # alpha_bar solves d abar / dt = -beta abar
    h = 1e-6
    derivative = (schedule.alpha_bar(t + h) - schedule.alpha_bar(t - h)) / (2 * h)
    assert abs(derivative + schedule.beta(t) * abar) < 1e-6


def test_tweedie_is_the_exact_posterior_mean_for_a_gaussian() -> None:
    # X0 ~ N(m, s^2): E[X0 | Xt] = m + s^2 sqrt(abar) (xt - sqrt(abar) m) / (abar s^2 + 1 - abar)
    m, s, abar = 1.5, 0.7, 0.4
    prior = GaussianMixture(
        torch.ones(1, dtype=torch.float64), torch.tensor([[m]], dtype=torch.float64),
        torch.tensor([[[s * s]]], dtype=torch.float64),
    )
    xt = torch.linspace(-3, 3, 7, dtype=torch.float64).unsqueeze(-1)
    marginal = prior.affine(math.sqrt(abar), 1 - abar)
    exact = m + s * s * math.sqrt(abar) * (xt - math.sqrt(abar) * m) / (abar * s * s + 1 - abar)
    assert torch.allclose(tweedie_mean(xt, marginal.score(xt), abar), exact, atol=1e-12)


def test_linear_gaussian_posterior_matches_brute_force_reweighting() -> None:
    gmm = _mixture()
    operator = torch.tensor([[1.0, -0.5]], dtype=torch.float64)
    noise = torch.tensor([[0.4]], dtype=torch.float64)
    y = torch.tensor([0.8], dtype=torch.float64)
    posterior = gmm.linear_gaussian_posterior(y, operator, noise)
    axis = torch.linspace(-14, 14, 561, dtype=torch.float64)
    grid = torch.stack(torch.meshgrid(axis, axis, indexing="ij"), dim=-1).reshape(-1, 2)
    log_lik = -0.5 * ((y - grid @ operator.T) ** 2).sum(-1) / noise[0, 0]
    weights = torch.softmax(gmm.log_prob(grid) + log_lik, dim=0)
    mean = weights @ grid
    assert torch.allclose(posterior.mean(), mean, atol=1e-6)
    centred = grid - mean
    assert torch.allclose(posterior.covariance(), (weights[:, None] * centred).T @ centred, atol=1e-5)
