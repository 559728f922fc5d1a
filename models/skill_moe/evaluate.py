"""One seed of Skill-MoE: profile the experts, route the test queries by every strategy, answer each
through the on-disk store batched by expert, and sweep the skill tagger's accuracy.

Strategies (the ones the field compares with, Chen et al. 2025 and RouteLLM):
- instance_routing (Skill-MoE): k experts sampled with replacement in proportion to their net profile on
  the query's *inferred* skill times their global competence (routing.recruit, the official rule), the
  answer written by the aggregation rule that scores best on the validation set;
- oracle_routing: the same with the query's *true* skill (an upper bound, not a competitor);
- instance_top_k: our earlier deterministic variant (the k best by accuracy on the inferred skill, an
  accuracy-weighted vote): an ablation of the sampling, not a baseline;
- trained_router: a RouteLLM-style learnt router (routing.TrainedRouter), no skill labels;
- task_top_k: the k experts best on the query's task, the same for the whole task;
- best_single: the expert with the best mean profile; majority_vote: all 16 experts; random_k.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.tiny import ModelStore

from . import routing
from .experts import VOCAB, expert_names, predict
from .inference import batched, naive
from .skills import embedding_skills, symbolic_skills, tagger_draws, tagger_skills
from .suite import MAX_LEN, SKILLS, TASKS, Query, make_queries, make_skill_queries

__all__ = ["BASELINES", "CURVE_ACCURACIES", "STRATEGIES", "Cost", "SeedRun", "run_seed"]

STRATEGIES = ("instance_routing", "oracle_routing", "instance_top_k", "trained_router", "task_top_k", "best_single",
              "majority_vote", "random_k")
BASELINES = ("trained_router", "task_top_k", "best_single", "majority_vote", "random_k")
CURVE_ACCURACIES = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4)
TIMING_REPEATS = 5
NAIVE_QUERIES = 100  # the naive loop (one load per pair) is timed on the first queries and scaled


@dataclass(frozen=True)
class Cost:
    """What answering one strategy's (query, expert) pairs cost: loads from disk, pairs, CPU seconds (median of 5 passes).

    The naive loop's loads and seconds are measured on the first NAIVE_QUERIES queries and scaled to all
    (it loads an expert for every pair, so both grow linearly with the queries)."""

    loads: int
    pairs: int
    seconds: float


@dataclass
class SeedRun:
    seed: int
    accuracy: dict[str, float]
    cost: dict[str, Cost]
    naive: Cost
    answers_identical: bool
    skill_accuracy: float
    inference_s: float
    curve: list[tuple[float, float]]  # (realised tagger accuracy, instance-routing accuracy)
    curve_correct: list[np.ndarray]  # per-query correctness of Skill-MoE at each point of the curve
    profile: np.ndarray
    aggregator: str
    aggregator_accuracy: dict[str, float]
    correct: dict[str, np.ndarray]
    test: list[Query]
    chosen_counts: np.ndarray
    task_experts: dict[str, list[int]]
    best_single: int
    extra: dict[str, float] = field(default_factory=dict)


def features(texts: Sequence[str]) -> np.ndarray:
    """One-hot characters at each position: the trained router's input."""
    ids = VOCAB.encode(list(texts), MAX_LEN).numpy()
    return np.eye(len(VOCAB), dtype=np.float64)[ids].reshape(len(ids), -1)


def _all_answers(store: ModelStore, names: Sequence[str], texts: Sequence[str], device: str,
                 progress: Progress) -> np.ndarray:
    """answers[e, q]: every expert's answer to every text, one load per expert."""
    out = np.zeros((len(names), len(texts)), dtype=np.int64)
    for e, name in enumerate(names):
        progress(e / len(names), f"expert {name}")
        out[e] = predict(store.get(name), texts, device).numpy()
        store.unload(name)
    return out


def _profile(correct: np.ndarray, validation: Sequence[Query]) -> np.ndarray:
    """profile[e, s]: accuracy of expert e on the validation queries of skill s."""
    skill_of = np.array([SKILLS.index(q.skill) for q in validation])
    return np.stack([correct[:, skill_of == s].mean(axis=1) for s in range(len(SKILLS))], axis=1)


def _infer(method: str, test: Sequence[Query], validation: Sequence[Query], draws: tuple[np.ndarray, list[str]],
           tagger_accuracy: float, device: str) -> list[str | None]:
    if method == "symbolic":
        return symbolic_skills([q.text for q in test])
    if method == "tagger":
        return list(tagger_skills(test, draws, tagger_accuracy))
    try:
        return list(embedding_skills([q.text for q in test], [(q.text, q.skill) for q in validation], device))
    except ImportError as exc:  # the package is a dependency; this guards a broken install
        raise MethodInputError(f"skill_inference: the embedding model could not be loaded ({exc})") from exc


