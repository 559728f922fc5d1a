"""The skill tagger and the trained router: one model class, the same features, the same training budget.

Both are logistic models with one sigmoid output per target (the tagger: one per skill, the router: one
per expert, "is this expert right on this query", as RouteLLM learns it), on the same features (the bag
of cue words and the two digits, one-hot), fitted by STEPS steps of full-batch gradient descent. Each
picks its L2 penalty on the same bracketing grid by its own score on held-out folds of the
validation set (4-fold cross-validation), then is refitted on the whole validation set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from models.common.grids import GridReport, best_on_grid

from .wordsuite import SKILLS, WORDS, Query

__all__ = ["L2_GRID", "STEPS", "Logistic", "features", "fit_on_grid", "form_features", "tag"]

STEPS = 300
LEARNING_RATE = 0.25
L2_GRID = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)
FOLDS = 4
_INDEX = {w: i for i, w in enumerate(WORDS)}


def features(queries: Sequence[Query]) -> np.ndarray:
    """(queries, words + 20): the bag of cue words and the one-hot digits."""
    out = np.zeros((len(queries), len(WORDS) + 20))
    for i, q in enumerate(queries):
        for w in q.words:
            out[i, _INDEX[w]] = 1.0
        out[i, len(WORDS) + q.x] = 1.0
        out[i, len(WORDS) + 10 + q.y] = 1.0
    return out


def form_features(queries: Sequence[Query]) -> np.ndarray:
    """The surface form only (how many cue words, the digits): what a reader of the form sees."""
    out = np.zeros((len(queries), 22))
    for i, q in enumerate(queries):
        out[i, len(q.words) - 1] = 1.0
        out[i, 2 + q.x] = 1.0
        out[i, 12 + q.y] = 1.0
    return out


class Logistic:
    """Independent sigmoid outputs on shared features; full-batch gradient descent on the mean
    cross-entropy plus l2 * |w|^2 / 2 (seeded small initial weights); each weight's step is scaled by
    1 / (the share of rows where its feature is on), a diagonal preconditioner for one-hot inputs."""

    def __init__(self, x: np.ndarray, y: np.ndarray, l2: float, seed: int, steps: int = STEPS) -> None:
        rng = np.random.default_rng([seed, 11])
        self.weights = 0.01 * rng.standard_normal((x.shape[1], y.shape[1]))
        self.bias = np.zeros(y.shape[1])
        scale = 1.0 / np.maximum(x.mean(axis=0), 1.0 / len(x))[:, None]  # a rare cue word learns as fast as a digit
        for _ in range(steps):
            error = _sigmoid(x @ self.weights + self.bias) - y
            step = self.weights - LEARNING_RATE * scale * (x.T @ error / len(x))
            self.weights = step / (1.0 + LEARNING_RATE * l2)  # the penalty's proximal step: stable at any l2
            self.bias -= LEARNING_RATE * error.mean(axis=0)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return _sigmoid(x @ self.weights + self.bias)


def fit_on_grid(name: str, x: np.ndarray, y: np.ndarray, score: Callable[[Logistic, np.ndarray], float],
                seed: int) -> tuple[Logistic, GridReport]:
    """Pick l2 on L2_GRID by the mean over FOLDS folds of `score(model, held_out_rows)` (higher is better) of a
    model fitted on the other folds, then refit on all rows. Of equal scores (a plateau of weak penalties
    that all fit the same), the strongest penalty wins."""
    folds = np.array_split(np.random.default_rng([seed, 13]).permutation(len(x)), FOLDS)
    values = sorted(L2_GRID, reverse=True)  # equal scores go to the stronger penalty (the first listed)
    scores = []
    for l2 in values:
        held_scores = []
        for held in folds:
            kept = np.setdiff1d(np.arange(len(x)), held)
            held_scores.append(score(Logistic(x[kept], y[kept], l2, seed), held))
        scores.append(float(np.mean(held_scores)))
    report = best_on_grid(name, "l2", values, scores, lower_is_better=False)
    return Logistic(x, y, report.best, seed), report


def tag(probabilities: np.ndarray, most: int = 2) -> list[tuple[str, ...]]:
    """Per query: every skill with probability above 1/2 (at most `most`, the likeliest first), or the
    likeliest one when none is."""
    out = []
    for row in probabilities:
        ranked = [int(i) for i in np.argsort(-row, kind="stable")]
        above = [i for i in ranked[:most] if row[i] > 0.5]
        out.append(tuple(SKILLS[i] for i in (above or ranked[:1])))
    return out


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
