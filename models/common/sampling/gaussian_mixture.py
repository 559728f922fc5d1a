"""Gaussian mixtures with closed-form log density, score, sampling, linear-Gaussian posterior and VP marginals."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

__all__ = ["GaussianMixture"]


@dataclass(frozen=True)
class GaussianMixture:
    """sum_k w_k N(m_k, C_k) on R^d: weights (K,), means (K, d), covariances (K, d, d).

    Everything is closed form, so the density and the score are exact references: the score is
    grad log p(x) = -sum_k r_k(x) C_k^{-1} (x - m_k) with responsibilities r_k(x) = w_k N_k(x) / p(x).
    """

    weights: torch.Tensor
    means: torch.Tensor
    covariances: torch.Tensor

    @classmethod
    def isotropic(cls, weights: torch.Tensor, means: torch.Tensor, std: float) -> GaussianMixture:
        """Components N(m_k, std^2 I) with the given weights (normalised here)."""
        d = means.shape[1]
        eye = torch.eye(d, dtype=means.dtype, device=means.device)
        covs = (std**2) * eye.expand(means.shape[0], d, d).clone()
        return cls(weights / weights.sum(), means, covs)

    @property
    def dim(self) -> int:
        return int(self.means.shape[1])

    def _component_terms(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """log(w_k N_k(x)) of shape (..., K) and C_k^{-1}(x - m_k) of shape (..., K, d)."""
        chol = torch.linalg.cholesky(self.covariances)  # (K, d, d)
        diff = x.unsqueeze(-2) - self.means  # (..., K, d)
        whitened = torch.linalg.solve_triangular(chol, diff.unsqueeze(-1), upper=False).squeeze(-1)
        precision_diff = torch.cholesky_solve(diff.unsqueeze(-1), chol).squeeze(-1)
        log_det = 2.0 * torch.log(torch.diagonal(chol, dim1=-2, dim2=-1)).sum(-1)  # (K,)
        log_normal = -0.5 * (whitened**2).sum(-1) - 0.5 * log_det - 0.5 * self.dim * math.log(2 * math.pi)
        return torch.log(self.weights) + log_normal, precision_diff

    def log_prob(self, x: torch.Tensor) -> torch.Tensor:
        """log p(x) for x of shape (..., d); returns shape (...)."""
        log_joint, _ = self._component_terms(x)
        return torch.logsumexp(log_joint, dim=-1)

    def score(self, x: torch.Tensor) -> torch.Tensor:
        """grad_x log p(x) in closed form, shape (..., d)."""
        log_joint, precision_diff = self._component_terms(x)
        responsibilities = torch.softmax(log_joint, dim=-1)
        return -(responsibilities.unsqueeze(-1) * precision_diff).sum(-2)

    def mean(self) -> torch.Tensor:
        return (self.weights.unsqueeze(-1) * self.means).sum(0)

    def covariance(self) -> torch.Tensor:
        """Total covariance: sum_k w_k (C_k + m_k m_k^T) - m m^T."""
        mean = self.mean()
        second = self.covariances + self.means.unsqueeze(-1) * self.means.unsqueeze(-2)
        return (self.weights[:, None, None] * second).sum(0) - torch.outer(mean, mean)

    def sample(self, n: int, generator: torch.Generator) -> torch.Tensor:
        """n exact draws (component by categorical draw, then m_k + L_k z)."""
        gen_device = generator.device
        probs = self.weights.detach().to(gen_device)
        components = torch.multinomial(probs, n, replacement=True, generator=generator).to(self.means.device)
        z = torch.randn((n, self.dim), generator=generator, device=gen_device, dtype=self.means.dtype)
        chol = torch.linalg.cholesky(self.covariances)[components]
        return self.means[components] + (chol @ z.to(self.means.device).unsqueeze(-1)).squeeze(-1)

    def affine(self, scale: float, noise_variance: float) -> GaussianMixture:
        """Law of scale X + sqrt(noise_variance) Z for X ~ this mixture, Z ~ N(0, I) independent."""
        eye = torch.eye(self.dim, dtype=self.means.dtype, device=self.means.device)
        return GaussianMixture(
            self.weights, scale * self.means, scale**2 * self.covariances + noise_variance * eye
        )

    def linear_gaussian_posterior(
        self, observation: torch.Tensor, operator: torch.Tensor, noise_covariance: torch.Tensor
    ) -> GaussianMixture:
        """Posterior of X given y = A X + e, e ~ N(0, R): again a mixture (Kalman update per component).

        Component k: gain G = C A^T (A C A^T + R)^{-1}, mean m + G (y - A m), covariance (I - G A) C,
        weight proportional to w_k N(y; A m_k, A C_k A^T + R).
        """
        a, r = operator, noise_covariance
        innovation_cov = a @ self.covariances @ a.T + r  # (K, p, p)
        gain = self.covariances @ a.T @ torch.linalg.inv(innovation_cov)  # (K, d, p)
        residual = observation - self.means @ a.T  # (K, p)
        means = self.means + (gain @ residual.unsqueeze(-1)).squeeze(-1)
        eye = torch.eye(self.dim, dtype=self.means.dtype, device=self.means.device)
        covs = (eye - gain @ a) @ self.covariances
        covs = 0.5 * (covs + covs.transpose(-1, -2))
        evidence = torch.distributions.MultivariateNormal(torch.zeros_like(residual), innovation_cov)
        log_w = torch.log(self.weights) + evidence.log_prob(residual)
        return GaussianMixture(torch.softmax(log_w, dim=0), means, covs)
