"""Experiment 1: resample a weighted Gaussian-mixture posterior; moment error against N, and the
pathwise derivative of the resampled mean with respect to a shift of the particles.

Prior draws x_i ~ p (a 2-D Gaussian mixture), weights w_i proportional to N(y; A x_i, R): the weighted
set targets the posterior, itself a Gaussian mixture known in closed form, so the resampled mean
and covariance are compared with exact values. Shifting every particle by theta e_1 shifts the
target mean by theta e_1, so d(resampled mean)/d theta should be 1: differentiable resamplers give it
by reverse-mode autograd in the same pass; multinomial and systematic have no pathwise derivative
in the weights, so the only estimate is a finite difference between independent resamplings.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from models.common.sampling import GaussianMixture
from models.diffusion_resampling.resamplers import (
    DIFFERENTIABLE,
    Resampler,
    ResamplerName,
    ResamplerSettings,
    resampler,
)

__all__ = [
    "FD_STEP",
    "MomentCell",
    "PosteriorProblem",
    "draw_weighted_sets",
    "importance_errors",
    "posterior_problem",
    "run_moment_cell",
]

GRAPH_ELEMENTS = 1 << 24  # (n, n) entries kept by one autograd graph (~64 MB per float32 copy)
FD_STEP = 0.1  # theta step of the finite difference for non-differentiable resamplers
DTYPE = torch.float32


@dataclass(frozen=True)
class PosteriorProblem:
    prior: GaussianMixture
    operator: torch.Tensor
    noise_cov: torch.Tensor
    observation: torch.Tensor
    posterior: GaussianMixture

    def log_likelihood(self, x: torch.Tensor) -> torch.Tensor:
        residual = self.observation - x @ self.operator.T
        return -0.5 * (residual**2).sum(-1) / self.noise_cov[0, 0]


@dataclass(frozen=True)
class MomentCell:
    """One (resampler, N) cell over R repeats: errors of the mean and covariance, and the derivative."""

    mean_rmse: float
    cov_rmse: float
    rmse: float
    derivative: float
    derivative_std: float
    estimator: str


def posterior_problem(device: str) -> PosteriorProblem:
    """A three-component prior on R^2 and one linear observation y = x_1 + x_2 + noise (var 0.5)."""
    def tensor(values: object) -> torch.Tensor:
        return torch.tensor(values, dtype=DTYPE, device=device)

    prior = GaussianMixture(
        tensor([0.3, 0.4, 0.3]),
        tensor([[-2.0, 1.0], [1.5, 1.5], [0.5, -2.0]]),
        tensor([[[0.6, 0.2], [0.2, 0.4]], [[0.5, 0.0], [0.0, 0.5]], [[0.3, -0.1], [-0.1, 0.7]]]),
    )
    operator = tensor([[1.0, 1.0]])
    noise = tensor([[0.5]])
    observation = tensor([0.5])
    posterior = prior.linear_gaussian_posterior(observation, operator, noise)
    return PosteriorProblem(prior, operator, noise, observation, posterior)


def _weighted_moments(log_w: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    weights = torch.softmax(log_w, -1).unsqueeze(-1)
    mean = (weights * x).sum(-2)
    centred = x - mean.unsqueeze(-2)
    return mean, (weights * centred).transpose(-1, -2) @ centred


def draw_weighted_sets(
    problem: PosteriorProblem, n: int, repeats: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """R independent weighted sets: prior draws (R, n, 2) and their log-likelihood weights (R, n)."""
    x = problem.prior.sample(repeats * n, generator).reshape(repeats, n, 2)
    return problem.log_likelihood(x), x


def _errors(problem: PosteriorProblem, mean: torch.Tensor, cov: torch.Tensor) -> tuple[float, float, float]:
    mean_err = ((mean - problem.posterior.mean()) ** 2).sum(-1)
    cov_err = ((cov - problem.posterior.covariance()) ** 2).sum((-1, -2))
    return (
        float((mean_err + cov_err).mean().sqrt()),
        float(mean_err.mean().sqrt()),
        float(cov_err.mean().sqrt()),
    )


def importance_errors(problem: PosteriorProblem, log_w: torch.Tensor, x: torch.Tensor) -> tuple[float, float, float]:
    """(rmse, mean rmse, covariance rmse) of the weighted sets themselves, before any resampling."""
    return _errors(problem, *_weighted_moments(log_w, x))


def graph_length(name: ResamplerName, settings: ResamplerSettings) -> int:
    """How many (n, n) matrices per set the autograd graph of one resampling holds, roughly."""
    if name == "ot":
        return 2 * settings.sinkhorn_iterations
    if name == "diffusion":
        return 2 * settings.ode_steps
    return 1


def _pathwise_shift_derivative(
    log_w: torch.Tensor, x: torch.Tensor, shift: torch.Tensor, resample: Resampler,
    settings: ResamplerSettings, generator: torch.Generator, name: ResamplerName = "diffusion",
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Resampled means, covariances and d(mean_1)/d(theta) by reverse-mode autograd, per set.

    Each set gets its own theta, so one backward pass returns one derivative per set; the sets go
    through in chunks so the graph stays below GRAPH_ELEMENTS matrix entries.
    """
    repeats, n = x.shape[0], x.shape[1]
    chunk = max(1, GRAPH_ELEMENTS // (n * n * graph_length(name, settings)))
    means, covs, derivatives = [], [], []
    for start in range(0, repeats, chunk):
        part = slice(start, min(start + chunk, repeats))
        theta = torch.zeros(part.stop - part.start, dtype=x.dtype, device=x.device, requires_grad=True)
        new_log_w, new_x = resample(log_w[part], x[part] + theta[:, None, None] * shift[part], generator)
        mean, cov = _weighted_moments(new_log_w, new_x)
        (derivative,) = torch.autograd.grad(mean[:, 0].sum(), theta)
        means.append(mean.detach())
        covs.append(cov.detach())
        derivatives.append(derivative)
    return torch.cat(means), torch.cat(covs), torch.cat(derivatives)


def run_moment_cell(
    problem: PosteriorProblem, log_w: torch.Tensor, x: torch.Tensor, name: ResamplerName,
    settings: ResamplerSettings, generator: torch.Generator,
) -> MomentCell:
    """Resample each weighted set once; compare its moments with the exact posterior's."""
    repeats = x.shape[0]
    resample = resampler(name, settings)
    shift = torch.zeros_like(x)
    shift[..., 0] = 1.0
    if name in DIFFERENTIABLE:
        mean, cov, derivative = _pathwise_shift_derivative(log_w, x, shift, resample, settings, generator, name)
        estimator = "autograd (reverse mode)"
    else:
        new_log_w, new_x = resample(log_w, x, generator)
        mean, cov = _weighted_moments(new_log_w, new_x)
        plus = _weighted_moments(*resample(log_w, x + FD_STEP * shift, generator))[0][..., 0]
        minus = _weighted_moments(*resample(log_w, x - FD_STEP * shift, generator))[0][..., 0]
        derivative = (plus - minus) / (2 * FD_STEP)
        estimator = f"central finite difference, step {FD_STEP}, independent draws"
    rmse, mean_rmse, cov_rmse = _errors(problem, mean, cov)
    return MomentCell(
        mean_rmse=mean_rmse,
        cov_rmse=cov_rmse,
        rmse=rmse,
        derivative=float(derivative.mean()),
        derivative_std=float(derivative.std()) if repeats > 1 else 0.0,
        estimator=estimator,
    )
