"""Experiment 1: resample a weighted Gaussian-mixture posterior; moment error against N, and the
derivative of the resampled mean with respect to the observation, which moves the weights.

Prior draws x_i ~ p (a 2-D Gaussian mixture), weights w_i proportional to N(y; A x_i, R): the weighted
set targets the posterior, itself a Gaussian mixture known in closed form, so the resampled mean and
covariance are compared with exact values, and d(posterior mean_1)/dy is exact by autograd through the
closed form. Moving y changes only the weights (the particles stay), so this derivative tests whether
gradients flow through the weights: differentiable resamplers give it by reverse-mode autograd;
multinomial and systematic resampling have no pathwise derivative in the weights, so theirs is a central
finite difference with common random numbers (the same ancestor draws at y + h and y - h).
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
    "moment_rmse",
    "weighted_set_derivative",
    "PosteriorProblem",
    "draw_weighted_sets",
    "importance_errors",
    "posterior_problem",
    "run_moment_cell",
]

GRAPH_ELEMENTS = 1 << 24  # (n, n) entries kept by one autograd graph (~64 MB per float32 copy)
FD_STEP = 0.05  # observation step of the finite difference for non-differentiable resamplers
DTYPE = torch.float32


@dataclass(frozen=True)
class PosteriorProblem:
    prior: GaussianMixture
    operator: torch.Tensor
    noise_cov: torch.Tensor
    observation: torch.Tensor
    posterior: GaussianMixture

    def log_likelihood(self, x: torch.Tensor, shift: torch.Tensor | float = 0.0) -> torch.Tensor:
        """log N(y + shift; A x, R) up to a constant; `shift` (R, 1, 1) moves the observation per set."""
        residual = self.observation + shift - x @ self.operator.T
        return -0.5 * (residual**2).sum(-1) / self.noise_cov[0, 0]

    def mean_derivative(self) -> float:
        """d(posterior mean_1)/dy, exact: autograd through the closed-form mixture posterior."""
        y = self.observation.detach().clone().requires_grad_(True)
        mean = self.prior.linear_gaussian_posterior(y, self.operator, self.noise_cov).mean()
        (grad,) = torch.autograd.grad(mean[0], y)
        return float(grad.sum())


@dataclass(frozen=True)
class MomentCell:
    """One (resampler, N) cell over R repeats: errors of the mean and covariance, and the derivative."""

    mean_rmse: float
    cov_rmse: float
    rmse: float
    derivative: float
    derivative_rmse: float
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


def _pathwise_derivative(
    problem: PosteriorProblem, x: torch.Tensor, resample: Resampler, settings: ResamplerSettings,
    generator: torch.Generator, name: ResamplerName = "diffusion",
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Resampled means, covariances and d(mean_1)/dy by reverse-mode autograd, per set.

    Each set gets its own observation shift theta, so one backward pass returns one derivative per set;
    the sets go through in chunks so the graph stays below GRAPH_ELEMENTS matrix entries.
    """
    repeats, n = x.shape[0], x.shape[1]
    chunk = max(1, GRAPH_ELEMENTS // (n * n * graph_length(name, settings)))
    means, covs, derivatives = [], [], []
    for start in range(0, repeats, chunk):
        part = slice(start, min(start + chunk, repeats))
        theta = torch.zeros(part.stop - part.start, 1, 1, dtype=x.dtype, device=x.device, requires_grad=True)
        log_w = problem.log_likelihood(x[part], theta)
        new_log_w, new_x = resample(log_w, x[part], generator)
        mean, cov = _weighted_moments(new_log_w, new_x)
        (derivative,) = torch.autograd.grad(mean[:, 0].sum(), theta)
        means.append(mean.detach())
        covs.append(cov.detach())
        derivatives.append(derivative[:, 0, 0])
    return torch.cat(means), torch.cat(covs), torch.cat(derivatives)


def _copy(generator: torch.Generator) -> torch.Generator:
    twin = torch.Generator(device=generator.device)
    twin.set_state(generator.get_state())
    return twin


def _finite_difference(
    problem: PosteriorProblem, x: torch.Tensor, resample: Resampler, generator: torch.Generator,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Moments at y and a central difference in y with common random numbers (the same draws at y +- h)."""
    state = _copy(generator)
    new_log_w, new_x = resample(problem.log_likelihood(x), x, generator)
    mean, cov = _weighted_moments(new_log_w, new_x)
    plus = _weighted_moments(*resample(problem.log_likelihood(x, FD_STEP), x, _copy(state)))[0][..., 0]
    minus = _weighted_moments(*resample(problem.log_likelihood(x, -FD_STEP), x, _copy(state)))[0][..., 0]
    return mean, cov, (plus - minus) / (2 * FD_STEP)


def weighted_set_derivative(problem: PosteriorProblem, x: torch.Tensor) -> torch.Tensor:
    """d(weighted mean_1)/dy of the weighted sets themselves (self-normalised importance sampling)."""
    theta = torch.zeros(x.shape[0], 1, 1, dtype=x.dtype, device=x.device, requires_grad=True)
    mean, _ = _weighted_moments(problem.log_likelihood(x, theta), x)
    (derivative,) = torch.autograd.grad(mean[:, 0].sum(), theta)
    return derivative[:, 0, 0]


def run_moment_cell(
    problem: PosteriorProblem, x: torch.Tensor, name: ResamplerName,
    settings: ResamplerSettings, generator: torch.Generator,
) -> MomentCell:
    """Resample each weighted set once; compare its moments and d(mean_1)/dy with the exact posterior's."""
    resample = resampler(name, settings)
    if name in DIFFERENTIABLE:
        mean, cov, derivative = _pathwise_derivative(problem, x, resample, settings, generator, name)
        estimator = "autograd (reverse mode)"
    else:
        mean, cov, derivative = _finite_difference(problem, x, resample, generator)
        estimator = f"central finite difference, step {FD_STEP}, common random numbers"
    rmse, mean_rmse, cov_rmse = _errors(problem, mean, cov)
    exact = problem.mean_derivative()
    return MomentCell(
        mean_rmse=mean_rmse,
        cov_rmse=cov_rmse,
        rmse=rmse,
        derivative=float(derivative.mean()),
        derivative_rmse=float((derivative - exact).pow(2).mean().sqrt()),
        estimator=estimator,
    )


def moment_rmse(problem: PosteriorProblem, x: torch.Tensor, name: ResamplerName, settings: ResamplerSettings,
                generator: torch.Generator) -> float:
    """Moment RMSE of one resampler without derivatives (the ODE convergence check)."""
    with torch.no_grad():
        new_log_w, new_x = resampler(name, settings)(problem.log_likelihood(x), x, generator)
    return _errors(problem, *_weighted_moments(new_log_w, new_x))[0]
