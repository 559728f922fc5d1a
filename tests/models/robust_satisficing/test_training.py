"""Training loops: one forward and one backward pass per step for every method, seeded and deterministic."""

from __future__ import annotations

import pytest
import torch

from models.common.contract import no_progress
from models.robust_satisficing.tilted import K_MAX, tilted_loss
from models.robust_satisficing.training import (
    GroupDROWeights,
    Problem,
    per_sample_losses,
    train_erm,
    train_group_dro,
    train_irs,
    train_jtt,
    train_tilted_erm,
)


@pytest.mark.parametrize("trainer", [train_erm, train_group_dro, train_tilted_erm, train_jtt])
def test_every_baseline_takes_one_backward_pass_per_step(small_problem: Problem, trainer) -> None:  # type: ignore[no-untyped-def]
    fit = trainer(small_problem, no_progress)
    assert fit.passes.steps == small_problem.epochs + (12 if trainer is train_jtt else 0)
    assert fit.passes.backward == fit.passes.forward == fit.passes.steps


def test_irs_takes_one_backward_pass_per_step_and_counts_them(small_problem: Problem) -> None:
    calls = {"n": 0}
    original = torch.Tensor.backward

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        return original(self, *args, **kwargs)

    erm = train_erm(small_problem, no_progress)
    torch.Tensor.backward = counting  # type: ignore[method-assign]
    try:
        fit = train_irs(small_problem, 1.1 * erm.train_loss[-1], no_progress)
    finally:
        torch.Tensor.backward = original  # type: ignore[method-assign]
    assert calls["n"] == fit.passes.backward == fit.passes.steps == small_problem.epochs
    assert fit.passes.backward_per_step == 1.0
    assert len(fit.fragility) == small_problem.epochs


def test_irs_meets_its_target_and_lowers_k(small_problem: Problem) -> None:
    erm = train_erm(small_problem, no_progress)
    tau = 1.2 * erm.train_loss[-1]
    fit = train_irs(small_problem, tau, no_progress)
    assert fit.fragility[0] == K_MAX  # at the start the mean loss is above tau: an ERM step
    assert fit.fragility[-1] < K_MAX
    with torch.no_grad():
        final = tilted_loss(per_sample_losses(fit.model, small_problem, small_problem.X, small_problem.y),
                            fit.fragility[-1])
    assert float(final) <= tau * 1.01


def test_a_looser_target_allows_a_smaller_k(small_problem: Problem) -> None:
    erm = train_erm(small_problem, no_progress)
    ks = [train_irs(small_problem, f * erm.train_loss[-1], no_progress).fragility[-1] for f in (1.1, 1.5, 2.0)]
    assert ks[0] > ks[1] > ks[2]


def test_same_seed_same_numbers(small_problem: Problem) -> None:
    a = train_irs(small_problem, 0.3, no_progress)
    b = train_irs(small_problem, 0.3, no_progress)
    assert a.train_loss == b.train_loss and a.fragility == b.fragility


def test_group_dro_first_update_is_softmax_of_eta_times_group_losses(small_problem: Problem) -> None:
    """After one step q = softmax(eta L_g) (from uniform), whatever the iteration index passed along."""
    losses = torch.rand(small_problem.X.shape[0], generator=torch.Generator().manual_seed(1))
    counts = torch.bincount(small_problem.groups, minlength=small_problem.n_groups).to(torch.float32)
    group_loss = torch.zeros(small_problem.n_groups).index_add_(0, small_problem.groups, losses) / counts
    for eta in (0.01, 1.0):
        weights = GroupDROWeights(small_problem.groups, small_problem.n_groups, eta)(losses, 0)
        q = torch.softmax(eta * group_loss, dim=0)
        assert torch.allclose(weights, (q / counts)[small_problem.groups], atol=1e-7)
        assert float(weights.sum()) == pytest.approx(1.0, abs=1e-5)
    second = GroupDROWeights(small_problem.groups, small_problem.n_groups, 0.5)
    second(losses, 0)
    weights = second(losses, 123)  # two steps: q = softmax(2 eta L_g); the index 123 must not enter
    q = torch.softmax(2 * 0.5 * group_loss, dim=0)
    assert torch.allclose(weights, (q / counts)[small_problem.groups], atol=1e-7)


def test_group_dro_step_size_changes_the_model(small_problem: Problem) -> None:
    small = train_group_dro(small_problem, no_progress, eta=0.001)
    large = train_group_dro(small_problem, no_progress, eta=1.0)
    assert small.train_loss[-1] != large.train_loss[-1]
