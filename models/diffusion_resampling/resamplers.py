"""The resamplers compared on the page, behind one signature: (log_w, x, draws) -> (log_w, x).

`draws` is a torch generator or a `Draws`, which can share its random numbers across leading batch axes:
the log-likelihood landscape runs every theta of a grid as one batch with the same random numbers
(common random numbers, as the reference's scripts do by reusing one key over the grid). Multinomial and
soft resampling draw ancestors by inverting the cumulative weights at uniform draws, so shared uniforms
give coupled ancestors across the grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import torch

from models.common.sampling import entropic_ot_resample, normalize_log_weights
from models.common.sampling.integrators import standard_normal, uniform
from models.common.sampling.particles import gather_particles, uniform_log_weights
from models.diffusion_resampling.diffusion import T_MIN, diffusion_resample

__all__ = [
    "DIFFERENTIABLE", "GRIDS", "RESAMPLER_LABELS", "Draws", "ResamplerName", "ResamplerSettings",
    "gumbel_softmax_resample", "resampler",
]

ResamplerName = Literal["multinomial", "systematic", "soft", "gumbel", "ot", "diffusion"]

RESAMPLER_LABELS: dict[str, str] = {
    "multinomial": "Multinomial",
    "systematic": "Systematic",
    "soft": "Soft (alpha)",
    "gumbel": "Gumbel-softmax (tau)",
    "ot": "Entropic OT (epsilon)",
    "diffusion": "Diffusion (the paper)",
}
# resamplers whose output depends smoothly on the weights and positions (pathwise derivatives exist)
DIFFERENTIABLE = frozenset({"soft", "gumbel", "ot", "diffusion"})
# the reference's LGSSM grids (experiments/run_lgssm.sh): soft alpha, Gumbel tau, OT epsilon, diffusion
# (T, Euler steps) at a = -1
GRIDS: dict[str, list[tuple[float, ...]]] = {
    "soft": [(0.5,), (0.7,), (0.9,)],
    "gumbel": [(0.1,), (0.3,), (0.5,)],
    "ot": [(0.4,), (0.8,), (1.6,)],
    "diffusion": [(t, s) for t in (1.0, 2.0, 3.0) for s in (4, 8, 16, 32)],
}


@dataclass(frozen=True)
class Draws:
    """Random numbers from `generator`, the same across the first `shared` batch axes."""

    generator: torch.Generator
    shared: int = 0

    def _shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        return tuple(1 if i < self.shared else size for i, size in enumerate(shape))

    def normal(self, shape: Sequence[int], like: torch.Tensor) -> torch.Tensor:
        return standard_normal(self._shape(shape), self.generator, like).expand(*shape)

    def uniform(self, shape: Sequence[int], like: torch.Tensor) -> torch.Tensor:
        return uniform(self._shape(shape), self.generator, like).expand(*shape)


Source = torch.Generator | Draws
Resampler = Callable[[torch.Tensor, torch.Tensor, Source], tuple[torch.Tensor, torch.Tensor]]


def _draws(source: Source) -> Draws:
    return source if isinstance(source, Draws) else Draws(source)


@dataclass(frozen=True)
class ResamplerSettings:
    """Knobs of the resamplers: soft alpha, OT epsilon and Sinkhorn iterations, diffusion steps, T, t_min; tau."""

    soft_alpha: float = 0.5
    ot_epsilon: float = 0.8
    sinkhorn_iterations: int = 50
    ode_steps: int = 16
    diffusion_time: float = 3.0
    gumbel_tau: float = 0.3
    t_min: float = T_MIN

    def at(self, name: str, point: tuple[float, ...]) -> ResamplerSettings:
        """These settings with `name`'s grid point (a tuple as in GRIDS) put in."""
        from dataclasses import replace

        if name == "soft":
            return replace(self, soft_alpha=point[0])
        if name == "gumbel":
            return replace(self, gumbel_tau=point[0])
        if name == "ot":
            return replace(self, ot_epsilon=point[0])
        if name == "diffusion":
            return replace(self, diffusion_time=point[0], ode_steps=int(point[1]))
        return self


