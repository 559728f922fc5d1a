"""The variance-preserving (VP) forward process in closed form and Tweedie's posterior-mean formula."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from models.common.sampling.gaussian_mixture import GaussianMixture

__all__ = ["VPSchedule", "tweedie_mean"]


@dataclass(frozen=True)
class VPSchedule:
    """dX = -beta(t)/2 X dt + sqrt(beta(t)) dW on t in [0, 1], beta(t) = beta_min + t (beta_max - beta_min).

    X_t | X_0 ~ N(sqrt(abar(t)) X_0, (1 - abar(t)) I) with abar(t) = exp(-int_0^t beta), so a Gaussian
    mixture stays a Gaussian mixture: means scaled by sqrt(abar), covariances abar C + (1 - abar) I
    (Song et al. 2021, "Score-based generative modeling through SDEs").
    """

    beta_min: float = 0.1
    beta_max: float = 20.0

    def beta(self, t: float) -> float:
        return self.beta_min + t * (self.beta_max - self.beta_min)

    def alpha_bar(self, t: float) -> float:
        integral = self.beta_min * t + 0.5 * (self.beta_max - self.beta_min) * t * t
        return math.exp(-integral)

    def marginal(self, prior: GaussianMixture, t: float) -> GaussianMixture:
        """The law of X_t when X_0 ~ prior: closed form, no simulation."""
        abar = self.alpha_bar(t)
        return prior.affine(math.sqrt(abar), 1.0 - abar)

    def reverse_drift(self, x: torch.Tensor, score: torch.Tensor, t: float) -> torch.Tensor:
        """Drift of the reverse-time SDE, f - g^2 score = -beta/2 x - beta score (integrate with dt < 0)."""
        b = self.beta(t)
        return -0.5 * b * x - b * score


def tweedie_mean(x_t: torch.Tensor, score: torch.Tensor, alpha_bar: float) -> torch.Tensor:
    """E[X_0 | X_t = x_t] = (x_t + (1 - abar) score_t(x_t)) / sqrt(abar) (Tweedie's formula)."""
    return (x_t + (1.0 - alpha_bar) * score) / math.sqrt(alpha_bar)
