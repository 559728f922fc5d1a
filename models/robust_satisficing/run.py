"""run(params, progress): per seed ERM, IRS (tau tied to the current loss), and the baselines tuned on validation."""

from __future__ import annotations

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.grids import best_on_grid
from models.common.progress import MonotoneProgress
from models.common.seeds import seed_values
from models.common.tabular import group_mse_table, group_table, worst_group
from models.robust_satisficing.claims import CLAIMS
from models.robust_satisficing.data import ShiftedData, build
from models.robust_satisficing.irs import irs_weights
from models.robust_satisficing.params import Params
from models.robust_satisficing.result import (
    LABELS,
    METHODS,
    Methods,
    MethodScore,
    Result,
    SeedScores,
    SweepPoint,
)
from models.robust_satisficing.training import (
    JTT_FRACTION,
    Fit,
    GroupDROWeights,
    PassCount,
    Problem,
    Weighting,
    erm_weights,
    jtt_errors,
    jtt_weights,
    make_model,
    per_sample_losses,
    tilted_erm_weights,
    train_many,
)

__all__ = ["DRO_STEPS", "JTT_UPWEIGHTS", "MAX_WORK", "TERM_TILTS", "run"]

MAX_WORK = 4e8  # epochs x training rows x trainings x (1 + hidden / 16)
TRACE_POINTS = 200
DRO_STEPS = (0.01, 0.1, 1.0, 10.0, 100.0)  # each baseline's grid, chosen by worst-group validation score (the same rule for all)
TERM_TILTS = (0.1, 0.5, 2.0, 8.0)
JTT_UPWEIGHTS = (1.5, 3.0, 10.0, 30.0)
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


def _chosen(scores: list[MethodScore]) -> MethodScore:
    """The grid setting with the best worst-group validation score (the first of equal ones) is reported."""
    return max(scores, key=lambda s: s.validation_worst)


def _problem(params: Params, data: ShiftedData, seed: int, device: str) -> Problem:
    assert data.train.groups is not None
    return Problem.make(data.train.X, data.train.y, data.train.groups, regression=data.regression,
                        hidden=params.hidden, learning_rate=params.learning_rate, epochs=params.epochs, seed=seed,
                        device=device)


KL_ACTIVE = 1e-3  # nats: IRS's final tilt counts as active (the method reweights) above this KL(p* || p0)


Units = dict[str, np.ndarray] | None


def _grid(problem: Problem, errors: tuple[torch.Tensor, Fit]) -> list[tuple[str, str, Weighting, Fit | None]]:
    """(method, setting, weighting, fit) of every training after JTT's first stage: ERM, IRS and each baseline's grid."""
    jtt = [(f"upweight {u:g}", *jtt_weights(errors, u)) for u in JTT_UPWEIGHTS]
    return ([("erm", "—", erm_weights(problem), None)]
            + [("group_dro", f"eta = {s:g}", GroupDROWeights(problem.groups, problem.n_groups, s), None)
               for s in DRO_STEPS]
            + [("tilted_erm", f"t = {t:g}", tilted_erm_weights(t), None) for t in TERM_TILTS]
            + [("jtt", setting, weighting, fit) for setting, weighting, fit in jtt])


def _run_seed(params: Params, seed: int, progress: Progress) -> tuple[SeedScores, dict[str, object], Units]:
    """One seed: data, JTT's first stage, then ERM, IRS and the baselines' grids trained side by side."""
    monotone = MonotoneProgress(progress)
    data = build(params.dataset, np.random.default_rng(seed), train_size=params.train_size)
    _check_budget(params, data.train.n)
    device = torch_device()
    problem = _problem(params, data, seed, device)
    errors = jtt_errors(problem, monotone.stage(0.0, JTT_FRACTION / (1 + JTT_FRACTION)))
    irs_weighting = irs_weights(problem, params.tau_multiplier)
    grid = _grid(problem, errors)
    fits = train_many(problem, [irs_weighting] + [g[2] for g in grid],
                      monotone.stage(JTT_FRACTION / (1 + JTT_FRACTION), 1.0), "ERM, IRS and the baselines",
                      fits=[irs_weighting.fit] + [g[3] or Fit(torch.nn.Identity(), PassCount()) for g in grid])
    irs, trained = fits[0], dict(zip([(g[0], g[1]) for g in grid], fits[1:], strict=True))
    erm = trained[("erm", "—")]
    scored = {key: _score(fit, data, device, key[1]) for key, fit in trained.items()}
    chosen, grids = {}, []
    for key, tuned, param, values in (("group_dro", "group DRO", "eta", DRO_STEPS),
                                      ("tilted_erm", "tilted ERM", "t", TERM_TILTS),
                                      ("jtt", "JTT", "upweight", JTT_UPWEIGHTS)):
        candidates = [score for (k, _), score in scored.items() if k == key]
        chosen[key] = _chosen(candidates)
        grids.append(best_on_grid(tuned, param, values, [s.validation_worst for s in candidates],
                                  lower_is_better=False))
    model = make_model(problem)
    with torch.no_grad():
        initial_loss = float(per_sample_losses(model, problem, problem.X, problem.y).mean())
    untrained = Fit(model, PassCount(1, 0, 1), train_loss=[initial_loss])
    methods = Methods(erm=scored[("erm", "—")], irs=_score(irs, data, device,
                                                           f"tau = max({params.tau_multiplier:g} x loss, 0.1)"),
                      **chosen)
    scores = SeedScores(seed=seed, methods=methods, untrained=_score(untrained, data, device, "initialisation"),
                        tau=irs.tau[-1], fragility=irs.fragility[-1], kl=irs.kl[-1], tilted=irs.kl[-1] > KL_ACTIVE)
    units = None if data.regression else _units(irs, erm, untrained, data, device)
    return scores, {"data": data, "problem": problem, "erm": erm, "irs": irs, "grids": grids}, units


