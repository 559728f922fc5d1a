"""Run Skill-MoE over seeds: every strategy's accuracy and cost, where the tagger's errors go, and the claims."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values

from .claims import CLAIMS
from .evaluate import BASELINES, STRATEGIES, SeedRun, run_seed
from .params import Params
from .pool import expert_mixes, expert_names
from .result import LABELS, CostRow, ExpertProfile, GroupRow, Result, SeedRow, TaggerRow
from .wordsuite import SKILLS, TASKS

__all__ = ["run"]


def _best_name(r: SeedRun) -> str:
    """The baseline with the highest accuracy on this seed (ties: the earlier in BASELINES)."""
    return max(BASELINES, key=lambda b: r.accuracy[b])


def _best_baseline(r: SeedRun) -> float:
    return r.accuracy[_best_name(r)]


def _paired(ours: np.ndarray, r: SeedRun) -> np.ndarray:
    """Per query, 100 x (ours right - the seed's best baseline right): +100 win, 0 tie, -100 loss."""
    return 100.0 * (ours.astype(float) - r.correct[_best_name(r)].astype(float))


def _groups(r: SeedRun, key: str, groups: Sequence[str]) -> list[GroupRow]:
    labels = np.array([getattr(q, key) for q in r.test])
    rows = []
    for g in groups:
        mask = labels == g
        if mask.any():
            rows.append(GroupRow(group=g, queries=int(mask.sum()),
                                 accuracy={s: float(r.correct[s][mask].mean()) for s in STRATEGIES}))
    return rows


def _by_tagger(runs: Sequence[SeedRun]) -> list[TaggerRow]:
    """Accuracy of each strategy on the test queries the tagger names right and on those it names wrong
    (pooled over seeds): where its errors go, Skill-MoE's routing follows."""
    rows = []
    for label, want in (("tagger right", True), ("tagger wrong", False)):
        masks = [r.tagged_right == want for r in runs]
        n = int(sum(m.sum() for m in masks))
        if n:
            rows.append(TaggerRow(group=label, queries=n, accuracy={
                s: float(sum(r.correct[s][m].sum() for r, m in zip(runs, masks, strict=True)) / n)
                for s in STRATEGIES}))
    return rows


def _gain(ours: np.ndarray, r: SeedRun, note: str = "") -> Measurement:
    units = _paired(ours, r)
    wins, losses = int((units > 0).sum()), int((units < 0).sum())
    return Measurement(float(units.mean()), units=units.tolist(),
                       null=100 * (r.accuracy["random_k"] - _best_baseline(r)),
                       note=f"{note}best baseline {_best_name(r)}; {wins} queries only Skill-MoE answers, {losses} "
                            "only the baseline")


def _claims(runs: Sequence[SeedRun]) -> dict[str, list[Measurement]]:
    return {
        "gain": [_gain(r.correct["instance_routing"], r) for r in runs],
        "runtime": [Measurement(r.cost["instance_routing"].seconds / max(r.cost["majority_vote"].seconds, 1e-9),
                                floor_ok=r.answers_identical,
                                null=r.naive.seconds / max(r.cost["majority_vote"].seconds, 1e-9),
                                note=f"naive per-instance order: {r.naive.loads} loads; "
                                     f"batched {r.cost['instance_routing'].loads} loads") for r in runs],
    }


def run(params: Params, progress: Progress) -> Result:
    report = MonotoneProgress(progress)
    names = expert_names()
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: run_seed(
        seed, queries=params.queries, k=params.k, method=params.skill_inference,
        validation_per_skill=params.validation_per_skill, progress=MonotoneProgress(stage)), report)
    first = runs[0]
    mean = {s: statistics.fmean(r.accuracy[s] for r in runs) for s in STRATEGIES}
    report(1.0, "done")
    compared = ("instance_routing", *BASELINES)
    return Result(
        claims=evaluate_claims(CLAIMS, _claims(runs), seeds),
        standing=Standing(metric="test accuracy (%)", lower_is_better=False, method="instance_routing",
                          labels={s: LABELS[s] for s in compared},
                          seed_scores={s: [100 * r.accuracy[s] for r in runs] for s in compared},
                          unit_scores={s: [(100.0 * r.correct[s]).tolist() for r in runs] for s in compared}),
        grids=[g for r in runs for g in r.grids],
        strategies=list(STRATEGIES), baselines=list(BASELINES), accuracy=mean,
        per_seed=[SeedRow(seed=r.seed, accuracy=r.accuracy, skill_accuracy=r.skill_accuracy,
                          form_accuracy=r.form_accuracy,
                          gain_points=100 * (r.accuracy["instance_routing"] - _best_baseline(r)),
                          best_baseline=_best_name(r), aggregator=r.aggregator,
                          aggregator_accuracy=r.aggregator_accuracy) for r in runs],
        cost=[CostRow(strategy=s, loads=c.loads, pairs=c.pairs, seconds=c.seconds) for s, c in first.cost.items()],
        naive=CostRow(strategy="instance_routing", loads=first.naive.loads, pairs=first.naive.pairs,
                      seconds=first.naive.seconds),
        answers_identical=all(r.answers_identical for r in runs),
        by_tagger=_by_tagger(runs), skills=list(SKILLS),
        per_skill=_groups(first, "skill", SKILLS), per_task=_groups(first, "task", list(TASKS)),
        experts=[ExpertProfile(expert=names[e], training_mix=", ".join(f"{s} {w:.0%}" for s, w in m.items()),
                               accuracy=[float(a) for a in first.profile[e]], chosen=int(first.chosen_counts[e]))
                 for e, m in enumerate(expert_mixes())],
        task_experts={t: [names[e] for e in experts] for t, experts in first.task_experts.items()},
        best_single_expert=names[first.best_single], skill_inference=params.skill_inference,
        skill_inference_accuracy=statistics.fmean(r.skill_accuracy for r in runs),
        form_tagger_accuracy=statistics.fmean(r.form_accuracy for r in runs),
        validation_per_skill=params.validation_per_skill, queries=params.queries, k=params.k, seed=params.seed,
        seeds_run=seeds, device="cpu")
