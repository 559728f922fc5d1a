"""Training loops: one forward and one backward pass per step for every method, seeded and deterministic."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from models.common.contract import no_progress
from models.robust_satisficing.irs import (
    TAU_FLOOR,
    TAU_MULTIPLIER,
    WARMUP_SHARE,
    IRSWeights,
    irs_weights,
    train_irs,
)
from models.robust_satisficing.tilted import maximise_along_path
from models.robust_satisficing.training import (
    Fit,
    GroupDROWeights,
    PassCount,
    Problem,
    erm_weights,
    tilted_erm_weights,
    train_erm,
    train_group_dro,
    train_jtt,
    train_many,
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

    torch.Tensor.backward = counting  # type: ignore[method-assign]
    try:
        fit = train_irs(small_problem, no_progress)
    finally:
        torch.Tensor.backward = original  # type: ignore[method-assign]
    assert calls["n"] == fit.passes.backward == fit.passes.steps == small_problem.epochs
    assert fit.passes.backward_per_step == 1.0
    warmup = max(1, round(WARMUP_SHARE * small_problem.epochs))
    assert len(fit.fragility) == len(fit.tau) == len(fit.kl) == small_problem.epochs - warmup


def test_irs_weights_are_the_tilted_group_loss_over_kl(small_problem: Problem) -> None:
    """Row weights = p*_g / (n_g KL): sum_i w_i l_i = sum_g p*_g l_g / KL, with tau = max(1.01 L0, 0.1) and p* the
    path maximiser; during the warm-up the weights are 1 / n."""
    fit = Fit(torch.nn.Identity(), PassCount())
    weighting = IRSWeights(small_problem.groups, small_problem.n_groups, warmup=2, fit=fit)
    n = small_problem.X.shape[0]
    losses = torch.rand(n, generator=torch.Generator().manual_seed(2), dtype=torch.float32) + 0.5
    assert torch.allclose(weighting(losses, 1), torch.full((n,), 1.0 / n))
    weights = weighting(losses, 2)
    counts = torch.bincount(small_problem.groups).to(torch.float32)
    group_loss = torch.zeros(len(counts)).index_add_(0, small_problem.groups, losses) / counts
    prior = counts / n
    tau = max(TAU_MULTIPLIER * float(prior @ group_loss), TAU_FLOOR)
    point = maximise_along_path(group_loss, prior, tau)
    assert fit.tau == [pytest.approx(tau)] and fit.kl == [pytest.approx(point.kl)]
    assert float(weights @ losses) == pytest.approx(float(point.p.float() @ group_loss) / point.kl, rel=1e-5)
    per_group = torch.zeros(len(counts)).index_add_(0, small_problem.groups, weights) * point.kl
    assert torch.allclose(per_group, point.p.float(), atol=1e-5)
    worst = group_loss.argmax()
    assert float(per_group[worst]) > float(prior[worst])  # the tilt moves mass to the highest-loss group


def test_a_looser_target_tilts_further(small_problem: Problem) -> None:
    kls = [train_irs(small_problem, no_progress, tau_multiplier=m).kl[-1] for m in (1.01, 1.5)]
    assert kls[0] < kls[1]


def test_same_seed_same_numbers(small_problem: Problem) -> None:
    a = train_irs(small_problem, no_progress)
    b = train_irs(small_problem, no_progress)
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


@pytest.mark.parametrize("hidden", [0, 8])
def test_side_by_side_training_equals_each_training_alone(small_problem: Problem, hidden: int) -> None:
    """train_many (stacked copies, one backward of the summed objectives) gives every method exactly the losses and
    the model it gets trained alone."""
    problem = dataclasses.replace(small_problem, hidden=hidden)
    alone = [train_erm(problem, no_progress), train_group_dro(problem, no_progress, eta=1.0),
             train_tilted_erm(problem, no_progress, tilt=2.0), train_irs(problem, no_progress)]
    irs = irs_weights(problem)
    together = train_many(problem, [erm_weights(problem), GroupDROWeights(problem.groups, problem.n_groups, 1.0),
                                    tilted_erm_weights(2.0), irs], no_progress, "all",
                          fits=[Fit(torch.nn.Identity(), PassCount()) for _ in range(3)] + [irs.fit])
    assert len({tuple(f.train_loss) for f in together}) == 4  # the methods differ
    for one, other in zip(alone, together, strict=True):
        assert one.train_loss == pytest.approx(other.train_loss, rel=1e-6, abs=1e-7)
        with torch.no_grad():
            assert torch.allclose(one.model(problem.X), other.model(problem.X), atol=1e-5)
        assert other.passes.backward == other.passes.steps == problem.epochs
    assert alone[3].kl == pytest.approx(together[3].kl, rel=1e-5, abs=1e-9)
