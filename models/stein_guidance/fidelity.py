"""Posterior fidelity: the energy distance between a method's samples and exact draws of the tilted law.

The energy distance D^2(P, Q) = 2 E|X - Y| - E|X - X'| - E|Y - Y'| is zero exactly when P = Q. Its
unbiased estimate (U-statistics within each sample) has mean 0 when both samples come from the same law,
so an exact sampler meets a pass mark of 0 up to Monte Carlo noise; `exact_floor` measures that noise by
comparing a second, independent exact sample of the same size with the reference draws.
"""

from __future__ import annotations

import torch

__all__ = ["energy_distance", "energy_units"]


def _mean_within(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-2]
    return torch.cdist(x, x).sum((-1, -2)) / (n * (n - 1))


def energy_distance(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Unbiased energy distance between samples x (..., n, d) and y (..., m, d); shape (...)."""
    cross = torch.cdist(x, y).mean((-1, -2))
    return 2.0 * cross - _mean_within(x) - _mean_within(y)


def energy_units(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Per-particle terms of `energy_distance(x, y)` for x (n, d), y (m, d): shape (n,), mean = the distance.

    u_i = 2 mean_j |x_i - y_j| - sum_{k != i} |x_i - x_k| / (n - 1) - E|Y - Y'|: paired across two samplers
    that share their noise (particle i of one against particle i of the other), their differences are the
    units of a paired interval over particles.
    """
    n = x.shape[-2]
    cross = torch.cdist(x, y).mean(-1)
    within = torch.cdist(x, x).sum(-1) / (n - 1)
    return 2.0 * cross - within - _mean_within(y)
