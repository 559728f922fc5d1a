"""The five resamplers compared on the page, behind one signature: (log_w, x, generator) -> (log_w, x)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import torch

from models.common.sampling import (
    entropic_ot_resample,
    multinomial_resample,
    soft_resample,
    systematic_resample,
)
from models.diffusion_resampling.diffusion import diffusion_resample

__all__ = ["DIFFERENTIABLE", "RESAMPLER_LABELS", "ResamplerName", "ResamplerSettings", "resampler"]

ResamplerName = Literal["multinomial", "systematic", "soft", "ot", "diffusion"]
Resampler = Callable[[torch.Tensor, torch.Tensor, torch.Generator], tuple[torch.Tensor, torch.Tensor]]

RESAMPLER_LABELS: dict[str, str] = {
    "multinomial": "Multinomial",
    "systematic": "Systematic",
    "soft": "Soft (alpha)",
    "ot": "Entropic OT (epsilon)",
    "diffusion": "Diffusion (the paper)",
}
# resamplers whose output depends smoothly on the weights and positions (pathwise derivatives exist)
DIFFERENTIABLE = frozenset({"soft", "ot", "diffusion"})


@dataclass(frozen=True)
class ResamplerSettings:
    """Knobs of the resamplers: soft alpha, OT epsilon and Sinkhorn iterations, diffusion steps and T."""

    soft_alpha: float = 0.5
    ot_epsilon: float = 0.5
    sinkhorn_iterations: int = 50
    ode_steps: int = 16
    diffusion_time: float = 3.0


def resampler(name: ResamplerName, settings: ResamplerSettings) -> Resampler:
    """The resampling function called `name`, with the settings bound."""
    if name == "multinomial":
        return multinomial_resample
    if name == "systematic":
        return systematic_resample
    if name == "soft":
        return lambda log_w, x, gen: soft_resample(log_w, x, settings.soft_alpha, gen)
    if name == "ot":
        return lambda log_w, x, gen: entropic_ot_resample(
            log_w, x, settings.ot_epsilon, settings.sinkhorn_iterations
        )
    if name == "diffusion":
        return lambda log_w, x, gen: diffusion_resample(
            log_w, x, gen, steps=settings.ode_steps, horizon=settings.diffusion_time
        )
    raise ValueError(f"unknown resampler {name!r}")
