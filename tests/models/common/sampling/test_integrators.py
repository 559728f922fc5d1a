"""Euler ODE and Euler-Maruyama integrators against closed forms."""

from __future__ import annotations

import math

import torch

from models.common.sampling import euler_maruyama, euler_ode


def test_euler_ode_converges_at_first_order_on_linear_decay() -> None:
    x0 = torch.tensor([1.0], dtype=torch.float64)
    errors = []
    for steps in (50, 100, 200):
        times = torch.linspace(0, 1, steps + 1).tolist()
        x1 = euler_ode(lambda x, t: -x, x0, times)
        errors.append(abs(float(x1) - math.exp(-1)))
    assert 1.8 < errors[0] / errors[1] < 2.2 and 1.8 < errors[1] / errors[2] < 2.2


def test_euler_ode_integrates_backwards_in_time() -> None:
    times = torch.linspace(1, 0, 2001).tolist()
    x = euler_ode(lambda x, t: torch.full_like(x, 2 * t), torch.tensor([0.0], dtype=torch.float64), times)
    assert abs(float(x) + 1.0) < 1e-3  # x(0) = x(1) - int_0^1 2t dt


def test_euler_maruyama_matches_the_ornstein_uhlenbeck_law() -> None:
    gen = torch.Generator().manual_seed(0)
    x0 = torch.full((50_000, 1), 2.0, dtype=torch.float64)
    times = torch.linspace(0, 1, 201).tolist()
    x1 = euler_maruyama(lambda x, t: -x, lambda t: math.sqrt(2.0), x0, times, gen)
    assert abs(float(x1.mean()) - 2 * math.exp(-1)) < 0.02
    assert abs(float(x1.var()) - (1 - math.exp(-2))) < 0.02
