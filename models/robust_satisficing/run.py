"""run(params, progress): ERM fixes tau; group DRO, tilted ERM, JTT and IRS train; IRS sweeps tau."""

from __future__ import annotations

import numpy as np
import torch

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.tabular import group_mse_table, group_table, worst_group
from models.robust_satisficing.data import ShiftedData, build
from models.robust_satisficing.params import Params
from models.robust_satisficing.result import Methods, MethodScore, Result, SweepPoint
from models.robust_satisficing.tilted import tilted_loss
from models.robust_satisficing.training import (
    Fit,
    Problem,
    per_sample_losses,
    train_erm,
    train_group_dro,
    train_irs,
    train_jtt,
    train_tilted_erm,
)

__all__ = ["MAX_WORK", "run"]

MAX_WORK = 2e8  # epochs x training rows x training runs x (1 + hidden / 16)
TRACE_POINTS = 200


def _check_budget(params: Params, rows: int) -> None:
    runs = 5 + len(params.tau_sweep)
    work = params.epochs * rows * runs * (1 + params.hidden / 16)
    if work > MAX_WORK:
        raise MethodInputError(
            f"epochs: {params.epochs} epochs x {rows} rows x {runs} trainings x (1 + hidden/16) = {work:.2e}, above "
            f"the limit of {MAX_WORK:.0e}; use fewer epochs, fewer tau_sweep values, a smaller train_size or hidden")


def _score(fit: Fit, data: ShiftedData, device: str) -> MethodScore:
    with torch.no_grad():
        out = fit.model(torch.tensor(data.test.X, dtype=torch.float32, device=device)).cpu().numpy()
    assert data.test.groups is not None
    steps = fit.passes.steps
    common = {"backward_passes_per_step": fit.passes.backward_per_step,
              "forward_passes_per_step": fit.passes.forward / steps, "steps": steps, "train_loss": fit.train_loss[-1]}
    if data.regression:
        scale2 = data.target_scale**2
        predictions = out[:, 0]
        rows = group_mse_table(data.test.y * data.target_scale, predictions * data.target_scale, data.test.groups,
                               data.group_names)
        return MethodScore(average_mse=float(np.mean((predictions - data.test.y) ** 2) * scale2),
                           worst_group_mse=worst_group(rows, higher_is_better=False).score, groups=rows, **common)
    labels = out.argmax(axis=1)
    rows = group_table(data.test.y, labels, data.test.groups, data.group_names)
    return MethodScore(average_accuracy=float(np.mean(labels == data.test.y)),
                       worst_group_accuracy=worst_group(rows).score, groups=rows, **common)


def _trace(values: list[float]) -> tuple[list[int], list[float]]:
    stride = max(1, len(values) // TRACE_POINTS)
    steps = list(range(0, len(values), stride))
    return steps, [values[s] for s in steps]


def run(params: Params, progress: Progress) -> Result:
    """Train the five methods on the shifted training set, score them per group on the test set, sweep tau."""
    monotone = MonotoneProgress(progress)
    monotone(0.0, f"building the {params.dataset} data")
    data = build(params.dataset, np.random.default_rng(params.seed), train_size=params.train_size)
    _check_budget(params, data.train.n)
    device = torch_device()
    assert data.train.groups is not None and data.test.groups is not None
    problem = Problem.make(data.train.X, data.train.y, data.train.groups, regression=data.regression,
                           hidden=params.hidden, learning_rate=params.learning_rate, epochs=params.epochs,
                           seed=params.seed, device=device)
    runs = 5 + len(params.tau_sweep)
    share = 1.0 / runs

    def stage(index: int) -> Progress:
        return monotone.stage(index * share, (index + 1) * share)

    erm = train_erm(problem, stage(0))
    erm_loss = erm.train_loss[-1]
    tau = params.tau_factor * erm_loss
    dro, term, jtt = train_group_dro(problem, stage(1)), train_tilted_erm(problem, stage(2)), train_jtt(problem, stage(3))
    irs = train_irs(problem, tau, stage(4))
    scores = Methods(erm=_score(erm, data, device), group_dro=_score(dro, data, device),
                     tilted_erm=_score(term, data, device), jtt=_score(jtt, data, device), irs=_score(irs, data, device))
    with torch.no_grad():
        final = tilted_loss(per_sample_losses(irs.model, problem, problem.X, problem.y), irs.fragility[-1])
    sweep = []
    for index, factor in enumerate(params.tau_sweep):
        fit = irs if factor == params.tau_factor else train_irs(problem, factor * erm_loss, stage(5 + index))
        score = scores.irs if fit is irs else _score(fit, data, device)
        sweep.append(SweepPoint(tau_factor=factor, tau=factor * erm_loss, fragility=fit.fragility[-1],
                                average=score.average, worst_group=score.worst, train_loss=fit.train_loss[-1]))
    steps, k_trace = _trace(irs.fragility)
    monotone(1.0, "done")
    return Result(
        dataset=params.dataset, regression=data.regression, group_names=list(data.group_names),
        train_group_sizes=np.bincount(data.train.groups, minlength=len(data.group_names)).tolist(),
        test_group_sizes=np.bincount(data.test.groups, minlength=len(data.group_names)).tolist(),
        erm_train_loss=erm_loss, tau_factor=params.tau_factor, tau=tau, fragility=irs.fragility[-1],
        feasible=float(final) <= tau * (1 + 1e-3), methods=scores, sweep=sweep, trace_steps=steps,
        trace_fragility=k_trace, trace_irs_loss=[irs.train_loss[s] for s in steps],
        trace_erm_loss=[erm.train_loss[s] for s in steps],
    )
