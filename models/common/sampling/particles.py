"""Weighted particle sets: normalisation, effective sample size, and five resamplers (batched, torch).

Every resampler takes log weights (..., n) and particles (..., n, d) and returns new log weights and
particles of the same shapes. Multinomial and systematic are unbiased but not differentiable in the
weights; soft resampling (Karkus et al. 2018) keeps a gradient through importance weights; entropic
optimal transport (Corenflos et al. 2021) is a deterministic, differentiable, biased transport.
"""

from __future__ import annotations

import math

import torch

from models.common.sampling.integrators import uniform
from models.common.sampling.kernels import pairwise_sq_distances

__all__ = [
    "effective_sample_size",
    "entropic_ot_plan",
    "entropic_ot_resample",
    "gather_particles",
    "multinomial_resample",
    "normalize_log_weights",
    "soft_resample",
    "systematic_resample",
    "uniform_log_weights",
]


def normalize_log_weights(log_w: torch.Tensor) -> torch.Tensor:
    """log weights minus their logsumexp, so the weights sum to one along the last axis."""
    return log_w - torch.logsumexp(log_w, dim=-1, keepdim=True)


def effective_sample_size(log_w: torch.Tensor) -> torch.Tensor:
    """ESS = 1 / sum w_i^2 of the normalised weights, in [1, n]."""
    normalized = normalize_log_weights(log_w)
    return torch.exp(-torch.logsumexp(2.0 * normalized, dim=-1))


def uniform_log_weights(like: torch.Tensor) -> torch.Tensor:
    """log(1/n) everywhere, shaped like the log weights `like`."""
    return torch.full_like(like, -math.log(like.shape[-1]))


def gather_particles(x: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    """x[..., indices, :] batched: particles (..., n, d), indices (..., m) -> (..., m, d)."""
    return torch.gather(x, -2, indices.unsqueeze(-1).expand(*indices.shape, x.shape[-1]))


def _categorical(log_p: torch.Tensor, count: int, generator: torch.Generator) -> torch.Tensor:
    """`count` i.i.d. indices per row of the categorical law exp(log_p) (rows of any batch shape)."""
    probs = torch.softmax(log_p.detach(), dim=-1).to(generator.device)
    flat = probs.reshape(-1, probs.shape[-1])
    draws = torch.multinomial(flat, count, replacement=True, generator=generator)
    return draws.reshape(*probs.shape[:-1], count).to(log_p.device)


def multinomial_resample(
    log_w: torch.Tensor, x: torch.Tensor, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """n i.i.d. ancestor draws with probabilities w; equal weights after. E[count_i] = n w_i."""
    indices = _categorical(log_w, log_w.shape[-1], generator)
    return uniform_log_weights(log_w), gather_particles(x, indices)


def systematic_resample(
    log_w: torch.Tensor, x: torch.Tensor, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """One uniform U per set, positions (i + U)/n looked up in the cumulative weights (low variance)."""
    n = log_w.shape[-1]
    weights = torch.softmax(log_w.detach(), dim=-1)
    cumulative = torch.cumsum(weights, dim=-1)
    offset = uniform((*log_w.shape[:-1], 1), generator, weights)
    positions = (torch.arange(n, dtype=weights.dtype, device=weights.device) + offset) / n
    indices = torch.searchsorted(cumulative.contiguous(), positions.contiguous()).clamp(max=n - 1)
    return uniform_log_weights(log_w), gather_particles(x, indices)


def soft_resample(
    log_w: torch.Tensor, x: torch.Tensor, alpha: float, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Draw ancestors from q = alpha w + (1 - alpha)/n and reweight by w/q (Karkus et al. 2018).

    alpha = 1 is multinomial; alpha = 0 keeps the weights and draws ancestors uniformly. The new
    weights w_a / q_a depend on log_w differentiably, which carries a (partial) gradient.
    """
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"soft resampling needs 0 <= alpha <= 1, got {alpha}")
    log_w = normalize_log_weights(log_w)
    n = log_w.shape[-1]
    mixing = torch.stack(
        [log_w + math.log(max(alpha, 1e-300)), torch.full_like(log_w, math.log(max(1.0 - alpha, 1e-300)) - math.log(n))]
    )
    log_q = torch.logsumexp(mixing, dim=0)
    indices = _categorical(log_q, n, generator)
    new_log_w = torch.gather(log_w - log_q, -1, indices)
    return normalize_log_weights(new_log_w), gather_particles(x, indices)


def entropic_ot_plan(
    log_w: torch.Tensor, x: torch.Tensor, epsilon: float, iterations: int = 100
) -> torch.Tensor:
    """The entropic OT plan P (..., n, n) from uniform 1/n (rows) to the weights w (columns).

    Log-domain Sinkhorn on the cost C_ij = |x_i - x_j|^2: P_ij = exp(f_i + g_j - C_ij / eps) a_i b_j.
    The last update is the column one, so the column sums equal w exactly (the resampled mean is
    then the weighted mean exactly); the row sums converge to 1/n geometrically.
    """
    n = x.shape[-2]
    log_a = torch.full_like(log_w, -math.log(n))
    log_b = normalize_log_weights(log_w)
    log_kernel = -pairwise_sq_distances(x, x) / epsilon
    g = torch.zeros_like(log_b)
    f = torch.zeros_like(log_a)
    for _ in range(iterations):
        f = -torch.logsumexp(log_kernel + (g + log_b).unsqueeze(-2), dim=-1)
        g = -torch.logsumexp(log_kernel + (f + log_a).unsqueeze(-1), dim=-2)
    return torch.exp(log_kernel + (f + log_a).unsqueeze(-1) + (g + log_b).unsqueeze(-2))


def entropic_ot_resample(
    log_w: torch.Tensor, x: torch.Tensor, epsilon: float, iterations: int = 100
) -> tuple[torch.Tensor, torch.Tensor]:
    """Particles x~_i = n sum_j P_ij x_j with equal weights (Corenflos et al. 2021), differentiable."""
    plan = entropic_ot_plan(log_w, x, epsilon, iterations)
    return uniform_log_weights(log_w), x.shape[-2] * (plan @ x)
