"""The paper's linear-Gaussian benchmark metrics, as the reference scripts define them (experiments/lgssm/*.py).

For each simulated data set the bootstrap filter (resampling at every step) runs at every theta of a grid
around the truth with the same random numbers (common random numbers: one key for the whole grid), and
is compared with the Kalman filter:
(i) landscape error: RMS over the grid of log-likelihood(filter) - log-likelihood(Kalman);
(ii) filtering divergence: the mean over time of KL(Kalman filtering Gaussian || the filter's weighted
    Gaussian) at the true theta;
(iii) estimation error: |theta_hat - theta_true|, theta_hat the maximiser of the filter's (CRN-fixed)
    log-likelihood over the grid, refined by a parabola through the best point and its neighbours.
The reference grids both theta_1 and theta_2 (128 x 128 points) and estimates by L-BFGS; here only the
transition theta is unknown (theta_2 = 1 fixed) and the maximiser is read on the grid (scaled down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from models.common.sampling import normalize_log_weights
from models.diffusion_resampling.filtering import OBSERVATION_VAR, TRUE_THETA
from models.diffusion_resampling.resamplers import Draws, Resampler

__all__ = ["GRID_HALF_WIDTH", "LandscapeRun", "crn_filter", "kalman_grid", "landscape_metrics", "theta_grid"]

GRID_HALF_WIDTH = 0.1  # the reference's grid: theta_true +- 0.1


def theta_grid(points: int) -> np.ndarray:
    """`points` (odd) equally spaced thetas on [0.4, 0.6]; the middle one is the true theta."""
    return np.linspace(TRUE_THETA - GRID_HALF_WIDTH, TRUE_THETA + GRID_HALF_WIDTH, points)


def kalman_grid(thetas: np.ndarray, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scalar Kalman filter for every (theta, data set): log-likelihoods (G, D), filtering means and variances (G, D, K).

    X_0 ~ N(0, 1), X_k = theta X_{k-1} + N(0, 1), Y_k = X_k + N(0, 1/2) (Y_0 observes X_0).
    """
    theta = thetas[:, None]
    g, (d, k_total) = thetas.shape[0], observations.shape
    mean, var = np.zeros((g, d)), np.ones((g, d))
    log_likelihood = np.zeros((g, d))
    means, variances = np.zeros((g, d, k_total)), np.zeros((g, d, k_total))
    for k in range(k_total):
        if k > 0:
            mean, var = theta * mean, theta**2 * var + 1.0
        innovation_var = var + OBSERVATION_VAR
        residual = observations[None, :, k] - mean
        log_likelihood += -0.5 * (np.log(2 * math.pi * innovation_var) + residual**2 / innovation_var)
        gain = var / innovation_var
        mean, var = mean + gain * residual, (1.0 - gain) * var
        means[:, :, k], variances[:, :, k] = mean, var
    return log_likelihood, means, variances


@dataclass(frozen=True)
class FilterPaths:
    """The bootstrap filter at every (theta, data set): log-likelihoods (G, D), weighted means/variances (G, D, K)."""

    log_likelihood: np.ndarray
    means: np.ndarray
    variances: np.ndarray


def crn_filter(thetas: np.ndarray, observations: np.ndarray, particles: int, resample: Resampler,
               seed: int) -> FilterPaths:
    """Bootstrap filters for all (theta, data set) pairs; the random numbers are shared across the thetas.

    Data set d draws its initial particles, propagation noise and resampling randomness from one stream
    (seeded by `seed`), identical for every theta of the grid, as the reference reuses one key.
    """
    g, (d, k_total) = thetas.shape[0], observations.shape
    dtype = torch.float32
    noise = Draws(torch.Generator().manual_seed(seed), shared=1)
    resampling = Draws(torch.Generator().manual_seed(seed + 1), shared=1)
    theta = torch.as_tensor(thetas, dtype=dtype)[:, None, None, None]
    ys = torch.as_tensor(observations, dtype=dtype)
    like = torch.zeros((), dtype=dtype)
    x = noise.normal((g, d, particles, 1), like)
    log_w = torch.full((g, d, particles), -math.log(particles), dtype=dtype)
    log_likelihood = torch.zeros((g, d), dtype=dtype)
    means, variances = torch.zeros((g, d, k_total), dtype=dtype), torch.zeros((g, d, k_total), dtype=dtype)
    with torch.no_grad():
        for k in range(k_total):
            if k > 0:
                log_w, x = resample(log_w, x, resampling)
                x = theta * x + noise.normal(x.shape, like)
            potential = -0.5 * ((ys[None, :, k, None] - x[..., 0]) ** 2 / OBSERVATION_VAR
                                + math.log(2 * math.pi * OBSERVATION_VAR))
            unnormalized = log_w + potential
            log_likelihood += torch.logsumexp(unnormalized, dim=-1)
            log_w = normalize_log_weights(unnormalized)
            w = torch.exp(log_w)
            m = (w * x[..., 0]).sum(-1)
            means[:, :, k], variances[:, :, k] = m, (w * (x[..., 0] - m[..., None]) ** 2).sum(-1)
    return FilterPaths(log_likelihood.double().numpy(), means.double().numpy(), variances.double().numpy())


@dataclass(frozen=True)
class LandscapeRun:
    """Per data set: landscape error, filtering KL at the true theta, estimation error, and the estimate."""

    landscape: np.ndarray
    filtering_kl: np.ndarray
    estimation: np.ndarray
    estimate: np.ndarray
    log_likelihood: np.ndarray  # (G, D), for the figure


def _kl(m0: np.ndarray, v0: np.ndarray, m1: np.ndarray, v1: np.ndarray) -> np.ndarray:
    """KL(N(m0, v0) || N(m1, v1)) elementwise (v1 floored at 1e-12: a collapsed filter gives a huge, finite KL)."""
    v1 = np.maximum(v1, 1e-12)
    return 0.5 * (v0 / v1 - 1.0 + (m1 - m0) ** 2 / v1 + np.log(v1 / v0))


def grid_maximiser(thetas: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per column of values (G, D): the grid argmax refined by the vertex of the parabola through it and its
    neighbours (kept within one grid step; the argmax itself at the grid's ends)."""
    best = values.argmax(0)
    step = thetas[1] - thetas[0]
    out = thetas[best].astype(float)
    inner = (best > 0) & (best < len(thetas) - 1)
    cols = np.nonzero(inner)[0]
    if cols.size:
        b = best[cols]
        left, mid, right = values[b - 1, cols], values[b, cols], values[b + 1, cols]
        curvature = left - 2 * mid + right
        shift = np.where(curvature < 0, 0.5 * (left - right) / np.where(curvature < 0, curvature, -1.0), 0.0)
        out[cols] = thetas[b] + step * np.clip(shift, -1.0, 1.0)
    return out


def landscape_metrics(thetas: np.ndarray, observations: np.ndarray, paths: FilterPaths,
                      kalman: tuple[np.ndarray, np.ndarray, np.ndarray]) -> LandscapeRun:
    """The three reference metrics per data set from one CRN grid run and the Kalman grid."""
    kf_ll, kf_means, kf_vars = kalman
    middle = len(thetas) // 2
    landscape = np.sqrt(((paths.log_likelihood - kf_ll) ** 2).mean(0))
    kl = _kl(kf_means[middle], kf_vars[middle], paths.means[middle], paths.variances[middle]).mean(-1)
    estimate = grid_maximiser(thetas, paths.log_likelihood)
    return LandscapeRun(landscape, kl, np.abs(estimate - TRUE_THETA), estimate, paths.log_likelihood)
