"""A tree ensemble seen as T additive score functions: a random forest or a gradient-boosted ensemble.

Both families predict argmax_k [ b_k + sum_t w_t v_t(leaf_t(x), k) ] with all w_t = 1 for the full
ensemble (ties go to the lowest class, as in numpy and scikit-learn):

- random forest: v_t = the leaf's class probabilities, b = 0 (scikit-learn's soft vote);
- gradient boosting (scikit-learn `GradientBoostingClassifier`): every regression tree is one unit t;
  v_t adds learning_rate x leaf value to its class column (binary: column 1 of [0, raw score]), and b is
  the initial raw score. Boosted leaf values are real and signed, so pruning changes the raw score.

A pruned ensemble keeps the base b and reweights the trees (w_t >= 0; w_t = 0 drops tree t).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier

__all__ = ["Ensemble", "Family", "Forest", "fit_ensemble", "fit_forest"]

Family = Literal["gradient_boosting", "random_forest"]


@dataclass(frozen=True)
class Ensemble:
    """The fitted trees (scikit-learn tree_ objects), a leaf score table per tree, the base score."""

    trees: tuple[object, ...]  # sklearn Tree objects (the estimator's `tree_`)
    leaf_probabilities: tuple[np.ndarray, ...]  # per tree: (nodes, K) score contribution of each leaf
    classes: int
    base: np.ndarray | None = None  # (K,) initial score (boosting); None means 0
    family: str = "random_forest"

    @property
    def size(self) -> int:
        return len(self.trees)

    @property
    def offset(self) -> np.ndarray:
        return np.zeros(self.classes) if self.base is None else self.base

    def leaves(self, X: np.ndarray) -> np.ndarray:
        """(n, T) leaf index of every point in every tree (scikit-learn's float32 comparisons, no validation)."""
        X32 = np.ascontiguousarray(X, dtype=np.float32)
        return np.stack([tree.apply(X32) for tree in self.trees], axis=1)  # type: ignore[attr-defined]

    def tree_probabilities(self, X: np.ndarray) -> np.ndarray:
        """(n, T, K) score contribution of every tree (keep n small: this is n T K floats)."""
        leaves = self.leaves(X)
        return np.stack([table[leaves[:, t]] for t, table in enumerate(self.leaf_probabilities)], axis=1)

    def scores_of_leaves(self, leaves: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """(n, K) b + sum_t w_t v_t(x) from `leaves(X)` (all weights 1 when None)."""
        total = np.tile(self.offset, (len(leaves), 1))
        for t, table in enumerate(self.leaf_probabilities):
            w = 1.0 if weights is None else float(weights[t])
            if w != 0.0:
                total += w * table[leaves[:, t]]
        return total

    def thresholds(self, d: int) -> list[np.ndarray]:
        """Every feature's split thresholds over all trees (sorted, unique; empty for a feature never split on)."""
        found: list[list[float]] = [[] for _ in range(d)]
        for tree in self.trees:
            feature, threshold = tree.feature, tree.threshold  # type: ignore[attr-defined]
            for f, t in zip(feature, threshold, strict=True):
                if f >= 0:
                    found[int(f)].append(float(t))
        return [np.unique(np.asarray(v, dtype=float)) for v in found]

    def scores(self, X: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return self.scores_of_leaves(self.leaves(X), weights)

    def predict(self, X: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return np.argmax(self.scores(X, weights), axis=1)


Forest = Ensemble  # the name the earlier code and tests use


def fit_forest(X: np.ndarray, y: np.ndarray, *, trees: int, max_depth: int, seed: int) -> Ensemble:
    """A scikit-learn random forest (bootstrap, sqrt features per split, depth-limited), one thread."""
    model = RandomForestClassifier(n_estimators=trees, max_depth=max_depth, min_samples_leaf=2,
                                   random_state=seed, n_jobs=1)
    model.fit(np.asarray(X, dtype=np.float32), y)
    classes = int(np.max(y)) + 1
    tables = []
    for tree in model.estimators_:
        value = np.zeros((tree.tree_.node_count, classes))
        raw = tree.tree_.value[:, 0, :]
        value[:, tree.classes_.astype(int)] = raw / np.maximum(raw.sum(axis=1, keepdims=True), 1e-300)
        tables.append(value)
    return Ensemble(tuple(e.tree_ for e in model.estimators_), tuple(tables), classes, None, "random_forest")


def fit_boosting(X: np.ndarray, y: np.ndarray, *, trees: int, max_depth: int, seed: int,
                 learning_rate: float = 0.1) -> Ensemble:
    """scikit-learn gradient boosting (log-loss, `trees` stages; K regression trees a stage when K > 2)."""
    X32 = np.asarray(X, dtype=np.float32)
    model = GradientBoostingClassifier(n_estimators=trees, max_depth=max_depth, learning_rate=learning_rate,
                                       subsample=0.8, random_state=seed)
    model.fit(X32, y)
    classes = int(np.max(y)) + 1
    columns = [1] if classes == 2 else list(range(classes))
    units, tables = [], []
    for stage in model.estimators_:
        for k, estimator in enumerate(stage):
            value = np.zeros((estimator.tree_.node_count, classes))
            value[:, columns[k]] = learning_rate * estimator.tree_.value[:, 0, 0]
            units.append(estimator.tree_)
            tables.append(value)
    raw = model.decision_function(X32[:1]).reshape(1, -1)[0]
    contribution = sum(table[tree.apply(X32[:1])][0] for tree, table in zip(units, tables, strict=True))
    full = np.array([0.0, raw[0]]) if classes == 2 else raw
    base = full - contribution
    return Ensemble(tuple(units), tuple(tables), classes, base, "gradient_boosting")


def fit_ensemble(family: Family, X: np.ndarray, y: np.ndarray, *, trees: int, max_depth: int,
                 seed: int) -> Ensemble:
    if family == "gradient_boosting":
        return fit_boosting(X, y, trees=trees, max_depth=max_depth, seed=seed)
    return fit_forest(X, y, trees=trees, max_depth=max_depth, seed=seed)
