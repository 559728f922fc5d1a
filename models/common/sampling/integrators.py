"""Fixed-step integrators for ODEs and SDEs on particle batches (torch, differentiable by autograd)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

__all__ = ["Drift", "euler_maruyama", "euler_ode", "standard_normal", "uniform"]

Drift = Callable[[torch.Tensor, float], torch.Tensor]


def standard_normal(shape: Sequence[int], generator: torch.Generator, like: torch.Tensor) -> torch.Tensor:
    """N(0, I) draws from `generator` (on its own device), moved to the device and dtype of `like`."""
    draws = torch.randn(tuple(shape), generator=generator, device=generator.device, dtype=like.dtype)
    return draws.to(like.device)


def uniform(shape: Sequence[int], generator: torch.Generator, like: torch.Tensor) -> torch.Tensor:
    """U(0, 1) draws from `generator`, moved to the device and dtype of `like`."""
    draws = torch.rand(tuple(shape), generator=generator, device=generator.device, dtype=like.dtype)
    return draws.to(like.device)


def euler_ode(drift: Drift, x: torch.Tensor, times: Sequence[float]) -> torch.Tensor:
    """Integrate dx/dt = drift(x, t) from times[0] to times[-1] with explicit Euler steps.

    `times` may decrease (a reverse-time flow); every step is x <- x + drift(x, t_k) (t_{k+1} - t_k).
    Gradients flow through every step, so the map x(times[0]) -> x(times[-1]) is differentiable.
    """
    for t_now, t_next in zip(times[:-1], times[1:], strict=True):
        x = x + drift(x, float(t_now)) * (float(t_next) - float(t_now))
    return x


def euler_maruyama(
    drift: Drift,
    diffusion: Callable[[float], float],
    x: torch.Tensor,
    times: Sequence[float],
    generator: torch.Generator,
) -> torch.Tensor:
    """Integrate dx = drift(x, t) dt + g(t) dW with Euler-Maruyama steps (times may decrease).

    Each step adds g(t_k) sqrt(|dt|) z with z ~ N(0, I) drawn from `generator` (same seed, same path).
    """
    for t_now, t_next in zip(times[:-1], times[1:], strict=True):
        dt = float(t_next) - float(t_now)
        noise = standard_normal(x.shape, generator, x)
        x = x + drift(x, float(t_now)) * dt + diffusion(float(t_now)) * abs(dt) ** 0.5 * noise
    return x
