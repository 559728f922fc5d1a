"""Experiments 2 and 3: a bootstrap particle filter on a linear-Gaussian model, differentiated in theta.

The model follows the paper's LGSSM (and the reference code's): X_0 ~ N(0, 1),
X_k = theta X_{k-1} + N(0, 1), Y_k = X_k + N(0, 1/2), true theta = 0.5. The Kalman filter gives the
exact log-likelihood l(theta) and, by autograd, its exact derivative. The particle filter's
log-likelihood estimate sum_k log sum_i w_i g(y_k | x_i) is differentiated by reverse-mode autograd
through the proposals, weights and the resampler: multinomial and systematic cut the gradient
through the ancestor indices (the classic biased estimator), soft resampling keeps part of it,
entropic OT and diffusion resampling are differentiable transports.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from scipy.optimize import minimize_scalar

from models.common.sampling import LinearGaussianSSM, kalman_filter, normalize_log_weights
from models.common.sampling.integrators import standard_normal
from models.diffusion_resampling.resamplers import Resampler

__all__ = [
    "OBSERVATION_VAR",
    "TRUE_THETA",
    "GradientStats",
    "paired_bootstrap",
    "kalman_log_likelihood",
    "kalman_mle",
    "lgssm",
    "particle_log_likelihood",
]

TRUE_THETA = 0.5
OBSERVATION_VAR = 0.5
DTYPE = torch.float64  # the Kalman reference
FILTER_DTYPE = torch.float32  # particle filters (2x faster; round-off far below the filters' spread)


def lgssm(theta: torch.Tensor | float, device: str) -> LinearGaussianSSM:
    """The scalar model with transition theta (a tensor keeps the autograd graph)."""
    transition = torch.as_tensor(theta, dtype=DTYPE, device=device).reshape(1, 1)
    one = torch.ones(1, 1, dtype=DTYPE, device=device)
    zero = torch.zeros(1, dtype=DTYPE, device=device)
    return LinearGaussianSSM(transition, one, one.clone(), OBSERVATION_VAR * one, zero, one.clone())


def kalman_log_likelihood(theta: float, observations: torch.Tensor) -> tuple[float, float]:
    """Exact log p(y_0:K | theta) and its derivative in theta (autograd through the Kalman filter)."""
    value = torch.tensor(theta, dtype=DTYPE, device=observations.device, requires_grad=True)
    log_likelihood = kalman_filter(lgssm(value, str(observations.device)), observations).log_likelihood
    (grad,) = torch.autograd.grad(log_likelihood, value)
    return float(log_likelihood.detach()), float(grad)


def kalman_mle(observations: torch.Tensor) -> float:
    """The maximum-likelihood theta in (-0.99, 0.99), by bounded scalar minimisation of -l(theta)."""
    def negative(theta: float) -> float:
        model = lgssm(theta, str(observations.device))
        return -float(kalman_filter(model, observations).log_likelihood)

    return float(minimize_scalar(negative, bounds=(-0.99, 0.99), method="bounded", options={"xatol": 1e-6}).x)


def particle_log_likelihood(
    theta: torch.Tensor, observations: torch.Tensor, particles: int, resample: Resampler,
    generator: torch.Generator, noise: torch.Generator | None = None,
) -> torch.Tensor:
    """Bootstrap-filter estimates of log p(y_0:K | theta_b), one per entry of theta (shape (B,)).

    Resampling at every step (the paper's threshold 1): x_k = theta x_{k-1} + eps, log weights
    updated by log N(y_k; x_k, 1/2), and the log-likelihood increment is logsumexp of the
    normalised previous log weights plus the new log potentials. The initial draws and the
    propagation noise come from `noise` (default: `generator`), the resampler's randomness from
    `generator`: with one `noise` seed for every resampler, filter b of each resampler sees the same
    noise (common random numbers), so the resamplers' errors are compared filter by filter.
    """
    batch = theta.shape[0]
    noise = noise or generator
    observations = observations.to(theta.dtype)

    def log_potential(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return -0.5 * ((y - x[..., 0]) ** 2 / OBSERVATION_VAR + math.log(2 * math.pi * OBSERVATION_VAR))

    x = standard_normal((batch, particles, 1), noise, theta)
    log_w = torch.full((batch, particles), -math.log(particles), dtype=theta.dtype, device=theta.device)
    log_likelihood = torch.zeros(batch, dtype=theta.dtype, device=theta.device)
    for k in range(observations.shape[0]):
        if k > 0:
            log_w, x = resample(log_w, x, generator)
            x = theta[:, None, None] * x + standard_normal(x.shape, noise, x)
        unnormalized = log_w + log_potential(x, observations[k, 0])
        log_likelihood = log_likelihood + torch.logsumexp(unnormalized, dim=-1)
        log_w = normalize_log_weights(unnormalized)
    return log_likelihood


@dataclass(frozen=True)
class GradientStats:
    """Particle-filter estimates of dl/dtheta over R independent filters, against the Kalman value."""

    bias: float
    std: float
    rmse: float
    mean_log_likelihood: float
    gradients: list[float]


FILTER_CHUNK = 32  # filters per autograd graph: bounds the memory of diffusion's 800 Euler steps


def gradient_stats(
    theta: float, observations: torch.Tensor, particles: int, repeats: int, resample: Resampler,
    generator: torch.Generator, kalman_gradient: float, noise: torch.Generator | None = None,
) -> GradientStats:
    """R filters, in chunks of FILTER_CHUNK, each with its own copy of theta, so autograd returns R gradients.

    The chunks draw from the generators in the same order for every resampler, so with a shared `noise`
    generator filter b sees the same propagation noise whichever resampler it uses.
    """
    grads, values = [], []
    for start in range(0, repeats, FILTER_CHUNK):
        count = min(FILTER_CHUNK, repeats - start)
        leaf = torch.full((count,), theta, dtype=FILTER_DTYPE, device=observations.device, requires_grad=True)
        log_likelihood = particle_log_likelihood(leaf, observations, particles, resample, generator, noise)
        grads.append(torch.autograd.grad(log_likelihood.sum(), leaf)[0])
        values.append(log_likelihood.detach())
    g, ll = torch.cat(grads), torch.cat(values)
    errors = g - kalman_gradient
    return GradientStats(
        bias=float(errors.mean()),
        std=float(g.std()) if repeats > 1 else 0.0,
        rmse=float(errors.pow(2).mean().sqrt()),
        mean_log_likelihood=float(ll.mean()),
        gradients=[float(v) for v in g],
    )


def gradient_ascent(
    start: float, observations: torch.Tensor, particles: int, repeats: int, resample: Resampler,
    seed: int, iterations: int, learning_rate: float, on_iteration: Callable[[int], None],
) -> list[list[float]]:
    """Adam ascent on the filter's log-likelihood, R filters at once; theta path per iteration.

    Each iteration re-seeds the filter's generator (common random numbers), so every filter
    optimises one fixed, smooth-where-possible function of theta, as in the reference experiments.
    """
    device = observations.device
    theta = torch.full((repeats,), start, dtype=FILTER_DTYPE, device=device)
    first, second = torch.zeros_like(theta), torch.zeros_like(theta)
    beta1, beta2 = 0.9, 0.999
    path = [theta.tolist()]
    for iteration in range(iterations):
        generator = torch.Generator(device=device).manual_seed(seed)
        leaf = theta.clone().requires_grad_(True)
        log_likelihood = particle_log_likelihood(leaf, observations, particles, resample, generator)
        (ascent,) = torch.autograd.grad(log_likelihood.sum(), leaf)
        # Adam (Kingma & Ba 2015), written out: torch.optim's first use imports torch._dynamo (seconds)
        first = beta1 * first + (1 - beta1) * ascent
        second = beta2 * second + (1 - beta2) * ascent**2
        step = iteration + 1
        update = (first / (1 - beta1**step)) / (torch.sqrt(second / (1 - beta2**step)) + 1e-8)
        theta = torch.clamp(theta + learning_rate * update, -0.99, 0.99)
        path.append(theta.tolist())
        on_iteration(iteration)
    return path


def paired_bootstrap(
    errors: np.ndarray, other: np.ndarray, draws: int, rng: np.random.Generator, level: float = 0.95,
) -> tuple[float, float, float]:
    """RMSE(errors) - RMSE(other) and its paired bootstrap interval over the filters.

    errors[b] and other[b] are two resamplers' gradient errors on filter b (the same observations and
    propagation noise); each bootstrap draw resamples the filters, with the pairs kept together.
    """
    rows = rng.integers(0, errors.shape[0], size=(draws, errors.shape[0]))
    diff = np.sqrt((errors[rows] ** 2).mean(1)) - np.sqrt((other[rows] ** 2).mean(1))
    low, high = np.quantile(diff, [(1 - level) / 2, (1 + level) / 2])
    point = float(np.sqrt((errors**2).mean()) - np.sqrt((other**2).mean()))
    return point, float(low), float(high)