def _inverse_cdf(log_p: torch.Tensor, u: torch.Tensor) -> torch.Tensor:
    """Indices of the categorical laws exp(log_p) (..., n) at uniforms u (..., m)."""
    cumulative = torch.cumsum(torch.softmax(log_p.detach(), dim=-1), dim=-1)
    return torch.searchsorted(cumulative.contiguous(), u.contiguous()).clamp(max=log_p.shape[-1] - 1)


def multinomial_resample(log_w: torch.Tensor, x: torch.Tensor, source: Source) -> tuple[torch.Tensor, torch.Tensor]:
    """n i.i.d. ancestors with probabilities w (inverse CDF at i.i.d. uniforms); equal weights after."""
    indices = _inverse_cdf(log_w, _draws(source).uniform(log_w.shape, log_w))
    return uniform_log_weights(log_w), gather_particles(x, indices)


def systematic_resample(log_w: torch.Tensor, x: torch.Tensor, source: Source) -> tuple[torch.Tensor, torch.Tensor]:
    """One uniform U per set, positions (i + U)/n looked up in the cumulative weights (low variance)."""
    n = log_w.shape[-1]
    offset = _draws(source).uniform((*log_w.shape[:-1], 1), log_w)
    positions = (torch.arange(n, dtype=log_w.dtype, device=log_w.device) + offset) / n
    return uniform_log_weights(log_w), gather_particles(x, _inverse_cdf(log_w, positions))


def soft_resample(
    log_w: torch.Tensor, x: torch.Tensor, alpha: float, source: Source
) -> tuple[torch.Tensor, torch.Tensor]:
    """Ancestors from q = alpha w + (1 - alpha)/n, reweighted by w/q (Karkus et al. 2018)."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"soft resampling needs 0 <= alpha <= 1, got {alpha}")
    log_w = normalize_log_weights(log_w)
    n = log_w.shape[-1]
    log_q = torch.logaddexp(log_w + math.log(max(alpha, 1e-300)),
                            torch.full_like(log_w, math.log(max(1.0 - alpha, 1e-300)) - math.log(n)))
    indices = _inverse_cdf(log_q, _draws(source).uniform(log_w.shape, log_w))
    return normalize_log_weights(torch.gather(log_w - log_q, -1, indices)), gather_particles(x, indices)


def gumbel_softmax_resample(
    log_w: torch.Tensor, x: torch.Tensor, tau: float, source: Source
) -> tuple[torch.Tensor, torch.Tensor]:
    """Particle i = softmax_j((g_ij + log w_j) / tau) @ x with Gumbel noise g (Jang et al. 2017).

    As tau -> 0 each row becomes one multinomial draw; every output is a smooth convex combination.
    """
    if tau <= 0:
        raise ValueError(f"Gumbel-softmax needs tau > 0, got {tau}")
    n = log_w.shape[-1]
    u = _draws(source).uniform((*log_w.shape[:-1], n, n), log_w).clamp(1e-12, 1.0 - 1e-12)
    gumbel = -torch.log(-torch.log(u))
    mix = torch.softmax((gumbel + normalize_log_weights(log_w).unsqueeze(-2)) / tau, dim=-1)
    return uniform_log_weights(log_w), mix @ x


def resampler(name: ResamplerName, settings: ResamplerSettings) -> Resampler:
    """The resampling function called `name`, with the settings bound."""
    s = settings
    if name == "multinomial":
        return multinomial_resample
    if name == "systematic":
        return systematic_resample
    if name == "soft":
        return lambda log_w, x, src: soft_resample(log_w, x, s.soft_alpha, src)
    if name == "gumbel":
        return lambda log_w, x, src: gumbel_softmax_resample(log_w, x, s.gumbel_tau, src)
    if name == "ot":
        return lambda log_w, x, src: entropic_ot_resample(log_w, x, s.ot_epsilon, s.sinkhorn_iterations)
    if name == "diffusion":
        return lambda log_w, x, src: diffusion_resample(
            log_w, x, None, steps=s.ode_steps, horizon=s.diffusion_time, t_min=s.t_min,
            start_noise=_draws(src).normal(x.shape, x))
    raise ValueError(f"unknown resampler {name!r}")
