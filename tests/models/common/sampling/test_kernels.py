"""RBF kernel, median bandwidth and the Stein direction."""

from __future__ import annotations

import math

import torch

from models.common.sampling import GaussianMixture, median_bandwidth, rbf_kernel, stein_direction


def test_median_bandwidth_is_median_squared_distance_over_log_n() -> None:
    x = torch.tensor([[0.0], [1.0], [3.0]], dtype=torch.float64)  # squared distances 1, 9, 4
    assert math.isclose(float(median_bandwidth(x)), 4.0 / math.log(4.0), rel_tol=1e-12)


def test_rbf_kernel_is_symmetric_with_unit_diagonal_and_psd() -> None:
    x = torch.randn(30, 3, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    k = rbf_kernel(x, x, median_bandwidth(x))
    assert torch.allclose(k, k.T)
    assert torch.allclose(torch.diagonal(k), torch.ones(30, dtype=torch.float64))
    assert float(torch.linalg.eigvalsh(k).min()) > -1e-10


def test_stein_direction_matches_autograd_of_the_kernel() -> None:
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(12, 2, generator=gen, dtype=torch.float64)
    score = torch.randn(12, 2, generator=gen, dtype=torch.float64)
    h = torch.tensor(0.7, dtype=torch.float64)
    phi = stein_direction(x, score, h)
    expected = torch.zeros_like(x)
    for i in range(12):
        for j in range(12):
            xj = x[j].clone().requires_grad_(True)
            kij = torch.exp(-((xj - x[i]) ** 2).sum() / h)
            (grad,) = torch.autograd.grad(kij, xj)
            expected[i] += kij.detach() * score[j] + grad
    assert torch.allclose(phi, expected / 12, atol=1e-12)


def test_svgd_moves_particles_to_a_gaussian_target() -> None:
    target = GaussianMixture.isotropic(
        torch.ones(1, dtype=torch.float64), torch.tensor([[2.0, -1.0]], dtype=torch.float64), 0.5
    )
    x = torch.randn(100, 2, generator=torch.Generator().manual_seed(2), dtype=torch.float64) * 2
    for _ in range(2000):
        x = x + 0.05 * stein_direction(x, target.score(x))
    assert torch.allclose(x.mean(0), target.mean(), atol=0.05)
    assert abs(float(x.var(0).mean()) - 0.25) < 0.06
