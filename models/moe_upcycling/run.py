"""run(params, progress): the class-incremental digit stream, then each learner in turn."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.common.continual import backward_transfer, class_incremental_tasks
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.moe_upcycling.learners import LEARNERS, LearnerOutcome, train_learner
from models.moe_upcycling.network import UpcycleNet
from models.moe_upcycling.params import Params
from models.moe_upcycling.result import Checks, LearnerMetrics, Result, SearchSummary

__all__ = ["WORK_LIMIT", "run", "work_units"]

# epochs x blocks x experts x (width / 64)^2: the defaults are 72 units (~17 s on one core)
WORK_LIMIT = 300.0


def work_units(params: Params) -> float:
    """A cost estimate proportional to the training time of the four learners."""
    return params.epochs_per_task * params.layers * params.experts * (params.width / 64) ** 2


def _drift(outcome: LearnerOutcome) -> dict[str, float]:
    per_layer = np.mean(np.asarray(outcome.cka_per_transition), axis=0)
    return {f"layer_{layer + 1}": float(1.0 - v) for layer, v in enumerate(per_layer)}


def _checks(methods: dict[str, LearnerMetrics]) -> Checks:
    sel, full, naive = methods["selective"], methods["full_upcycling"], methods["naive"]
    ratio = sel.added_parameters / full.added_parameters if full.added_parameters else 0.0
    gap = sel.average_accuracy - full.average_accuracy
    f_ratio = sel.forgetting / naive.forgetting if naive.forgetting > 0 else float("inf")
    return Checks(
        parameters_at_most_half=ratio <= 0.5,
        accuracy_within_two_points=gap >= -0.02,
        forgetting_at_most_half_of_naive=f_ratio <= 0.5,
        parameter_ratio=ratio,
        accuracy_gap=gap,
        forgetting_ratio=f_ratio,
    )


def run(params: Params, progress: Progress) -> Result:
    """Train naive, replay, full and selective upcycling on the same stream; compare R, CKA and parameters."""
    units = work_units(params)
    if units > WORK_LIMIT:
        raise MethodInputError(
            f"epochs_per_task x layers x experts x (width/64)^2 = {units:.0f} is above the limit of "
            f"{WORK_LIMIT:.0f}; lower epochs_per_task, experts, layers or width"
        )
    start = time.perf_counter()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the task stream")
    device = torch_device()
    tasks = class_incremental_tasks(params.tasks, np.random.default_rng(params.seed))
    init = UpcycleNet(64, params.width, params.layers, 10, torch.Generator().manual_seed(params.seed)).state_dict()
    outcomes: dict[str, LearnerOutcome] = {}
    for k, name in enumerate(LEARNERS):
        stage = monotone.stage(k / len(LEARNERS), (k + 1) / len(LEARNERS))
        outcomes[name] = train_learner(name, tasks, params, device, init, stage)
    methods = {
        name: LearnerMetrics(
            average_accuracy=o.matrix.average_accuracy(),
            forgetting=o.matrix.forgetting(),
            backward_transfer=backward_transfer(o.matrix.values),
            added_parameters=o.added_parameters,
        )
        for name, o in outcomes.items()
    }
    sel = outcomes["selective"]
    monotone(1.0, "done")
    return Result(
        tasks=[t.name for t in tasks],
        methods=methods,
        accuracy_matrix={name: o.matrix.rows() for name, o in outcomes.items()},
        cka_drift=_drift(outcomes["naive"]),
        cka_drift_by_method={name: _drift(o) for name, o in outcomes.items()},
        cka_per_transition={name: o.cka_per_transition for name, o in outcomes.items()},
        search=SearchSummary(
            keep_probability=sel.keep_probability,
            kept_blocks=sel.kept_blocks,
            expected_kept_trace=sel.search_trace,
            candidate_blocks=params.layers * (params.experts - 1),
        ),
        checks=_checks(methods),
        seconds=time.perf_counter() - start,
    )
