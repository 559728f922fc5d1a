"""The KL robust-satisficing constraint: the tilted loss k log E[exp(loss / k)], its weights and the fragility k."""

from __future__ import annotations

import math

import torch

__all__ = ["K_MAX", "K_MIN", "fragility", "tilted_loss", "tilted_weights"]

K_MIN = 1e-4  # below this the tilted loss is the max loss to float precision for losses of order one
K_MAX = 1e4  # above this it is the mean loss to float precision


def tilted_loss(losses: torch.Tensor, k: float) -> torch.Tensor:
    """k log (1/n sum_i exp(l_i / k)): the worst expected loss over a KL ball, priced at k per nat.

    By the Donsker-Varadhan duality sup_P {E_P[l] - k KL(P || P_n)} = k log E_{P_n}[exp(l / k)]. It
    decreases in k from max_i l_i (k -> 0) to the mean (k -> infinity); computed with logsumexp so no
    exp overflows.
    """
    n = losses.shape[0]
    return k * (torch.logsumexp(losses / k, dim=0) - math.log(n))


def tilted_weights(losses: torch.Tensor, k: float) -> torch.Tensor:
    """softmax(l / k): d tilted_loss / d l_i, so grad tilted = sum_i w_i grad l_i (one backward pass)."""
    return torch.softmax(losses / k, dim=0)


def fragility(losses: torch.Tensor, tau: float, *, rounds: int = 3, grid: int = 32) -> float:
    """The smallest k in [K_MIN, K_MAX] with tilted_loss(losses, k) <= tau, to a relative precision of 1e-3.

    The tilted loss is non-increasing in k, so the feasible set is an interval [k*, infinity): K_MAX when
    even the mean loss is above tau (the constraint cannot be met; the step is then plain ERM), K_MIN when
    even the max loss is below tau. Each round evaluates the tilted loss on a geometric grid of `grid`
    values of k at once and keeps the cell holding k* (3 rounds of 32 points: a factor 1.0006). No
    forward or backward pass: the per-sample losses of the current step are reused.
    """
    values = losses.detach().to(torch.float64)
    if float(tilted_loss(values, K_MAX)) > tau:
        return K_MAX
    if float(tilted_loss(values, K_MIN)) <= tau:
        return K_MIN
    low, high = math.log(K_MIN), math.log(K_MAX)
    n = values.shape[0]
    for _ in range(rounds):
        ks = torch.exp(torch.linspace(low, high, grid, dtype=torch.float64, device=values.device))
        tilted = ks * (torch.logsumexp(values[:, None] / ks[None, :], dim=0) - math.log(n))
        feasible = int(torch.argmax((tilted <= tau).to(torch.int8)))  # first feasible grid point (the last one is)
        low, high = float(torch.log(ks[max(feasible - 1, 0)])), float(torch.log(ks[feasible]))
    return math.exp(high)
