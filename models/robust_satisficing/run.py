"""run(params, progress): per seed, ERM fixes tau on validation; baselines are tuned on validation; IRS trains."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims, seed_values
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.tabular import group_mse_table, group_table, worst_group
from models.robust_satisficing.claims import CLAIMS
from models.robust_satisficing.data import ShiftedData, build
from models.robust_satisficing.params import Params
from models.robust_satisficing.result import LABELS, Methods, MethodScore, Result, SeedScores, SweepPoint
from models.robust_satisficing.tilted import tilted_loss
from models.robust_satisficing.training import (
    Fit,
    Problem,
    jtt_errors,
    per_sample_losses,
    train_erm,
    train_group_dro,
    train_irs,
    train_jtt,
    train_tilted_erm,
)

__all__ = ["DRO_STEPS", "JTT_UPWEIGHTS", "MAX_WORK", "TERM_TILTS", "run"]

MAX_WORK = 4e8  # epochs x training rows x trainings x (1 + hidden / 16)
TRACE_POINTS = 200
DRO_STEPS = (0.01, 0.1, 1.0)  # each baseline's grid, chosen by worst-group validation score (the same rule for all)
TERM_TILTS = (0.5, 2.0, 8.0)
JTT_UPWEIGHTS = (3.0, 10.0, 30.0)
TRAININGS = 2 + len(DRO_STEPS) + len(TERM_TILTS) + len(JTT_UPWEIGHTS) + 1  # ERM, IRS, grids, JTT's first stage


def _check_budget(params: Params, rows: int) -> None:
    runs = TRAININGS * params.seeds + len(params.tau_sweep)
    work = params.epochs * rows * runs * (1 + params.hidden / 16)
    if work > MAX_WORK:
        raise MethodInputError(
            f"epochs: {params.epochs} epochs x {rows} rows x {runs} trainings x (1 + hidden/16) = {work:.2e}, above "
            f"the limit of {MAX_WORK:.0e}; use fewer epochs, seeds or tau_sweep values, a smaller train_size or hidden")


def _outputs(fit: Fit, X: np.ndarray, device: str) -> np.ndarray:
    with torch.no_grad():
        return fit.model(torch.tensor(X, dtype=torch.float32, device=device)).cpu().numpy()


def _group_scores(fit: Fit, data: ShiftedData, part: str, device: str) -> list:  # type: ignore[type-arg]
    table = getattr(data, part)
    out = _outputs(fit, table.X, device)
    if data.regression:
        s = data.target_scale
        return group_mse_table(table.y * s, out[:, 0] * s, table.groups, data.group_names)
    return group_table(table.y, out.argmax(axis=1), table.groups, data.group_names)


def _validation_worst(fit: Fit, data: ShiftedData, device: str) -> float:
    """Worst-group validation score, higher is better (minus the MSE for regression)."""
    rows = _group_scores(fit, data, "validation", device)
    return -worst_group(rows, higher_is_better=False).score if data.regression else worst_group(rows).score


def _score(fit: Fit, data: ShiftedData, device: str, setting: str) -> MethodScore:
    rows = _group_scores(fit, data, "test", device)
    out = _outputs(fit, data.test.X, device)
    by_group = np.zeros(len(data.group_names))
    for row in rows:
        by_group[row.group] = row.score
    in_dist, shifted = float(data.id_weights @ by_group), float(data.shift_weights @ by_group)
    if data.regression:
        average = float(np.mean((out[:, 0] - data.test.y) ** 2) * data.target_scale**2)
        worst, degradation = worst_group(rows, higher_is_better=False).score, shifted - in_dist
    else:
        average = float(np.mean(out.argmax(axis=1) == data.test.y))
        worst, degradation = worst_group(rows).score, in_dist - shifted
    steps = fit.passes.steps
    return MethodScore(average=average, worst=worst, in_distribution=in_dist, shifted=shifted, degradation=degradation,
                       setting=setting, validation_worst=_validation_worst(fit, data, device),
                       backward_passes_per_step=fit.passes.backward_per_step,
                       forward_passes_per_step=fit.passes.forward / steps, steps=steps, train_loss=fit.train_loss[-1],
                       groups=rows)


def _tuned(candidates: list[tuple[str, Callable[[Progress], Fit]]], data: ShiftedData, device: str,
           progress: Progress) -> MethodScore:
    """Every setting of one baseline's grid; the one with the best worst-group validation score is reported."""
    monotone = MonotoneProgress(progress)
    scores = []
    for k, (setting, train) in enumerate(candidates):
        fit = train(monotone.stage(k / len(candidates), (k + 1) / len(candidates)))
        scores.append(_score(fit, data, device, setting))
    return max(scores, key=lambda s: s.validation_worst)


