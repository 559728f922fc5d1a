"""One seed of Skill-MoE on the inferred-skill suite: train the pool, profile it, tag, route, answer, cost.

Strategies:
- instance_routing (Skill-MoE): the learned tagger names each query's skills; k experts are sampled with
  replacement in proportion to their net validation score summed over those skills times their global
  competence (routing.recruit, the official rule); the aggregation rule chosen on validation answers;
- oracle_routing: the same with the query's true skills (the ceiling, not a competitor);
- trained_router: RouteLLM-style, a logistic model per expert on the tagger's features (learners.py);
- task_top_k, best_single, majority_vote (all 16: the multi-agent stand-in), random_k (the null).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.common.contract import Progress
from models.common.grids import GridReport
from models.common.progress import MonotoneProgress
from models.common.tiny import ModelStore

from . import routing
from .inference import batched, naive
from .learners import Logistic, features, fit_on_grid, form_features, tag
from .pool import Pool, expert_names, predict, train_pool
from .wordsuite import SKILLS, TASKS, Query, make_queries

__all__ = ["BASELINES", "STRATEGIES", "Cost", "SeedRun", "run_seed"]

STRATEGIES = ("instance_routing", "oracle_routing", "trained_router", "task_top_k", "best_single", "majority_vote",
              "random_k")
BASELINES = ("trained_router", "task_top_k", "best_single", "majority_vote", "random_k")
TIMING_REPEATS = 5
NAIVE_QUERIES = 100  # the naive loop (one load per pair) is timed on the first queries and scaled
Routes = dict[str, tuple[list[list[int]], np.ndarray]]


@dataclass(frozen=True)
class Cost:
    """Answering one strategy's (query, expert) pairs: loads from disk, pairs, CPU seconds (median of 5 passes)."""

    loads: int
    pairs: int
    seconds: float


@dataclass
class SeedRun:
    seed: int
    accuracy: dict[str, float]
    correct: dict[str, np.ndarray]
    cost: dict[str, Cost]
    naive: Cost
    answers_identical: bool
    skill_accuracy: float  # the learned tagger: share of test queries whose skill set it names exactly
    form_accuracy: float  # the same tagger fed only the surface form
    tagged_right: np.ndarray
    profile: np.ndarray
    aggregator: str
    aggregator_accuracy: dict[str, float]
    test: list[Query]
    chosen_counts: np.ndarray
    task_experts: dict[str, list[int]]
    best_single: int
    grids: list[GridReport] = field(default_factory=list)


def _answers(store: ModelStore, names: Sequence[str], queries: Sequence[Query]) -> np.ndarray:
    """answers[e, q]: every expert's answer to every query, one load per expert."""
    out = np.zeros((len(names), len(queries)), dtype=np.int64)
    for e, name in enumerate(names):
        out[e] = predict(store.get(name), queries)
        store.unload(name)
    return out


def _skill_ids(queries: Sequence[Query]) -> list[list[int]]:
    return [[SKILLS.index(s) for s in q.skills] for q in queries]


def _net_profile(correct: np.ndarray, validation: Sequence[Query]) -> np.ndarray:
    """The official net count: +1 / -1 for every skill of every validation query an expert gets right / wrong."""
    signed = np.where(correct, 1, -1)
    net = np.zeros((correct.shape[0], len(SKILLS)), dtype=np.int64)
    for i, ids in enumerate(_skill_ids(validation)):
        for s in ids:
            net[:, s] += signed[:, i]
    return net


def _accuracy_profile(correct: np.ndarray, validation: Sequence[Query]) -> np.ndarray:
    """profile[e, s]: accuracy of expert e on validation queries that need skill s (task-level, best single)."""
    cols = [[s in q.skills for q in validation] for s in SKILLS]
    return np.stack([correct[:, np.array(c)].mean(axis=1) if any(c) else np.zeros(len(correct)) for c in cols], axis=1)


@dataclass(frozen=True)
class SkillMoE:
    """What Skill-MoE's preprocessing fixes: net profile, competence, the chosen aggregator."""

    net: np.ndarray
    strength: np.ndarray
    aggregator: str
    aggregator_accuracy: dict[str, float]
    seed: int

    def route(self, skills: Sequence[Sequence[str]], k: int) -> tuple[list[list[int]], np.ndarray]:
        ids = [[SKILLS.index(s) for s in query] for query in skills]
        chosen, local = routing.recruit(self.net, self.strength, ids, k, np.random.default_rng([self.seed, 5]))
        return chosen, routing.aggregator_weights(self.aggregator, local, self.strength, chosen)


