"""Expert selection (instance-level by skill, task-level, random, best single, all) and vote aggregation.

`profile[e, s]` is expert e's accuracy on validation queries of skill s. Instance-level routing
(Skill-MoE) ranks the experts by their profile on the query's inferred skill; task-level routing
ranks them by their mean profile over the task's skills and uses the same k experts for every query
of the task.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .suite import SKILLS, TASKS

__all__ = ["TrainedRouter", "best_single", "instance_top_k", "random_k", "task_top_k", "weighted_vote"]

CLASSES = 10


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
