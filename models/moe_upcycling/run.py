"""run(params, progress): per seed, the class-incremental digit stream, then each learner in turn; the
claims are judged over the seeds."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.continual import backward_transfer, class_incremental_tasks, one_thread
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.moe_upcycling.claims import CLAIMS
from models.moe_upcycling.learners import LEARNERS, LearnerOutcome, train_learner
from models.moe_upcycling.network import UpcycleNet
from models.moe_upcycling.params import Params
from models.moe_upcycling.result import LABELS, LearnerMetrics, Result, SearchSummary, SeedMetrics
from models.moe_upcycling.search import DECIDED

__all__ = ["WORK_LIMIT", "run", "work_units"]

# seeds x epochs x blocks x experts x (width / 64)^2: the defaults are 72 units (~20 s on one core)
WORK_LIMIT = 400.0


def work_units(params: Params) -> float:
    """A cost estimate proportional to the training time of the learners over all seeds."""
    return params.seeds * params.epochs_per_task * params.layers * params.experts * (params.width / 64) ** 2


def _drift(outcome: LearnerOutcome) -> dict[str, float]:
    per_layer = np.mean(np.asarray(outcome.cka_per_transition), axis=0)
    return {f"layer_{layer + 1}": float(1.0 - v) for layer, v in enumerate(per_layer)}


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> tuple[list[str], dict[str, LearnerOutcome]]:
    monotone = MonotoneProgress(progress)
    tasks = class_incremental_tasks(params.tasks, np.random.default_rng(seed))
    init = UpcycleNet(64, params.width, params.layers, 10, torch.Generator().manual_seed(seed)).state_dict()
    outcomes: dict[str, LearnerOutcome] = {}
    for k, name in enumerate(LEARNERS):
        stage = monotone.stage(k / len(LEARNERS), (k + 1) / len(LEARNERS))

        def report(fraction: float, message: str = "", stage: Progress = stage) -> None:
            stage(fraction, f"seed {seed}, {message}")

        outcomes[name] = train_learner(name, tasks, params, seed, device, init, report)
    return [t.name for t in tasks], outcomes


def _metrics(o: LearnerOutcome) -> LearnerMetrics:
    return LearnerMetrics(average_accuracy=o.matrix.average_accuracy(), forgetting=o.matrix.forgetting(),
                          backward_transfer=backward_transfer(o.matrix.values), added_parameters=o.added_parameters,
                          seconds=o.seconds)


def _decided(o: LearnerOutcome) -> float:
    probabilities = [p for row in o.keep_probability for p in row]
    return min((abs(p - 0.5) for p in probabilities), default=0.0)


def image_accuracy(o: LearnerOutcome, tasks: int) -> np.ndarray:
    """Per test image of every task, 100 x correct x N / (T n_task) after the last task: the mean over all
    images is the average accuracy over the tasks (in points), whatever the tasks' sizes."""
    final = [o.correct[(tasks - 1, j)] for j in range(tasks)]
    total = sum(len(c) for c in final)
    return np.concatenate([100.0 * c * total / (tasks * len(c)) for c in final])


def cka_filter_fraction(sel: LearnerOutcome, params: Params) -> float:
    """The trivial reference of the params claim: keep every copy of the CKA-favoured layers (no search)."""
    return len(sel.candidates) / params.layers


def _measure(methods: dict[str, LearnerMetrics], outcomes: dict[str, LearnerOutcome], params: Params,
             ) -> dict[str, Measurement]:
    s, full, naive, replay = (methods[n] for n in ("selective", "full_upcycling", "naive", "replay"))
    sel = outcomes["selective"]
    kept = sum(len(k) for k in sel.kept_blocks)
    decided = _decided(sel) >= 0.5 - DECIDED
    upcycling_helps = full.average_accuracy > replay.average_accuracy
    note = (f"{kept} copies kept; min |P(keep) - 1/2| = {_decided(sel):.2f}; full upcycling "
            f"{'beats' if upcycling_helps else 'does not beat'} replay only")
    gap = image_accuracy(sel, params.tasks) - image_accuracy(outcomes["full_upcycling"], params.tasks)
    return {
        "params": measurement(s.added_parameters / full.added_parameters, floor_ok=kept > 0 and decided, note=note,
                              null=cka_filter_fraction(sel, params)),
        "accuracy": measurement(float(gap.mean()), floor_ok=kept > 0 and upcycling_helps, note=note, units=gap,
                                null=100 * (replay.average_accuracy - full.average_accuracy)),
        "forgetting": measurement(s.forgetting / naive.forgetting if naive.forgetting > 0 else None,
                                  null=replay.forgetting / naive.forgetting if naive.forgetting > 0 else None),
        "forgetting_full": measurement(100 * (s.forgetting - full.forgetting),
                                       null=100 * (replay.forgetting - full.forgetting)),
    }


def measurement(value: float | None, *, floor_ok: bool = True, note: str = "", units: np.ndarray | None = None,
                null: float | None = None) -> Measurement:
    """One seed's measurement with its per-unit values and the trivial reference's value."""
    return Measurement(value, floor_ok=floor_ok, note=note, units=None if units is None else units.tolist(), null=null)


def _search(sel: LearnerOutcome, params: Params) -> SearchSummary:
    return SearchSummary(
        keep_probability=sel.keep_probability, kept_blocks=sel.kept_blocks, expected_kept_trace=sel.search_trace,
        candidate_blocks=params.layers * (params.experts - 1), probe_drift=sel.probe_drift,
        candidate_layers=[c + 1 for c in sel.candidates], decided=_decided(sel), outer_steps=sel.outer_steps,
        search_seconds=sel.search_seconds,
    )


def run(params: Params, progress: Progress) -> Result:
    """Train naive, replay, LwF, full and selective upcycling on the same stream per seed (one torch thread)."""
    units = work_units(params)
    if units > WORK_LIMIT:
        raise MethodInputError(
            f"seeds x epochs_per_task x layers x experts x (width/64)^2 = {units:.0f} is above the limit of "
            f"{WORK_LIMIT:.0f}; lower seeds, epochs_per_task, experts, layers or width"
        )
    start = time.perf_counter()
    device = torch_device()
    seeds = seed_values(params.seed, params.seeds)
    with one_thread():
        runs = run_seeds(seeds, lambda s, p: _one_seed(params, s, device, p), progress)
    per_seed = []
    measured = []
    for seed, (_, outcomes) in zip(seeds, runs, strict=True):
        methods = {name: _metrics(o) for name, o in outcomes.items()}
        sel = outcomes["selective"]
        per_seed.append(SeedMetrics(seed=seed, methods=methods, kept_copies=sum(len(k) for k in sel.kept_blocks),
                                    decided=_decided(sel)))
        measured.append(_measure(methods, outcomes, params))
    names, first = runs[0]
    result = Result(
        tasks=names, methods=per_seed[0].methods, per_seed=per_seed,
        accuracy_matrix={name: o.matrix.rows() for name, o in first.items()},
        cka_drift=_drift(first["naive"]), cka_drift_by_method={name: _drift(o) for name, o in first.items()},
        cka_per_transition={name: o.cka_per_transition for name, o in first.items()},
        search=_search(first["selective"], params), seconds=time.perf_counter() - start,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds),
    )
    result.standing = Standing(
        metric="average accuracy (%)", lower_is_better=False, method="selective",
        seed_scores={n: [100 * s.methods[n].average_accuracy for s in per_seed] for n in LEARNERS},
        unit_scores={n: [image_accuracy(o[n], params.tasks).tolist() for _, o in runs] for n in LEARNERS},
        labels=LABELS)
    return result
