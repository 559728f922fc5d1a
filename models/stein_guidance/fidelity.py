"""Posterior fidelity: the energy distance between a method's samples and exact draws of the tilted law.

The energy distance D^2(P, Q) = 2 E|X - Y| - E|X - X'| - E|Y - Y'| is zero exactly when P = Q. Its
unbiased estimate (U-statistics within each sample) has mean 0 when both samples come from the same law,
so an exact sampler meets a pass mark of 0 up to Monte Carlo noise; `exact_floor` measures that noise by
comparing a second, independent exact sample of the same size with the reference draws.
"""

from __future__ import annotations

import torch

__all__ = ["energy_distance"]


def _mean_within(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-2]
    return torch.cdist(x, x).sum((-1, -2)) / (n * (n - 1))


def energy_distance(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Unbiased energy distance between samples x (..., n, d) and y (..., m, d); shape (...)."""
    cross = torch.cdist(x, y).mean((-1, -2))
    return 2.0 * cross - _mean_within(x) - _mean_within(y)
