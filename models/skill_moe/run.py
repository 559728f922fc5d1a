"""Run Skill-MoE: profile the experts per skill, route each test query, answer batched and naively, compare."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.tiny import ModelStore

from . import routing
from .experts import EXPERT_MIXES, expert_names, expert_store, predict
from .inference import batched, naive
from .params import Params
from .result import STRATEGIES, Accuracy, ExpertProfile, GroupRow, Loads, Result, WallTime
from .skills import embedding_skills, symbolic_skills
from .suite import SKILLS, TASKS, Query, make_queries, make_skill_queries

__all__ = ["run"]


def _all_answers(store: ModelStore, names: Sequence[str], texts: Sequence[str], device: str,
                 progress: Progress) -> np.ndarray:
    """answers[e, q]: every expert's answer to every text, one load per expert."""
    out = np.zeros((len(names), len(texts)), dtype=np.int64)
    for e, name in enumerate(names):
        progress(e / len(names), f"expert {name}")
        out[e] = predict(store.get(name), texts, device).numpy()
        store.unload(name)
    return out


def _profile(answers: np.ndarray, validation: Sequence[Query]) -> np.ndarray:
    """profile[e, s]: accuracy of expert e on the validation queries of skill s."""
    truth = np.array([q.answer for q in validation])
    skill_of = np.array([SKILLS.index(q.skill) for q in validation])
    correct = answers == truth[None, :]
    return np.stack([correct[:, skill_of == s].mean(axis=1) for s in range(len(SKILLS))], axis=1)


def _infer_skills(params: Params, texts: Sequence[str], validation: Sequence[Query],
                  device: str) -> list[str | None]:
    if params.skill_inference == "symbolic":
        return symbolic_skills(texts)
    try:
        return list(embedding_skills(texts, [(q.text, q.skill) for q in validation], device))
    except ImportError as exc:  # the package is a dependency; this guards a broken install
        raise MethodInputError(f"skill_inference: the embedding model could not be loaded ({exc})") from exc


def _group_rows(groups: Sequence[str], labels: np.ndarray, correct: dict[str, np.ndarray]) -> list[GroupRow]:
    rows = []
    for g in groups:
        mask = labels == g
        if not mask.any():
            continue
        values = {s: float(correct[s][mask].mean()) for s in STRATEGIES}
        rows.append(GroupRow(group=g, queries=int(mask.sum()), **values))
    return rows


def _vote(answers: np.ndarray, chosen: list[list[int]], weight: Callable[[int, int], float]) -> np.ndarray:
    """Weighted vote over the chosen experts' answers; weight(q, e) is expert e's weight on query q."""
    picked = np.array([[answers[e, q] for e in experts] for q, experts in enumerate(chosen)])
    weights = np.array([[weight(q, e) for e in experts] for q, experts in enumerate(chosen)])
    return routing.weighted_vote(picked, weights)


def run(params: Params, progress: Progress) -> Result:
    progress = MonotoneProgress(progress)
    device = torch_device()
    names = expert_names()
    store = expert_store(device)
    missing = [n for n in names if not store.path(n).exists()]
    if missing:
        raise MethodInputError(f"experts: weights missing for {', '.join(missing)}; run scripts/train_skill_moe.py")
    rng = np.random.default_rng(params.seed)
    validation = [q for s in SKILLS for q in make_skill_queries(s, params.validation_per_skill, rng)]
    test = make_queries(params.queries, rng)
    texts = [q.text for q in test]
    truth = np.array([q.answer for q in test])

    # 1. Skill profiles on validation and every expert's test answers (for the baselines), one load each.
    profile = _profile(_all_answers(store, names, [q.text for q in validation], device, progress.stage(0, 0.1)),
                       validation)
    all_answers = _all_answers(store, names, texts, device, progress.stage(0.1, 0.2))
    profiling_loads = store.loads

    # 2. Skill inference and routing.
    progress(0.2, f"skill inference ({params.skill_inference})")
    start = time.perf_counter()
    inferred = _infer_skills(params, texts, validation, device)
    inference_s = time.perf_counter() - start
    progress(0.45, "routing")
    instance = routing.instance_top_k(profile, inferred, params.k)
    task_level = routing.task_top_k(profile, [q.task for q in test], params.k)
    randomly = routing.random_k(len(names), len(test), params.k, rng)
    single = routing.best_single(profile)

    # 3. The instance-routed answers, batched by expert and query by query.
    fast = batched(store, names, texts, instance, device, progress.stage(0.45, 0.55))
    slow = naive(store, names, texts, instance, device, progress.stage(0.55, 0.97))

    # 4. Aggregation: skill-profile weights for Skill-MoE, task-profile weights for task-level, plain votes otherwise.
    skill_col = [SKILLS.index(s) if s is not None else None for s in inferred]
    mean_profile = profile.mean(axis=1)
    instance_weights = np.array([[profile[e, skill_col[q]] if skill_col[q] is not None else mean_profile[e]
                                  for e in experts] for q, experts in enumerate(instance)])
    task_profile = {t: profile[:, [SKILLS.index(s) for s in TASKS[t]]].mean(axis=1) for t in TASKS}
    predictions = {
        "instance_routing": routing.weighted_vote(fast.answers, instance_weights),
        "task_top_k": _vote(all_answers, task_level, lambda q, e: float(task_profile[test[q].task][e])),
        "random_k": _vote(all_answers, randomly, lambda q, e: 1.0),
        "best_single": all_answers[single],
        "majority_vote": routing.weighted_vote(all_answers.T, np.ones_like(all_answers.T, dtype=float)),
    }
    correct = {s: predictions[s] == truth for s in STRATEGIES}
    chosen_counts = np.bincount(np.concatenate([np.array(c) for c in instance]), minlength=len(names))
    progress(1.0, "done")
    return Result(
        accuracy=Accuracy(**{s: float(correct[s].mean()) for s in STRATEGIES}),
        loads=Loads(batched=fast.loads, naive=slow.loads, distinct_experts=fast.distinct_experts),
        wall_time_s=WallTime(batched=fast.wall_time_s, naive=slow.wall_time_s),
        answers_identical=bool(np.array_equal(fast.answers, slow.answers)),
        profiling_loads=profiling_loads,
        skills=list(SKILLS),
        per_skill=_group_rows(SKILLS, np.array([q.skill for q in test]), correct),
        per_task=_group_rows(list(TASKS), np.array([q.task for q in test]), correct),
        experts=[ExpertProfile(expert=m.name, training_mix=", ".join(f"{s} {w:.0%}" for s, w in m.shares.items()),
                               accuracy=[float(a) for a in profile[e]], chosen=int(chosen_counts[e]))
                 for e, m in enumerate(EXPERT_MIXES)],
        task_experts={t: [names[e] for e in routing.task_top_k(profile, [t], params.k)[0]] for t in TASKS},
        best_single_expert=names[single],
        skill_inference=params.skill_inference,
        skill_inference_accuracy=float(np.mean([i == q.skill for i, q in zip(inferred, test, strict=True)])),
        skill_inference_s=inference_s,
        queries=params.queries,
        k=params.k,
        seed=params.seed,
        device=device,
    )
