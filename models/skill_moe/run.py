"""Run Skill-MoE over seeds: every strategy's accuracy and cost, the tagger curve, and the claims."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values

from .claims import CLAIMS, STRESS_ACCURACY
from .evaluate import BASELINES, CURVE_ACCURACIES, STRATEGIES, SeedRun, run_seed
from .experts import EXPERT_MIXES, expert_names, expert_store
from .params import Params
from .result import LABELS, CostRow, CurvePoint, ExpertProfile, GroupRow, Result, SeedRow
from .suite import SKILLS, TASKS

__all__ = ["run"]


def _best_name(r: SeedRun) -> str:
    """The baseline with the highest accuracy on this seed (ties: the earlier in BASELINES)."""
    return max(BASELINES, key=lambda b: r.accuracy[b])


def _best_baseline(r: SeedRun) -> float:
    return r.accuracy[_best_name(r)]


def _paired(ours: np.ndarray, r: SeedRun) -> np.ndarray:
    """Per query, 100 x (ours right - the seed's best baseline right): +100 win, 0 tie, -100 loss."""
    return 100.0 * (ours.astype(float) - r.correct[_best_name(r)].astype(float))


def _curve(runs: Sequence[SeedRun]) -> list[CurvePoint]:
    """The tagger sweep, mean over seeds."""
    points = []
    for i, target in enumerate(CURVE_ACCURACIES):
        realised = statistics.fmean(r.curve[i][0] for r in runs)
        instance = statistics.fmean(r.curve[i][1] for r in runs)
        best = statistics.fmean(_best_baseline(r) for r in runs)
        points.append(CurvePoint(tagger_accuracy=target, realised_accuracy=realised, instance_routing=instance,
                                 best_baseline=best, gain_points=100 * (instance - best)))
    return points


def _break_even(curve: Sequence[CurvePoint]) -> float | None:
    """The lowest tagger accuracy down to which every point of the sweep keeps a positive gain (None: not
    even exact skills give one)."""
    last = None
    for point in curve:  # from exact skills downwards
        if point.gain_points <= 0:
            return last
        last = point.tagger_accuracy
    return last


def _groups(r: SeedRun, key: str, groups: Sequence[str]) -> list[GroupRow]:
    labels = np.array([getattr(q, key) for q in r.test])
    rows = []
    for g in groups:
        mask = labels == g
        if mask.any():
            rows.append(GroupRow(group=g, queries=int(mask.sum()),
                                 accuracy={s: float(r.correct[s][mask].mean()) for s in STRATEGIES}))
    return rows


def _gain(ours: np.ndarray, r: SeedRun, note: str = "") -> Measurement:
    units = _paired(ours, r)
    wins, losses = int((units > 0).sum()), int((units < 0).sum())
    return Measurement(float(units.mean()), units=units.tolist(),
                       null=100 * (r.accuracy["random_k"] - _best_baseline(r)),
                       note=f"{note}best baseline {_best_name(r)}; {wins} queries only Skill-MoE answers, {losses} "
                            "only the baseline")


def _claims(runs: Sequence[SeedRun], seeds: list[int]) -> dict[str, list[Measurement]]:
    stress = CURVE_ACCURACIES.index(STRESS_ACCURACY)
    return {
        "gain": [_gain(r.correct["instance_routing"], r) for r in runs],
        "runtime": [Measurement(r.cost["instance_routing"].seconds / max(r.cost["majority_vote"].seconds, 1e-9),
                                floor_ok=r.answers_identical,
                                null=r.naive.seconds / max(r.cost["majority_vote"].seconds, 1e-9),
                                note=f"naive per-instance order: {r.naive.loads} loads, {r.naive.seconds:.2f} s; "
                                     f"batched {r.cost['instance_routing'].loads} loads") for r in runs],
        "robust": [_gain(r.curve_correct[stress], r, f"tagger right on {r.curve[stress][0]:.0%} of the queries; ")
                   for r in runs],
    }


def run(params: Params, progress: Progress) -> Result:
    report = MonotoneProgress(progress)
    device = torch_device()
    names = expert_names()
    store = expert_store(device)
    missing = [n for n in names if not store.path(n).exists()]
    if missing:
        raise MethodInputError(f"experts: weights missing for {', '.join(missing)}; run scripts/train_skill_moe.py")
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: run_seed(
        seed, queries=params.queries, k=params.k, method=params.skill_inference,
        tagger_accuracy=params.tagger_accuracy, validation_per_skill=params.validation_per_skill,
        store=store, device=device, progress=MonotoneProgress(stage)), report)
    first = runs[0]
    mean = {s: statistics.fmean(r.accuracy[s] for r in runs) for s in STRATEGIES}
    curve = _curve(runs)
    report(1.0, "done")
    return Result(
        claims=evaluate_claims(CLAIMS, _claims(runs, seeds), seeds),
        standing=Standing(metric="test accuracy (%)", lower_is_better=False, method="instance_routing",
                          labels={s: LABELS[s] for s in ("instance_routing", *BASELINES)},
                          seed_scores={s: [100 * r.accuracy[s] for r in runs] for s in ("instance_routing", *BASELINES)},
                          unit_scores={s: [(100.0 * r.correct[s]).tolist() for r in runs]
                                       for s in ("instance_routing", *BASELINES)}),
        strategies=list(STRATEGIES), baselines=list(BASELINES), accuracy=mean,
        per_seed=[SeedRow(seed=r.seed, accuracy=r.accuracy, skill_accuracy=r.skill_accuracy,
                          gain_points=100 * (r.accuracy["instance_routing"] - _best_baseline(r)),
                          aggregator=r.aggregator, aggregator_accuracy=r.aggregator_accuracy) for r in runs],
        cost=[CostRow(strategy=s, loads=c.loads, pairs=c.pairs, seconds=c.seconds) for s, c in first.cost.items()],
        naive=CostRow(strategy="instance_routing", loads=first.naive.loads, pairs=first.naive.pairs,
                      seconds=first.naive.seconds),
        answers_identical=all(r.answers_identical for r in runs),
        curve=curve, break_even_accuracy=_break_even(curve), skills=list(SKILLS),
        per_skill=_groups(first, "skill", SKILLS), per_task=_groups(first, "task", list(TASKS)),
        experts=[ExpertProfile(expert=m.name, training_mix=", ".join(f"{s} {w:.0%}" for s, w in m.shares.items()),
                               accuracy=[float(a) for a in first.profile[e]], chosen=int(first.chosen_counts[e]))
                 for e, m in enumerate(EXPERT_MIXES)],
        task_experts={t: [names[e] for e in experts] for t, experts in first.task_experts.items()},
        best_single_expert=names[first.best_single], skill_inference=params.skill_inference,
        skill_inference_accuracy=statistics.fmean(r.skill_accuracy for r in runs),
        skill_inference_s=first.inference_s, queries=params.queries, k=params.k, seed=params.seed,
        seeds_run=seeds, device=device)