def _validation_loss(fit: Fit, problem: Problem, data: ShiftedData, device: str) -> float:
    X = torch.tensor(data.validation.X, dtype=torch.float32, device=device)
    y = torch.tensor(data.validation.y, dtype=problem.y.dtype, device=device)
    with torch.no_grad():
        return float(per_sample_losses(fit.model, problem, X, y).mean())


def _problem(params: Params, data: ShiftedData, seed: int, device: str) -> Problem:
    assert data.train.groups is not None
    return Problem.make(data.train.X, data.train.y, data.train.groups, regression=data.regression,
                        hidden=params.hidden, learning_rate=params.learning_rate, epochs=params.epochs, seed=seed,
                        device=device)


def _run_seed(params: Params, seed: int, progress: Progress) -> tuple[SeedScores, dict[str, object]]:
    """One seed: data, ERM, tau from ERM's validation loss, IRS, and the three tuned baselines."""
    monotone = MonotoneProgress(progress)
    data = build(params.dataset, np.random.default_rng(seed), train_size=params.train_size)
    _check_budget(params, data.train.n)
    device = torch_device()
    problem = _problem(params, data, seed, device)
    share = 1.0 / TRAININGS
    erm = train_erm(problem, monotone.stage(0, share))
    erm_validation = _validation_loss(erm, problem, data, device)
    tau = params.tau_factor * erm_validation
    irs = train_irs(problem, tau, monotone.stage(share, 2 * share))
    errors = jtt_errors(problem, monotone.stage(2 * share, 3 * share))
    dro = _tuned([(f"eta = {s:g}", partial(train_group_dro, problem, eta=s)) for s in DRO_STEPS], data, device,
                 monotone.stage(3 * share, 6 * share))
    term = _tuned([(f"t = {t:g}", partial(train_tilted_erm, problem, tilt=t)) for t in TERM_TILTS], data, device,
                  monotone.stage(6 * share, 9 * share))
    jtt = _tuned([(f"upweight {u:g}", partial(train_jtt, problem, upweight=u, errors=errors)) for u in JTT_UPWEIGHTS],
                 data, device, monotone.stage(9 * share, 1.0))
    with torch.no_grad():
        final = tilted_loss(per_sample_losses(irs.model, problem, problem.X, problem.y), irs.fragility[-1])
    methods = Methods(erm=_score(erm, data, device, "—"), group_dro=dro, tilted_erm=term, jtt=jtt,
                      irs=_score(irs, data, device, f"tau = {params.tau_factor:g} x ERM validation loss"))
    scores = SeedScores(seed=seed, methods=methods, tau=tau, fragility=irs.fragility[-1],
                        feasible=float(final) <= tau * (1 + 1e-3))
    return scores, {"data": data, "problem": problem, "erm": erm, "irs": irs, "erm_validation": erm_validation}


