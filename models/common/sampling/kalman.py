"""The Kalman filter of a linear-Gaussian state-space model: exact filtering means and log-likelihood."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

__all__ = ["KalmanOutput", "LinearGaussianSSM", "kalman_filter"]


@dataclass(frozen=True)
class LinearGaussianSSM:
    """X_0 ~ N(m0, P0); X_k = F X_{k-1} + N(0, Q); Y_k = H X_k + N(0, R) for k = 0..K (tensors)."""

    transition: torch.Tensor
    transition_cov: torch.Tensor
    observation: torch.Tensor
    observation_cov: torch.Tensor
    initial_mean: torch.Tensor
    initial_cov: torch.Tensor

    def simulate(self, steps: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """States (steps + 1, dx) and observations (steps + 1, dy) drawn from the model."""
        like = self.initial_mean
        dx, dy = self.transition.shape[0], self.observation.shape[0]

        def normal(dim: int) -> torch.Tensor:
            z = torch.randn(dim, generator=generator, device=generator.device, dtype=like.dtype)
            return z.to(like.device)

        chol_q = torch.linalg.cholesky(self.transition_cov)
        chol_r = torch.linalg.cholesky(self.observation_cov)
        state = self.initial_mean + torch.linalg.cholesky(self.initial_cov) @ normal(dx)
        states, observations = [], []
        for k in range(steps + 1):
            if k > 0:
                state = self.transition @ state + chol_q @ normal(dx)
            states.append(state)
            observations.append(self.observation @ state + chol_r @ normal(dy))
        return torch.stack(states), torch.stack(observations)


@dataclass(frozen=True)
class KalmanOutput:
    """Filtering means (K+1, dx) and covariances (K+1, dx, dx), and log p(y_0:K)."""

    means: torch.Tensor
    covariances: torch.Tensor
    log_likelihood: torch.Tensor


def kalman_filter(model: LinearGaussianSSM, observations: torch.Tensor) -> KalmanOutput:
    """Predict-update recursion; log p(y_0:K) = sum_k log N(y_k; H m_k^-, H P_k^- H^T + R).

    Written with differentiable torch operations, so autograd through it gives the exact gradient
    of the log-likelihood in any model parameter (the reference for particle-filter gradients).
    """
    mean, cov = model.initial_mean, model.initial_cov
    h, r = model.observation, model.observation_cov
    dy = h.shape[0]
    log_likelihood = torch.zeros((), dtype=mean.dtype, device=mean.device)
    means, covs = [], []
    for k in range(observations.shape[0]):
        if k > 0:
            mean = model.transition @ mean
            cov = model.transition @ cov @ model.transition.T + model.transition_cov
        innovation = observations[k] - h @ mean
        innovation_cov = h @ cov @ h.T + r
        chol = torch.linalg.cholesky(innovation_cov)
        solved = torch.cholesky_solve(innovation.unsqueeze(-1), chol).squeeze(-1)
        log_det = 2.0 * torch.log(torch.diagonal(chol)).sum()
        log_likelihood = log_likelihood - 0.5 * (
            innovation @ solved + log_det + dy * math.log(2.0 * math.pi)
        )
        gain = cov @ h.T @ torch.cholesky_inverse(chol)
        mean = mean + gain @ innovation
        cov = cov - gain @ h @ cov
        cov = 0.5 * (cov + cov.T)
        means.append(mean)
        covs.append(cov)
    return KalmanOutput(torch.stack(means), torch.stack(covs), log_likelihood)