def _prepare(val_correct: np.ndarray, val_answers: np.ndarray, validation: Sequence[Query], k: int,
             seed: int) -> SkillMoE:
    """Net profile and competence; the aggregator chosen by its accuracy on the validation queries recruited
    the same way (ties: the earlier rule of routing.AGGREGATORS)."""
    net = _net_profile(val_correct, validation)
    strength = routing.competence(net)
    truth = np.array([q.answer for q in validation])
    scores = {}
    for rule in routing.AGGREGATORS:
        chosen, weights = SkillMoE(net, strength, rule, {}, seed + 1).route([q.skills for q in validation], k)
        picked = np.array([[val_answers[e, i] for e in c] for i, c in enumerate(chosen)])
        scores[rule] = float(np.mean(routing.weighted_vote(picked, weights) == truth))
    best = max(routing.AGGREGATORS, key=lambda r: scores[r])
    return SkillMoE(net, strength, best, scores, seed)


def _tagger(x: np.ndarray, validation: Sequence[Query], seed: int, name: str) -> tuple[Logistic, GridReport]:
    """The tagger (one sigmoid per skill) tuned on the grid by held-out exact skill-set accuracy."""
    y = np.zeros((len(validation), len(SKILLS)))
    for i, ids in enumerate(_skill_ids(validation)):
        y[i, ids] = 1.0

    def score(model: Logistic, rows: np.ndarray) -> float:
        named = tag(model.probabilities(x[rows]))
        return float(np.mean([set(n) == set(validation[r].skills) for n, r in zip(named, rows, strict=True)]))

    return fit_on_grid(name, x, y, score, seed)


def _route_top(p: np.ndarray, k: int) -> tuple[list[list[int]], np.ndarray]:
    chosen = [[int(e) for e in np.argsort(-row, kind="stable")[:k]] for row in p]
    return chosen, np.array([[row[e] for e in c] for row, c in zip(p, chosen, strict=True)])


def _router(x: np.ndarray, val_answers: np.ndarray, val_correct: np.ndarray, truth: np.ndarray, k: int,
            seed: int) -> tuple[Logistic, GridReport]:
    """The trained router tuned on the same grid by the held-out accuracy of its routed, weighted vote."""

    def score(model: Logistic, rows: np.ndarray) -> float:
        chosen, weights = _route_top(model.probabilities(x[rows]), k)
        picked = np.array([[val_answers[e, r] for e in c] for r, c in zip(rows, chosen, strict=True)])
        return float(np.mean(routing.weighted_vote(picked, weights) == truth[rows]))

    return fit_on_grid("trained router", x, val_correct.T.astype(float), score, seed)


def _routes(profile: np.ndarray, moe: SkillMoE, inferred: Sequence[Sequence[str]], test: Sequence[Query],
            router_p: np.ndarray, k: int, rng: np.random.Generator) -> Routes:
    """Every strategy's chosen experts per query and their vote weights."""
    q, n = len(test), profile.shape[0]
    task = routing.task_top_k(profile, [t.task for t in test], k)
    task_profile = {t: profile[:, [SKILLS.index(s) for s in TASKS[t]]].mean(axis=1) for t in TASKS}
    single = routing.best_single(profile)
    return {
        "instance_routing": moe.route(inferred, k),
        "oracle_routing": moe.route([t.skills for t in test], k),
        "trained_router": _route_top(router_p, k),
        "task_top_k": (task, np.array([[task_profile[t.task][e] for e in c] for t, c in zip(test, task, strict=True)])),
        "best_single": ([[single]] * q, np.ones((q, 1))),
        "majority_vote": ([list(range(n))] * q, np.ones((q, n))),
        "random_k": (routing.random_k(n, q, k, rng), np.ones((q, k))),
    }