def _sweep(params: Params, first: dict[str, object], progress: Progress) -> list[SweepPoint]:
    data, problem, erm_validation = first["data"], first["problem"], first["erm_validation"]
    assert isinstance(data, ShiftedData) and isinstance(problem, Problem) and isinstance(erm_validation, float)
    monotone = MonotoneProgress(progress)
    points = []
    for k, factor in enumerate(params.tau_sweep):
        fit = train_irs(problem, factor * erm_validation, monotone.stage(k / len(params.tau_sweep),
                                                                         (k + 1) / len(params.tau_sweep)))
        score = _score(fit, data, torch_device(), "")
        points.append(SweepPoint(tau_factor=factor, tau=factor * erm_validation, fragility=fit.fragility[-1],
                                 average=score.average, worst_group=score.worst, degradation=score.degradation,
                                 train_loss=fit.train_loss[-1]))
    return points


def _measure(runs: list[SeedScores], regression: bool) -> dict[str, list[Measurement]]:
    measured: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for s in runs:
        erm, irs = s.methods.erm, s.methods.irs
        note = "regression: the accuracy claims are not measured" if regression else ""
        measured["worst_group"].append(Measurement(None if regression else 100 * (irs.worst - erm.worst),
                                                   floor_ok=s.feasible, note=note))
        measured["average"].append(Measurement(None if regression else 100 * (irs.average - erm.average), note=note))
        measured["degradation"].append(Measurement(None if regression else 100 * (irs.degradation - erm.degradation),
                                                   note=note))
        measured["one_pass"].append(Measurement(irs.backward_passes_per_step,
                                                floor_ok=irs.forward_passes_per_step == 1.0))
    return measured


def _trace(values: list[float]) -> tuple[list[int], list[float]]:
    stride = max(1, len(values) // TRACE_POINTS)
    steps = list(range(0, len(values), stride))
    return steps, [values[s] for s in steps]


def run(params: Params, progress: Progress) -> Result:
    """Every seed (ERM, IRS at the rule's tau, tuned group DRO / tilted ERM / JTT), the sweep on the first seed."""
    seeds = seed_values(params.seed, params.seeds)
    monotone = MonotoneProgress(progress)
    sweep_share = 0.2 if params.tau_sweep else 0.0
    width = (1.0 - sweep_share) / len(seeds)
    outcomes = [_run_seed(params, seed, monotone.stage(k * width, (k + 1) * width)) for k, seed in enumerate(seeds)]
    runs = [o[0] for o in outcomes]
    first = outcomes[0][1]
    sweep = _sweep(params, first, monotone.stage(1.0 - sweep_share, 1.0))
    data, erm, irs = first["data"], first["erm"], first["irs"]
    assert isinstance(data, ShiftedData) and isinstance(erm, Fit) and isinstance(irs, Fit)
    assert data.train.groups is not None and data.test.groups is not None
    steps, k_trace = _trace(irs.fragility)
    free = ("erm", "tilted_erm", "jtt", "irs")  # methods that do not use training group labels
    standing = None if data.regression else Standing(
        metric="worst-group test accuracy (%), methods without training group labels", lower_is_better=False,
        method="irs", scores={k: 100 * float(np.mean([getattr(s.methods, k).worst for s in runs])) for k in free},
        labels={k: LABELS[k] for k in free})
    monotone(1.0, "done")
    return Result(
        dataset=params.dataset, regression=data.regression, group_names=list(data.group_names),
        shift_name=data.shift_name,
        train_group_sizes=np.bincount(data.train.groups, minlength=len(data.group_names)).tolist(),
        test_group_sizes=np.bincount(data.test.groups, minlength=len(data.group_names)).tolist(),
        erm_validation_loss=float(first["erm_validation"]),  # type: ignore[arg-type]
        tau_factor=params.tau_factor, tau=runs[0].tau, fragility=runs[0].fragility, feasible=runs[0].feasible,
        seeds_run=runs, sweep=sweep, trace_steps=steps, trace_fragility=k_trace,
        trace_irs_loss=[irs.train_loss[s] for s in steps], trace_erm_loss=[erm.train_loss[s] for s in steps],
        claims=evaluate_claims(CLAIMS, _measure(runs, data.regression), seeds), standing=standing,
    )

