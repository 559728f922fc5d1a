"""Small helpers shared by the diffusion-resampling tests."""

from __future__ import annotations

import torch

from models.diffusion_resampling.params import Params


def weighted_set(batch: int, n: int, seed: int = 0, dtype: torch.dtype = torch.float64) -> tuple[torch.Tensor, torch.Tensor]:
    """Log weights (batch, n) and 2-D particles (batch, n, 2) from a seeded generator."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, n, 2, generator=gen, dtype=dtype) * torch.tensor([1.0, 0.5], dtype=dtype)
    log_w = -0.5 * (x[..., 0] - 0.8) ** 2 / 0.3
    return log_w, x


def small_params(**overrides: object) -> Params:
    """A run of a second or two: two small N, few repeats, a short filter."""
    values: dict[str, object] = {
        "particles": [16, 64], "moment_repeats": 4, "filter_steps": 8, "filter_particles": 16,
        "gradient_repeats": 4, "estimation_iterations": 2, "estimation_repeats": 1, "ode_steps": 4,
        "sinkhorn_iterations": 10,
    }
    values.update(overrides)
    return Params.model_validate(values)
