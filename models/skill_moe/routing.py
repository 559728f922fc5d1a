"""Expert selection (instance-level by skill, task-level, random, best single, all) and aggregation.

Skill-MoE recruits as the official code does (`net_profile`, `competence`, `recruit`): a net +1/-1 count
per skill from the validation answers, a global competence from their sum (T = 0.5), and k experts sampled
with replacement in proportion to local score x competence; an aggregation rule chosen on the validation
set writes the answer (`aggregate`). `profile[e, s]` in the other functions is expert e's accuracy on
validation queries of skill s: task-level routing ranks the experts by their mean profile over the task's
skills and uses the same k experts for every query of the task; `instance_top_k` is the deterministic
top-k on one skill (our earlier, greedier rule).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .wordsuite import SKILLS, TASKS

__all__ = ["AGGREGATORS", "TEMPERATURE", "TrainedRouter", "aggregator_weights", "best_single", "competence", "instance_top_k", "net_profile",
           "random_k", "recruit", "task_top_k", "weighted_vote"]

CLASSES = 10
TEMPERATURE = 0.5  # the official code's T: competence = (shifted net score) ** (1 / T), normalised
AGGREGATORS = ("majority", "competence", "skill")  # the aggregation rules the validation set chooses among


def net_profile(correct: np.ndarray, skill_of: np.ndarray, skills: int) -> np.ndarray:
    """profile[e, s]: +1 for each validation query of skill s expert e answers right, -1 for each it gets
    wrong (the official code's net count, not an accuracy). correct: (experts, queries) booleans."""
    signed = np.where(correct, 1, -1)
    return np.stack([signed[:, skill_of == s].sum(axis=1) for s in range(skills)], axis=1)


def competence(profile: np.ndarray, temperature: float = TEMPERATURE) -> np.ndarray:
    """Global competence per expert: its net score summed over skills, shifted to be positive when any is
    negative (x - min + 1), raised to 1 / temperature and normalised to a probability."""
    total = profile.sum(axis=1).astype(float)
    if total.min() < 0:
        total = total - total.min() + 1
    powered = total ** (1.0 / temperature)
    return np.asarray(powered / powered.sum()) if powered.sum() > 0 else np.full(len(total), 1.0 / len(total))


def recruit(profile: np.ndarray, strength: np.ndarray, skills: Sequence[Sequence[int]], k: int,
            rng: np.random.Generator) -> tuple[list[list[int]], np.ndarray]:
    """Per query: k experts sampled with replacement, weight = local score x competence (the official rule).

    The local score of an expert is the sum of its profile over the query's inferred skills; only experts
    with a positive score are eligible (if none is, every score is shifted to min 1). Returns the chosen
    experts and each one's local score (the "skill" aggregator's weights)."""
    chosen, local = [], []
    for query_skills in skills:
        score = profile[:, list(query_skills)].sum(axis=1).astype(float) if query_skills else profile.sum(axis=1) * 0.0
        if (score > 0).any():
            weight = np.where(score > 0, score, 0.0) * strength
        else:
            score = score - score.min() + 1
            weight = score * strength
        if weight.sum() <= 0:
            weight = np.ones_like(weight)
        picks = [int(e) for e in rng.choice(len(weight), size=k, replace=True, p=weight / weight.sum())]
        chosen.append(picks)
        local.append([max(float(score[e]), 1e-9) for e in picks])
    return chosen, np.array(local)


def aggregator_weights(rule: str, local: np.ndarray, strength: np.ndarray,
                       chosen: Sequence[Sequence[int]]) -> np.ndarray:
    """(queries, k) vote weights of one of AGGREGATORS: equal (majority), the experts' global competence, or
    their local skill score."""
    if rule == "majority":
        return np.ones(local.shape)
    if rule == "competence":
        return np.array([[strength[e] for e in c] for c in chosen])
    if rule == "skill":
        return np.asarray(local, dtype=float)
    raise ValueError(f"unknown aggregator {rule!r}")


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the k largest scores; ties go to the lower index (a stable sort)."""
    return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def instance_top_k(profile: np.ndarray, skills: Sequence[str | None], k: int) -> list[list[int]]:
    """Per query: the k experts with the best validation accuracy on its inferred skill.

    A query whose skill could not be inferred falls back to the experts best on average.
    """
    mean = profile.mean(axis=1)
    return [_top(profile[:, SKILLS.index(s)] if s is not None else mean, k) for s in skills]


def task_top_k(profile: np.ndarray, tasks: Sequence[str], k: int) -> list[list[int]]:
    """Per query: the k experts best on average over its task's skills (the same for the whole task)."""
    chosen = {t: _top(profile[:, [SKILLS.index(s) for s in TASKS[t]]].mean(axis=1), k) for t in TASKS}
    return [chosen[t] for t in tasks]


def random_k(experts: int, queries: int, k: int, rng: np.random.Generator) -> list[list[int]]:
    """Per query: k distinct experts drawn uniformly."""
    return [[int(e) for e in rng.choice(experts, size=k, replace=False)] for _ in range(queries)]


def best_single(profile: np.ndarray) -> int:
    """The expert with the best mean validation accuracy over all skills."""
    return int(np.argmax(profile.mean(axis=1)))


def weighted_vote(answers: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per row: the class with the largest total weight among the experts' answers (ties: smallest class).

    answers, weights: (queries, k). Unit weights give a plain majority vote.
    """
    totals = np.zeros((answers.shape[0], CLASSES))
    rows = np.repeat(np.arange(answers.shape[0]), answers.shape[1])
    np.add.at(totals, (rows, answers.ravel()), weights.ravel())
    return np.argmax(totals, axis=1)


class TrainedRouter:
    """A router learnt from data, as RouteLLM does (Ong et al. 2024): a logistic model per expert predicts
    from the query's characters (one-hot at each position) whether that expert answers it correctly; it
    is trained on the validation answers that also give the skill profiles, and needs no skill labels.
    Each query goes to the k experts with the highest predicted probability; votes are weighted by it.

    Fitted by full-batch gradient descent on the mean cross-entropy plus an L2 penalty (numpy; seeded
    small initial weights)."""

    def __init__(self, features: np.ndarray, correct: np.ndarray, seed: int, steps: int = 300,
                 learning_rate: float = 2.0, l2: float = 1e-4) -> None:
        """features: (queries, d); correct: (experts, queries) booleans."""
        rng = np.random.default_rng([seed, 11])
        x, y = features.astype(np.float64), correct.T.astype(np.float64)
        self.weights = 0.01 * rng.standard_normal((x.shape[1], y.shape[1]))
        self.bias = np.zeros(y.shape[1])
        for _ in range(steps):
            error = _sigmoid(x @ self.weights + self.bias) - y
            self.weights -= learning_rate * (x.T @ error / len(x) + l2 * self.weights)
            self.bias -= learning_rate * error.mean(axis=0)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(queries, experts): the predicted probability that each expert is right."""
        return _sigmoid(features @ self.weights + self.bias)

    def route(self, features: np.ndarray, k: int) -> tuple[list[list[int]], np.ndarray]:
        """The k experts of each query and the (queries, k) vote weights."""
        p = self.probabilities(features)
        chosen = [_top(row, k) for row in p]
        return chosen, np.array([[row[e] for e in experts] for row, experts in zip(p, chosen, strict=True)])


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