@dataclass(frozen=True)
class SkillMoE:
    """What Skill-MoE's preprocessing fixes: the net profile, the competence and the chosen aggregator."""

    net: np.ndarray
    strength: np.ndarray
    aggregator: str
    aggregator_accuracy: dict[str, float]
    seed: int

    def route(self, skills: Sequence[str | None], k: int) -> tuple[list[list[int]], np.ndarray]:
        """The recruited experts of each query and the chosen aggregator's vote weights (the recruitment
        draws come from one stream per seed, so the same skills give the same experts)."""
        ids = [[SKILLS.index(s)] if s is not None else [] for s in skills]
        chosen, local = routing.recruit(self.net, self.strength, ids, k, np.random.default_rng([self.seed, 5]))
        return chosen, routing.aggregator_weights(self.aggregator, local, self.strength, chosen)


def _prepare(val_correct: np.ndarray, val_answers: np.ndarray, validation: Sequence[Query], k: int,
             seed: int) -> SkillMoE:
    """Net profiles and competence from the validation answers; the aggregator chosen by its accuracy on the
    validation queries recruited the same way (the official code picks it on an aggregation benchmark built
    from validation answers). Ties go to the earlier rule of routing.AGGREGATORS."""
    skill_of = np.array([SKILLS.index(q.skill) for q in validation])
    net = routing.net_profile(val_correct, skill_of, len(SKILLS))
    strength = routing.competence(net)
    truth = np.array([q.answer for q in validation])
    scores = {}
    for rule in routing.AGGREGATORS:
        moe = SkillMoE(net, strength, rule, {}, seed + 1)
        chosen, weights = moe.route([q.skill for q in validation], k)
        picked = np.array([[val_answers[e, i] for e in c] for i, c in enumerate(chosen)])
        scores[rule] = float(np.mean(routing.weighted_vote(picked, weights) == truth))
    best = max(routing.AGGREGATORS, key=lambda r: scores[r])
    return SkillMoE(net, strength, best, scores, seed)


def _routes(profile: np.ndarray, moe: SkillMoE, inferred: list[str | None], test: Sequence[Query],
            router: routing.TrainedRouter, k: int, rng: np.random.Generator) -> dict[str, tuple[list[list[int]], np.ndarray]]:
    """Every strategy's chosen experts per query and their vote weights."""
    q, n = len(test), profile.shape[0]
    truth: list[str | None] = [t.skill for t in test]
    top_k = routing.instance_top_k(profile, inferred, k)
    task = routing.task_top_k(profile, [t.task for t in test], k)
    task_profile = {t: profile[:, [SKILLS.index(s) for s in TASKS[t]]].mean(axis=1) for t in TASKS}
    randomly = routing.random_k(n, q, k, rng)
    single = routing.best_single(profile)
    return {
        "instance_routing": moe.route(inferred, k),
        "oracle_routing": moe.route(truth, k),
        "instance_top_k": (top_k, np.array([[profile[e, SKILLS.index(s)] if s is not None else 1.0 for e in c]
                                            for s, c in zip(inferred, top_k, strict=True)])),
        "trained_router": router.route(features([t.text for t in test]), k),
        "task_top_k": (task, np.array([[task_profile[t.task][e] for e in c] for t, c in zip(test, task, strict=True)])),
        "best_single": ([[single]] * q, np.ones((q, 1))),
        "majority_vote": ([list(range(n))] * q, np.ones((q, n))),
        "random_k": (randomly, np.ones((q, k))),
    }


def _answer_all(store: ModelStore, names: Sequence[str], texts: Sequence[str],
                routes: dict[str, tuple[list[list[int]], np.ndarray]], device: str,
                progress: Progress) -> tuple[dict[str, np.ndarray], dict[str, Cost]]:
    """Every strategy's answers batched by expert (one resident model). Each strategy is timed TIMING_REPEATS
    times, the strategies taking turns, in CPU time of the process (other jobs on the machine do not count);
    the median pass is its time."""
    answers: dict[str, np.ndarray] = {}
    loads: dict[str, int] = {}
    seconds: dict[str, list[float]] = {name: [] for name in routes}
    for repeat in range(TIMING_REPEATS):
        progress(repeat / TIMING_REPEATS, f"answering every strategy, pass {repeat + 1} of {TIMING_REPEATS}")
        for name, (chosen, _) in routes.items():
            start = time.process_time()
            done = batched(store, names, texts, chosen, device)
            seconds[name].append(time.process_time() - start)
            answers.setdefault(name, done.answers)
            loads.setdefault(name, done.loads)
    cost = {name: Cost(loads[name], sum(len(c) for c in routes[name][0]), float(np.median(seconds[name])))
            for name in routes}
    return answers, cost


