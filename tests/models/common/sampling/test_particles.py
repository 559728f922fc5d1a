"""Resamplers: unbiased in expectation where they should be, ESS bounds, OT marginals and mean."""

from __future__ import annotations

import math

import pytest
import torch

from models.common.sampling import (
    effective_sample_size,
    entropic_ot_resample,
    multinomial_resample,
    soft_resample,
    systematic_resample,
)
from models.common.sampling.particles import entropic_ot_plan


def _weighted_set(batch: int = 1, n: int = 8, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    log_w = torch.randn(batch, n, generator=gen, dtype=torch.float64) * 1.5
    x = torch.randn(batch, n, 2, generator=gen, dtype=torch.float64)
    return log_w, x


def test_ess_bounds() -> None:
    log_w, _ = _weighted_set(batch=50, n=16)
    ess = effective_sample_size(log_w)
    assert bool(((ess >= 1 - 1e-12) & (ess <= 16 + 1e-12)).all())
    assert math.isclose(float(effective_sample_size(torch.zeros(16))), 16.0)
    degenerate = torch.full((16,), -1e4)
    degenerate[3] = 0.0
    assert math.isclose(float(effective_sample_size(degenerate)), 1.0)


@pytest.mark.parametrize("name", ["multinomial", "systematic"])
def test_resamplers_are_unbiased_for_the_weighted_mean(name: str) -> None:
    log_w, x = _weighted_set(n=8)
    reps = 40_000
    log_w_batch, x_batch = log_w.expand(reps, 8), x.expand(reps, 8, 2)
    gen = torch.Generator().manual_seed(7)
    if name == "multinomial":
        new_log_w, new_x = multinomial_resample(log_w_batch, x_batch, gen)
    else:
        new_log_w, new_x = systematic_resample(log_w_batch, x_batch, gen)
    estimate = (torch.exp(new_log_w).unsqueeze(-1) * new_x).sum(-2).mean(0)
    target = (torch.softmax(log_w, -1).unsqueeze(-1) * x).sum(-2)[0]
    assert torch.allclose(estimate, target, atol=0.01)


def test_soft_resampling_draws_from_the_mixture_and_reweights_unbiasedly() -> None:
    # ancestors a ~ q = alpha w + (1 - alpha)/n, so (1/n) sum_a (w_a / q_a) x_a is unbiased for sum w x
    log_w, x = _weighted_set(n=8)
    reps, alpha = 40_000, 0.5
    labelled = torch.arange(8, dtype=torch.float64).reshape(1, 8, 1).expand(reps, 8, 1)
    new_log_w, picked = soft_resample(log_w.expand(reps, 8), labelled, alpha, torch.Generator().manual_seed(7))
    ancestors = picked.squeeze(-1).long()
    w = torch.softmax(log_w[0], -1)
    q = alpha * w + (1 - alpha) / 8
    estimate = ((w / q)[ancestors].unsqueeze(-1) * x[0][ancestors]).mean(-2).mean(0)
    assert torch.allclose(estimate, (w.unsqueeze(-1) * x[0]).sum(0), atol=0.01)
    # the returned weights are w_a / q_a normalised over the resampled set
    ratio = (w / q)[ancestors]
    assert torch.allclose(torch.exp(new_log_w), ratio / ratio.sum(-1, keepdim=True))


def test_systematic_counts_are_floor_or_ceil_of_n_w() -> None:
    log_w, x = _weighted_set(n=10)
    labelled = torch.arange(10, dtype=torch.float64).reshape(1, 10, 1)
    for seed in range(20):
        _, picked = systematic_resample(log_w, labelled, torch.Generator().manual_seed(seed))
        counts = torch.bincount(picked.reshape(-1).long(), minlength=10).double()
        expected = 10 * torch.softmax(log_w[0], -1)
        assert bool(((counts >= torch.floor(expected)) & (counts <= torch.ceil(expected))).all())


def test_soft_resampling_with_alpha_zero_keeps_the_weights_of_the_ancestors() -> None:
    log_w, x = _weighted_set(n=6)
    new_log_w, new_x = soft_resample(log_w, x, 0.0, torch.Generator().manual_seed(0))
    index = [int(torch.nonzero((x[0] == row).all(-1))[0]) for row in new_x[0]]
    expected = torch.softmax(log_w[0, index], -1)
    assert torch.allclose(torch.exp(new_log_w[0]), expected)


def test_entropic_ot_plan_has_the_right_marginals_and_keeps_the_mean() -> None:
    log_w, x = _weighted_set(batch=3, n=12)
    plan = entropic_ot_plan(log_w, x, epsilon=0.5, iterations=300)
    assert torch.allclose(plan.sum(-2), torch.softmax(log_w, -1), atol=1e-10)
    assert torch.allclose(plan.sum(-1), torch.full((3, 12), 1 / 12, dtype=torch.float64), atol=1e-6)
    _, moved = entropic_ot_resample(log_w, x, epsilon=0.5, iterations=300)
    weighted_mean = (torch.softmax(log_w, -1).unsqueeze(-1) * x).sum(-2)
    assert torch.allclose(moved.mean(-2), weighted_mean, atol=1e-10)


def test_entropic_ot_with_small_epsilon_approaches_the_exact_assignment() -> None:
    # equal weights: the OT plan from uniform to uniform is the identity, so particles stay put
    _, x = _weighted_set(n=10)
    _, moved = entropic_ot_resample(torch.zeros(1, 10, dtype=torch.float64), x, epsilon=0.01, iterations=500)
    assert torch.allclose(moved, x, atol=1e-3)


def test_soft_resampling_rejects_alpha_outside_unit_interval() -> None:
    log_w, x = _weighted_set()
    with pytest.raises(ValueError, match="alpha"):
        soft_resample(log_w, x, 1.5, torch.Generator())
