"""run(params, progress): split the digits over the clients, plan the drift, then FedAvg, FedProx and RC-FCL."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.common.continual import digits_dataset, dirichlet_split, train_test_split_indices
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.rc_fcl.concepts import plan_drift
from models.rc_fcl.federation import METHODS, Federation, MethodTrace, make_model, run_method
from models.rc_fcl.params import Params
from models.rc_fcl.result import ClientDrift, Detection, MethodCurves, MethodSummary, Result

__all__ = ["MIN_EXAMPLES", "build_federation", "detection_rates", "run"]

MIN_EXAMPLES = 20  # per client, so that every client can fit a reference and train


def build_federation(params: Params) -> Federation:
    rng = np.random.default_rng(params.seed)
    x, y = digits_dataset()
    train_idx, test_idx = train_test_split_indices(y, 0.25, rng)
    try:
        parts = dirichlet_split(y[train_idx], params.clients, params.dirichlet_alpha, rng, min_size=MIN_EXAMPLES,
                                attempts=200)
    except ValueError as exc:
        raise MethodInputError(
            f"dirichlet_alpha {params.dirichlet_alpha:g} with {params.clients} clients: no split in 200 draws gave "
            f"every client {MIN_EXAMPLES} examples; raise dirichlet_alpha or lower clients"
        ) from exc
    client_x = [x[train_idx[p]] for p in parts]
    client_y = [y[train_idx[p]] for p in parts]
    plans = plan_drift(client_y, params.rounds, params.drift_magnitude, rng)
    participates = rng.random((params.rounds, params.clients)) < params.participation
    participates[0] = True  # every client starts with the first round (it fits its reference then)
    init = make_model(torch.Generator().manual_seed(params.seed)).state_dict()
    x_test, y_test = x[test_idx], y[test_idx]
    return Federation(
        client_x, client_y, plans, participates, x_test, y_test, init,
        client_drifted=[p.new_concept.apply(cx, cy) for p, cx, cy in zip(plans, client_x, client_y, strict=True)],
        test_drifted=[p.new_concept.apply(x_test, y_test) for p in plans],
    )


def detection_rates(trace: MethodTrace) -> Detection:
    """True- and false-positive rates of the drift flag over the client-rounds the detector scored."""
    tp = fp = pos = neg = 0
    for det_row, truth_row in zip(trace.detected, trace.truth, strict=True):
        for det, truth in zip(det_row, truth_row, strict=True):
            if det is None or truth is None:
                continue
            if truth:
                pos += 1
                tp += int(det)
            else:
                neg += 1
                fp += int(det)
    return Detection(
        true_positive_rate=tp / pos if pos else None,
        false_positive_rate=fp / neg if neg else None,
        positives=pos,
        negatives=neg,
        true_positives=tp,
        false_positives=fp,
    )


def _summary(trace: MethodTrace) -> MethodSummary:
    new = [v for v in trace.new_accuracy if v is not None]
    return MethodSummary(
        final_accuracy=trace.final_accuracy,
        old_concept_accuracy=trace.old_accuracy[-1],
        new_concept_accuracy=new[-1] if new else None,
    )


def run(params: Params, progress: Progress) -> Result:
    """The three methods on one federation; RC-FCL's detector is scored against the true drift."""
    start = time.perf_counter()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "splitting the digits over the clients")
    fed = build_federation(params)
    device = torch_device()
    traces: dict[str, MethodTrace] = {}
    for m, name in enumerate(METHODS):
        stage = monotone.stage(m / len(METHODS), (m + 1) / len(METHODS))

        def tick(r: int, stage: Progress = stage, name: str = name) -> None:
            stage((r + 1) / params.rounds, f"{name}: round {r + 1} of {params.rounds}")

        traces[name] = run_method(name, fed, params, device, tick)
    rc = traces["rc_fcl"]
    monotone(1.0, "done")
    return Result(
        detection=detection_rates(rc),
        methods={name: _summary(t) for name, t in traces.items()},
        curves={name: MethodCurves(old_accuracy=t.old_accuracy, new_accuracy=t.new_accuracy,
                                   aggregation_share=t.aggregation_share) for name, t in traces.items()},
        drift_score=rc.drift_score,
        detected=rc.detected,
        truth=rc.truth,
        participates=fed.participates.tolist(),
        clients=[
            ClientDrift(client=p.client + 1, examples=len(fed.client_y[p.client]),
                        classes=int((np.bincount(fed.client_y[p.client], minlength=10) >= 5).sum()),
                        drift=p.describe(), kind=p.new_concept.kind, magnitude=p.magnitude,
                        drift_round=None if p.drift_at is None else p.drift_at + 1)
            for p in fed.plans
        ],
        seconds=time.perf_counter() - start,
    )
