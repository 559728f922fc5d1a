"""run(params, progress): per seed, split the digits over the clients, plan the asynchronous concept stream,
then FedAvg, FedProx, a loss-triggered drift-aware FedAvg and RC-FCL; the claims are judged over the seeds."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.continual import digits_dataset, dirichlet_split, one_thread, train_test_split_indices
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.rc_fcl.claims import CLAIMS
from models.rc_fcl.concepts import CONCEPTS, concept_data, plan_clients
from models.rc_fcl.evaluation import (
    DETECTION_DELAY,
    detection_rates,
    experience_ends,
    image_metrics,
    stream_metrics,
    truth_map,
)
from models.rc_fcl.federation import METHODS, Federation, MethodTrace, make_model, run_method
from models.rc_fcl.params import Params
from models.rc_fcl.result import METHOD_LABELS, ClientDrift, MethodSummary, Result, SeedSummary

__all__ = ["MIN_EXAMPLES", "build_federation", "run"]

MIN_EXAMPLES = 20  # per client, so that every client can fit a reference and train
MIN_NEGATIVES = 10
BASELINES = tuple(m for m in METHODS if m != "rc_fcl")
REPLAY_BASELINES = ("fedavg_replay", "fedavg_genreplay")


def measurement(units: np.ndarray, null: float | None = None) -> Measurement:
    """A claim's value on one seed: the mean of its per-unit values (points per test image), with its null."""
    return Measurement(float(np.mean(units)), units=units.tolist(), null=null)


def build_federation(params: Params, seed: int) -> Federation:
    rng = np.random.default_rng(seed)
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
    labels = [y[train_idx[p]] for p in parts]
    plans = plan_clients(labels, params.rounds, params.drift_magnitude, rng)
    participates = rng.random((params.rounds, params.clients)) < params.participation
    participates[0] = True
    tests = [(xc, y[test_idx]) for xc in concept_data(x[test_idx])]
    return Federation(pools=[concept_data(x[train_idx[p]]) for p in parts], labels=labels, plans=plans,
                      participates=participates, tests=tests,
                      init_state=make_model(torch.Generator().manual_seed(seed)).state_dict(),
                      batch=params.batch, seed=seed)


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> tuple[Federation, dict[str, MethodTrace]]:
    monotone = MonotoneProgress(progress)
    fed = build_federation(params, seed)
    traces: dict[str, MethodTrace] = {}
    for m, name in enumerate(METHODS):
        stage = monotone.stage(m / len(METHODS), (m + 1) / len(METHODS))

        def tick(r: int, stage: Progress = stage, name: str = name) -> None:
            stage((r + 1) / params.rounds, f"seed {seed}, {name}: round {r + 1} of {params.rounds}")

        traces[name] = run_method(name, fed, params, device, tick)
    return fed, traces


def _summarise(seed: int, fed: Federation, traces: dict[str, MethodTrace]) -> SeedSummary:
    ends = experience_ends(fed.plans, fed.participates, len(CONCEPTS))
    methods = {}
    for name, trace in traces.items():
        matrix, average, forgetting = stream_metrics(trace, ends)
        methods[name] = MethodSummary(average_accuracy=average, forgetting=forgetting,
                                      final_concept_accuracy=trace.concept_accuracy[-1], matrix=matrix)
    detection = {name: detection_rates(traces[name], fed.plans, fed.participates) for name in ("rc_fcl", "drift_aware")}
    return SeedSummary(seed=seed, methods=methods, detection=detection, experience_ends=[e + 1 for e in ends])


def _measure(s: SeedSummary, fed: Federation, traces: dict[str, MethodTrace]) -> dict[str, Measurement]:
    """Accuracy and forgetting as per-test-image paired differences; detection per event / client-round."""
    ends = experience_ends(fed.plans, fed.participates, len(CONCEPTS))
    images = {n: image_metrics(t, ends) for n, t in traces.items()}
    best = max(BASELINES, key=lambda n: s.methods[n].average_accuracy)
    replay = min(REPLAY_BASELINES, key=lambda n: s.methods[n].forgetting or 0.0)
    d = s.detection["rc_fcl"]

    def forgetting_gap(ours: str, other: str, null: str) -> Measurement:
        a, b, c = images[ours][1], images[other][1], images[null][1]
        if a is None or b is None or c is None:
            return Measurement(None)
        return measurement(a - b, null=float(np.mean(c - b)))

    blind_tpr = None if d.false_positive_rate is None else 1.0 - (1.0 - d.false_positive_rate) ** DETECTION_DELAY
    return {
        "accuracy": measurement(images["rc_fcl"][0] - images[best][0],
                                null=float(np.mean(images["fedavg"][0] - images[best][0]))),
        "forgetting": forgetting_gap("rc_fcl", "fedavg", "fedavg_genreplay"),
        "forgetting_replay": forgetting_gap("rc_fcl", replay, "fedavg"),
        "tpr": Measurement(d.true_positive_rate, floor_ok=d.events > 0,
                           note=f"{d.detected_events} of {d.events} events",
                           units=_outcomes(d.detected_events, d.events), null=blind_tpr),
        "fpr": Measurement(d.false_positive_rate, floor_ok=d.negatives >= MIN_NEGATIVES,
                           note=f"{d.false_positives} of {d.negatives} client-rounds",
                           units=_outcomes(d.false_positives, d.negatives)),
    }


def _outcomes(hits: int, trials: int) -> list[float] | None:
    """0/1 per unit (their mean is the rate); None without units."""
    return [1.0] * hits + [0.0] * (trials - hits) if trials else None


def _clients(fed: Federation) -> list[ClientDrift]:
    return [ClientDrift(client=p.client + 1, examples=len(fed.labels[p.client]),
                        classes=int((np.bincount(fed.labels[p.client], minlength=10) >= 5).sum()),
                        drift_rounds=[d + 1 for d in p.drift_at], magnitude=p.magnitude,
                        prior_shift_round=p.prior_shift_at + 1) for p in fed.plans]


def run(params: Params, progress: Progress) -> Result:
    """Every seed in turn (one torch thread: the same numbers on any host), then the claims over the seeds."""
    start = time.perf_counter()
    device = torch_device()
    seeds = seed_values(params.seed, params.seeds)
    with one_thread():
        runs = run_seeds(seeds, lambda s, p: _one_seed(params, s, device, p), progress)
    per_seed = [_summarise(seed, fed, traces) for seed, (fed, traces) in zip(seeds, runs, strict=True)]
    measured = [_measure(s, fed, traces) for s, (fed, traces) in zip(per_seed, runs, strict=True)]
    fed, traces = runs[0]
    rc = traces["rc_fcl"]
    result = Result(
        concepts=[c[0] for c in CONCEPTS], per_seed=per_seed,
        concept_accuracy={n: t.concept_accuracy for n, t in traces.items()},
        aggregation_share={n: t.aggregation_share for n, t in traces.items()},
        drift_score=rc.drift_score, detected=rc.detected, calibrating=rc.calibrating,
        truth=truth_map(fed.plans, fed.participates), clients=_clients(fed), seconds=time.perf_counter() - start,
        claims=evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds),
    )
    unit_scores = {n: [image_metrics(t[n], experience_ends(f.plans, f.participates, len(CONCEPTS)))[0].tolist()
                       for f, t in runs] for n in METHODS}
    result.standing = Standing(metric="average accuracy (%)", lower_is_better=False, method="rc_fcl",
                               seed_scores={n: [100 * s.methods[n].average_accuracy for s in per_seed] for n in METHODS},
                               unit_scores=unit_scores, labels=METHOD_LABELS)
    return result