def _answer_all(store: ModelStore, names: Sequence[str], test: Sequence[Query], routes: Routes,
                progress: Progress) -> tuple[dict[str, np.ndarray], dict[str, Cost]]:
    """Every strategy's answers batched by expert (one resident model), timed TIMING_REPEATS times in CPU time
    of the process, the strategies taking turns; the median pass is its time."""
    answers: dict[str, np.ndarray] = {}
    loads: dict[str, int] = {}
    seconds: dict[str, list[float]] = {name: [] for name in routes}
    for repeat in range(TIMING_REPEATS):
        progress(repeat / TIMING_REPEATS, f"answering every strategy, pass {repeat + 1} of {TIMING_REPEATS}")
        for name, (chosen, _) in routes.items():
            start = time.process_time()
            done = batched(store, names, test, chosen)
            seconds[name].append(time.process_time() - start)
            answers.setdefault(name, done.answers)
            loads.setdefault(name, done.loads)
    return answers, {name: Cost(loads[name], sum(len(c) for c in routes[name][0]), float(np.median(seconds[name])))
                     for name in routes}


def _exact(named: Sequence[Sequence[str]], queries: Sequence[Query]) -> np.ndarray:
    return np.array([set(n) == set(q.skills) for n, q in zip(named, queries, strict=True)])


def run_seed(seed: int, *, queries: int, k: int, method: str, validation_per_skill: int,
             progress: MonotoneProgress) -> SeedRun:
    names = expert_names()
    rng = np.random.default_rng(seed)
    validation = make_queries(len(SKILLS) * validation_per_skill, rng)
    test = make_queries(queries, rng)
    truth = np.array([q.answer for q in test])
    with tempfile.TemporaryDirectory(prefix="skill_moe_") as folder:
        progress(0.0, "training the 16 experts")
        pool: Pool = train_pool(Path(folder), seed)
        progress(0.3, "every expert answers the validation and test queries")
        val_answers = _answers(pool.store, names, validation)
        val_correct = val_answers == np.array([q.answer for q in validation])[None, :]
        all_answers = _answers(pool.store, names, test)
        profile = _accuracy_profile(val_correct, validation)
        moe = _prepare(val_correct, val_answers, validation, k, seed)
        progress(0.4, "the skill tagger and the trained router, each tuned on its grid")
        x, x_test = features(validation), features(test)
        tagger, tagger_grid = _tagger(x, validation, seed, "skill tagger")
        form_tagger, _ = _tagger(form_features(validation), validation, seed, "form-only tagger")
        router, router_grid = _router(x, val_answers, val_correct, np.array([q.answer for q in validation]), k, seed)
        learned = tag(tagger.probabilities(x_test))
        by_form = tag(form_tagger.probabilities(form_features(test)))
        inferred = learned if method == "learned" else by_form
        routes = _routes(profile, moe, inferred, test, router.probabilities(x_test), k, rng)
        answers, cost = _answer_all(pool.store, names, test, routes, progress.stage(0.5, 0.85))
        accuracy, identical = {}, True
        for name, (chosen, weights) in routes.items():
            picked = np.array([[all_answers[e, q] for e in c] for q, c in enumerate(chosen)])
            identical &= bool(np.array_equal(answers[name], picked))
            accuracy[name] = routing.weighted_vote(answers[name], weights) == truth
        instance = routes["instance_routing"][0]
        part = min(len(test), NAIVE_QUERIES)
        cpu = time.process_time()
        slow = naive(pool.store, names, test[:part], instance[:part], progress.stage(0.85, 0.98))
        slow_seconds = time.process_time() - cpu
    scale = len(test) / part
    return SeedRun(
        seed=seed, accuracy={s: float(accuracy[s].mean()) for s in STRATEGIES}, correct=accuracy, cost=cost,
        naive=Cost(round(slow.loads * scale), cost["instance_routing"].pairs, slow_seconds * scale),
        answers_identical=identical and bool(np.array_equal(answers["instance_routing"][:part], slow.answers)),
        skill_accuracy=float(_exact(inferred, test).mean()), form_accuracy=float(_exact(by_form, test).mean()),
        tagged_right=_exact(inferred, test), profile=profile, aggregator=moe.aggregator,
        aggregator_accuracy=moe.aggregator_accuracy, test=test,
        chosen_counts=np.bincount(np.concatenate([np.array(c) for c in instance]), minlength=len(names)),
        task_experts={t: routing.task_top_k(profile, [t], k)[0] for t in TASKS},
        best_single=routing.best_single(profile), grids=[tagger_grid, router_grid])