def _sweep(params: Params, first: dict[str, object], progress: Progress) -> list[SweepPoint]:
    data, problem = first["data"], first["problem"]
    assert isinstance(data, ShiftedData) and isinstance(problem, Problem)
    if not params.tau_sweep:
        return []
    weightings = [irs_weights(problem, factor) for factor in params.tau_sweep]
    fits = train_many(problem, list(weightings), progress, "IRS, tau sweep", fits=[w.fit for w in weightings])
    points = []
    for factor, fit in zip(params.tau_sweep, fits, strict=True):
        score = _score(fit, data, torch_device(), "")
        points.append(SweepPoint(tau_multiplier=factor, tau=fit.tau[-1], fragility=fit.fragility[-1], kl=fit.kl[-1],
                                 average=score.average, worst_group=score.worst, degradation=score.degradation,
                                 train_loss=fit.train_loss[-1]))
    return points


def _correct(fit: Fit, data: ShiftedData, device: str) -> np.ndarray:
    return (_outputs(fit, data.test.X, device).argmax(axis=1) == data.test.y).astype(float)


def _units(irs: Fit, erm: Fit, untrained: Fit, data: ShiftedData, device: str) -> dict[str, np.ndarray]:
    """Per test point: 100 (correct_IRS - correct_ERM) (their mean: the average-accuracy difference), and the same
    weighted by n (id_w[g] - shift_w[g]) / n_g (their mean: the difference of the drops under shift); the
    untrained network's versions (the null)."""
    assert data.test.groups is not None
    n = len(data.test.y)
    sizes = np.bincount(data.test.groups, minlength=len(data.group_names)).astype(float)
    weight = n * (data.id_weights - data.shift_weights)[data.test.groups] / sizes[data.test.groups]
    erm_correct = _correct(erm, data, device)
    out = {}
    for name, fit in (("irs", irs), ("null", untrained)):
        diff = 100 * (_correct(fit, data, device) - erm_correct)
        out[f"{name}_average"], out[f"{name}_degradation"] = diff, weight * diff
    return out


def _measure(runs: list[SeedScores], units: list[Units]) -> dict[str, list[Measurement]]:
    measured: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for k, s in enumerate(runs):
        erm, irs, null = s.methods.erm, s.methods.irs, s.untrained
        measured["one_pass"].append(Measurement(irs.backward_passes_per_step,
                                                floor_ok=irs.forward_passes_per_step == 1.0))
        u = units[k]
        if u is None:
            note = "regression: the accuracy claims are not measured"
            for key in ("worst_group", "average", "degradation"):
                measured[key].append(Measurement(None, note=note))
            continue
        measured["worst_group"].append(Measurement(100 * (irs.worst - erm.worst), floor_ok=s.tilted,
                                                   null=100 * (null.worst - erm.worst)))
        measured["average"].append(Measurement(float(np.mean(u["irs_average"])), units=u["irs_average"].tolist(),
                                               null=float(np.mean(u["null_average"]))))
        measured["degradation"].append(Measurement(float(np.mean(u["irs_degradation"])),
                                                   units=u["irs_degradation"].tolist(),
                                                   null=float(np.mean(u["null_degradation"]))))
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
    warmup = len(irs.train_loss) - len(irs.fragility)
    steps, k_trace = _trace(irs.fragility)
    standing = None if data.regression else Standing(
        metric="worst-group test accuracy (%)", lower_is_better=False, method="irs",
        seed_scores={k: [100 * getattr(s.methods, k).worst for s in runs] for k in METHODS},
        labels=dict(LABELS))
    monotone(1.0, "done")
    return Result(
        dataset=params.dataset, regression=data.regression, group_names=list(data.group_names),
        shift_name=data.shift_name,
        train_group_sizes=np.bincount(data.train.groups, minlength=len(data.group_names)).tolist(),
        test_group_sizes=np.bincount(data.test.groups, minlength=len(data.group_names)).tolist(),
        tau_multiplier=params.tau_multiplier, tau=runs[0].tau, fragility=runs[0].fragility, kl=runs[0].kl,
        tilted=runs[0].tilted, seeds_run=runs, sweep=sweep, warmup_steps=warmup,
        trace_steps=[warmup + s for s in steps], trace_fragility=k_trace,
        trace_tau=[irs.tau[s] for s in steps], trace_kl=[irs.kl[s] for s in steps],
        trace_irs_loss=[irs.train_loss[warmup + s] for s in steps],
        trace_erm_loss=[erm.train_loss[warmup + s] for s in steps],
        grids=first["grids"],  # type: ignore[arg-type]
        claims=evaluate_claims(CLAIMS, _measure(runs, [o[2] for o in outcomes]), seeds), standing=standing,
    )

