"""Tilts: tilted ERM's per-row softmax weights, and IRS's exponential tilt of a prior over groups.

IRS (the paper's official code) measures fragility over groups: with group losses l_g and a reference prior
p0 over the G groups, the fragility at target tau is kappa = sup_p (E_p[l] - tau) / KL(p || p0). The
search runs along the KL exponential-tilting path p_h ~ p0 exp(h l) (the maximisers of E_p[l] at a given KL),
on a log grid of h then a few refinement rounds around the best point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

__all__ = ["H_MAX", "H_MIN", "PathPoint", "kl_divergence", "maximise_along_path", "path_value", "tilted_loss",
           "tilted_path", "tilted_weights"]

H_MIN, H_MAX = 1e-3, 50.0  # the tilt's search interval (the official code's h_min, h_max)
GRID, REFINE_POINTS, REFINE_ROUNDS = 64, 25, 3


def tilted_loss(losses: torch.Tensor, k: float) -> torch.Tensor:
    """k log (1/n sum_i exp(l_i / k)): tilted ERM's objective at tilt t = 1 / k (logsumexp, no overflow)."""
    n = losses.shape[0]
    return k * (torch.logsumexp(losses / k, dim=0) - math.log(n))


def tilted_weights(losses: torch.Tensor, k: float) -> torch.Tensor:
    """softmax(l / k): d tilted_loss / d l_i, so grad tilted = sum_i w_i grad l_i (one backward pass)."""
    return torch.softmax(losses / k, dim=0)


def tilted_path(group_losses: torch.Tensor, prior: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    """p_h ~ prior exp(h l) for every h (rows: h values, columns: groups)."""
    logits = torch.log(prior.clamp_min(1e-30))[None, :] + h[:, None] * group_losses[None, :]
    return torch.softmax(logits, dim=1)


def kl_divergence(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """KL(p || q) in nats along the last axis."""
    return (p * (p.clamp_min(1e-30).log() - q.clamp_min(1e-30).log())).sum(dim=-1)


def path_value(group_losses: torch.Tensor, prior: torch.Tensor, tau: float, h: torch.Tensor) -> torch.Tensor:
    """(E_{p_h}[l] - tau) / KL(p_h || prior) for every h; -inf where the KL vanishes."""
    p = tilted_path(group_losses, prior, h)
    kl = kl_divergence(p, prior[None, :])
    value = (p @ group_losses - tau) / kl.clamp_min(1e-300)
    return torch.where(kl > 1e-12, value, torch.full_like(value, -math.inf))


@dataclass(frozen=True)
class PathPoint:
    """The tilt h* maximising the value along the path: p* = p_{h*}, kappa = the value there, kl = KL(p* || p0)."""

    h: float
    kappa: float
    kl: float
    p: torch.Tensor


def maximise_along_path(group_losses: torch.Tensor, prior: torch.Tensor, tau: float) -> PathPoint:
    """kappa = max_h (E_{p_h}[l] - tau) / KL(p_h || p0): a 64-point log grid of h in [H_MIN, H_MAX], then 3 rounds
    of 25 points around the best, the window shrinking to a quarter of its width each round (the official search)."""
    losses = group_losses.detach().to(torch.float64)
    prior64 = prior.detach().to(torch.float64)
    log_min, log_max = math.log(H_MIN), math.log(H_MAX)
    log_h = torch.linspace(log_min, log_max, GRID, dtype=torch.float64)
    values = path_value(losses, prior64, tau, log_h.exp())
    best = int(torch.argmax(values))
    best_log, best_value = float(log_h[best]), float(values[best])
    width = (log_max - log_min) / (GRID - 1)
    left, right = max(log_min, best_log - width), min(log_max, best_log + width)
    for _ in range(REFINE_ROUNDS):
        log_h = torch.linspace(left, right, REFINE_POINTS, dtype=torch.float64)
        values = path_value(losses, prior64, tau, log_h.exp())
        k = int(torch.argmax(values))
        if float(values[k]) > best_value:
            best_log, best_value = float(log_h[k]), float(values[k])
        width = max((right - left) / 4.0, 1e-6)
        left, right = max(log_min, best_log - width), min(log_max, best_log + width)
    h = math.exp(best_log)
    p = tilted_path(losses, prior64, torch.tensor([h], dtype=torch.float64))[0]
    return PathPoint(h=h, kappa=best_value, kl=float(kl_divergence(p, prior64)), p=p.to(group_losses.dtype))
