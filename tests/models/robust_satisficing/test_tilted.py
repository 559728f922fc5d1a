"""Tilted ERM's tilted loss against its closed forms and gradient; IRS's group tilting path and its search."""

from __future__ import annotations

import math

import pytest
import torch

from models.robust_satisficing.tilted import (
    H_MAX,
    H_MIN,
    kl_divergence,
    maximise_along_path,
    path_value,
    tilted_loss,
    tilted_path,
    tilted_weights,
)


def _losses(seed: int, n: int = 50) -> torch.Tensor:
    return torch.rand(n, generator=torch.Generator().manual_seed(seed), dtype=torch.float64) * 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_large_k_gives_the_mean_and_small_k_the_max(seed: int) -> None:
    losses = _losses(seed)
    assert float(tilted_loss(losses, 1e6)) == pytest.approx(float(losses.mean()), abs=1e-5)
    # k log(1/n sum e^{l/k}) = max + k log(#argmax / n) + o(k): within k log n of the max
    assert float(tilted_loss(losses, 1e-3)) == pytest.approx(float(losses.max()), abs=1e-3 * math.log(50) + 1e-9)


def test_second_order_expansion_at_large_k() -> None:
    losses = _losses(3)
    k = 50.0
    expansion = float(losses.mean() + losses.var(unbiased=False) / (2 * k))
    assert float(tilted_loss(losses, k)) == pytest.approx(expansion, rel=1e-4)


def test_two_point_closed_form() -> None:
    losses = torch.tensor([0.0, 1.0], dtype=torch.float64)
    for k in (0.1, 0.7, 3.0):
        assert float(tilted_loss(losses, k)) == pytest.approx(k * math.log((1 + math.exp(1 / k)) / 2), rel=1e-12)


def test_tilted_loss_is_non_increasing_in_k() -> None:
    losses = _losses(4)
    values = [float(tilted_loss(losses, k)) for k in torch.logspace(-3, 3, 60).tolist()]
    assert all(b <= a + 1e-12 for a, b in zip(values, values[1:], strict=False))


def test_weights_are_the_gradient_in_the_losses() -> None:
    losses = _losses(5).requires_grad_(True)
    k = 0.4
    (grad,) = torch.autograd.grad(tilted_loss(losses, k), losses)
    assert torch.allclose(grad, tilted_weights(losses.detach(), k), atol=1e-12)
    assert float(grad.sum()) == pytest.approx(1.0)


def test_weighted_gradient_matches_finite_differences_in_theta() -> None:
    """grad_theta tilted = sum_i softmax(l/k)_i grad_theta l_i (the one-backward IRS step), checked by central differences."""
    gen = torch.Generator().manual_seed(6)
    X = torch.randn(30, 3, generator=gen, dtype=torch.float64)
    y = torch.randn(30, generator=gen, dtype=torch.float64)
    theta = (0.3 * torch.randn(3, generator=gen, dtype=torch.float64)).requires_grad_(True)
    k = 1.5  # comparable to the spread of the losses, so the weights are far from both uniform and one-hot
    losses = (X @ theta - y) ** 2
    weights = tilted_weights(losses.detach(), k)
    (weighted,) = torch.autograd.grad(torch.dot(weights, losses), theta)
    h = 1e-6
    numeric = torch.zeros(3, dtype=torch.float64)
    for j in range(3):
        step = torch.zeros(3, dtype=torch.float64)
        step[j] = h
        up = tilted_loss((X @ (theta.detach() + step) - y) ** 2, k)
        down = tilted_loss((X @ (theta.detach() - step) - y) ** 2, k)
        numeric[j] = (up - down) / (2 * h)
    assert torch.allclose(weighted, numeric, rtol=1e-6, atol=1e-8)


def _groups(seed: int, g: int = 4) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    losses = torch.rand(g, generator=gen, dtype=torch.float64) * 2
    prior = torch.rand(g, generator=gen, dtype=torch.float64) + 0.1
    return losses, prior / prior.sum()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_path_search_finds_the_brute_force_maximum(seed: int) -> None:
    """kappa = max_h (E_{p_h} l - tau) / KL(p_h || p0), against a 20,000-point grid over the same interval."""
    losses, prior = _groups(seed)
    tau = 1.01 * float(prior @ losses)
    point = maximise_along_path(losses, prior, tau)
    fine = path_value(losses, prior, tau, torch.logspace(math.log10(H_MIN), math.log10(H_MAX), 20000, dtype=torch.float64))
    assert point.kappa == pytest.approx(float(fine.max()), rel=1e-6)
    p_h = tilted_path(losses, prior, torch.tensor([point.h], dtype=torch.float64))[0]
    assert torch.allclose(point.p, p_h) and point.kl == pytest.approx(float(kl_divergence(p_h, prior)))
    assert point.kappa == pytest.approx((float(point.p @ losses) - tau) / point.kl, rel=1e-9)


def test_path_is_the_exponential_tilt_and_kl_is_exact() -> None:
    losses, prior = torch.tensor([0.0, math.log(3.0)], dtype=torch.float64), torch.tensor([0.5, 0.5], dtype=torch.float64)
    p = tilted_path(losses, prior, torch.tensor([1.0], dtype=torch.float64))[0]
    assert p.tolist() == pytest.approx([0.25, 0.75])  # p ~ (0.5, 0.5 x 3)
    assert float(kl_divergence(p, prior)) == pytest.approx(0.25 * math.log(0.5) + 0.75 * math.log(1.5))
    assert float(tilted_path(losses, prior, torch.tensor([0.0], dtype=torch.float64))[0] @ losses) == pytest.approx(
        float(prior @ losses))


def test_a_higher_target_lowers_the_fragility() -> None:
    """The value is decreasing in tau at every h, so its maximum is too; the tilt moves further from the prior."""
    losses, prior = _groups(5)
    source = float(prior @ losses)
    points = [maximise_along_path(losses, prior, f * source) for f in (1.01, 1.2, 1.5)]
    assert points[0].kappa > points[1].kappa > points[2].kappa
    assert points[0].kl < points[1].kl < points[2].kl