def _curve(moe: SkillMoE, all_answers: np.ndarray, test: Sequence[Query], draws: tuple[np.ndarray, list[str]],
           k: int, truth: np.ndarray) -> tuple[list[tuple[float, float]], list[np.ndarray]]:
    """Skill-MoE's accuracy with the imperfect tagger at each accuracy of CURVE_ACCURACIES, and its per-query
    correctness there."""
    points, correct = [], []
    for accuracy in CURVE_ACCURACIES:
        skills: list[str | None] = list(tagger_skills(test, draws, accuracy))
        chosen, weights = moe.route(skills, k)
        picked = np.array([[all_answers[e, q] for e in experts] for q, experts in enumerate(chosen)])
        right = routing.weighted_vote(picked, weights) == truth
        realised = float(np.mean([s == t.skill for s, t in zip(skills, test, strict=True)]))
        points.append((realised, float(np.mean(right))))
        correct.append(right)
    return points, correct


def run_seed(seed: int, *, queries: int, k: int, method: str, tagger_accuracy: float, validation_per_skill: int,
             store: ModelStore, device: str, progress: MonotoneProgress) -> SeedRun:
    names = expert_names()
    rng = np.random.default_rng(seed)
    validation = [q for s in SKILLS for q in make_skill_queries(s, validation_per_skill, rng)]
    test = make_queries(queries, rng)
    texts = [q.text for q in test]
    truth = np.array([q.answer for q in test])
    draws = tagger_draws(test, np.random.default_rng([seed, 7]))
    val_answers = _all_answers(store, names, [q.text for q in validation], device, progress.stage(0, 0.15))
    val_correct = val_answers == np.array([q.answer for q in validation])[None, :]
    profile = _profile(val_correct, validation)
    moe = _prepare(val_correct, val_answers, validation, k, seed)
    all_answers = _all_answers(store, names, texts, device, progress.stage(0.15, 0.3))
    progress(0.3, f"skill inference ({method}), trained router")
    start = time.perf_counter()
    inferred = _infer(method, test, validation, draws, tagger_accuracy, device)
    inference_s = time.perf_counter() - start
    router = routing.TrainedRouter(features([q.text for q in validation]), val_correct, seed)
    routes = _routes(profile, moe, inferred, test, router, k, rng)
    answers, cost = _answer_all(store, names, texts, routes, device, progress.stage(0.4, 0.7))
    accuracy, identical = {}, True
    for name, (chosen, weights) in routes.items():
        picked = np.array([[all_answers[e, q] for e in c] for q, c in enumerate(chosen)])
        identical &= bool(np.array_equal(answers[name], picked))
        accuracy[name] = routing.weighted_vote(answers[name], weights) == truth
    instance = routes["instance_routing"][0]
    part = min(len(texts), NAIVE_QUERIES)
    cpu = time.process_time()
    slow = naive(store, names, texts[:part], instance[:part], device, progress.stage(0.7, 0.97))
    slow_seconds = time.process_time() - cpu
    scale = len(texts) / part
    curve, curve_correct = _curve(moe, all_answers, test, draws, k, truth)
    return SeedRun(
        seed=seed, accuracy={s: float(accuracy[s].mean()) for s in STRATEGIES}, cost=cost,
        naive=Cost(round(slow.loads * scale), cost["instance_routing"].pairs, slow_seconds * scale),
        answers_identical=identical and bool(np.array_equal(answers['instance_routing'][:part], slow.answers)),
        skill_accuracy=float(np.mean([i == q.skill for i, q in zip(inferred, test, strict=True)])),
        inference_s=inference_s, curve=curve, curve_correct=curve_correct, profile=profile, aggregator=moe.aggregator,
        aggregator_accuracy=moe.aggregator_accuracy,
        correct=accuracy, test=test,
        chosen_counts=np.bincount(np.concatenate([np.array(c) for c in instance]), minlength=len(names)),
        task_experts={t: routing.task_top_k(profile, [t], k)[0] for t in TASKS},
        best_single=routing.best_single(profile))
