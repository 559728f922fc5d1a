"""A random forest seen as T score functions: per-tree class probabilities and weighted-vote predictions."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.ensemble import RandomForestClassifier

__all__ = ["Forest", "fit_forest"]


@dataclass(frozen=True)
class Forest:
    """The fitted trees as (sklearn tree, leaf class-probability table) pairs; K classes.

    The full ensemble predicts argmax_k sum_t p_t(x, k) (scikit-learn's soft vote); a pruned one
    predicts argmax_k sum_t w_t p_t(x, k) with w >= 0 (ties go to the lowest class, as in numpy).
    """

    trees: tuple[object, ...]
    leaf_probabilities: tuple[np.ndarray, ...]  # per tree: (nodes, K), rows sum to 1 at leaves
    classes: int

    @property
    def size(self) -> int:
        return len(self.trees)

    def leaves(self, X: np.ndarray) -> np.ndarray:
        """(n, T) leaf index of every point in every tree (scikit-learn's float32 comparisons, no validation)."""
        X32 = np.ascontiguousarray(X, dtype=np.float32)
        return np.stack([tree.tree_.apply(X32) for tree in self.trees], axis=1)  # type: ignore[attr-defined]

    def tree_probabilities(self, X: np.ndarray) -> np.ndarray:
        """(n, T, K) class probabilities of every tree (keep n small: this is n T K floats)."""
        leaves = self.leaves(X)
        return np.stack([table[leaves[:, t]] for t, table in enumerate(self.leaf_probabilities)], axis=1)

    def scores_of_leaves(self, leaves: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """(n, K) weighted vote sum_t w_t p_t(x) from `leaves(X)` (all weights 1 when None)."""
        total = np.zeros((len(leaves), self.classes))
        for t, table in enumerate(self.leaf_probabilities):
            w = 1.0 if weights is None else float(weights[t])
            if w != 0.0:
                total += w * table[leaves[:, t]]
        return total

    def scores(self, X: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """(n, K) weighted vote sum_t w_t p_t(x) (all weights 1 when None); trees with w_t = 0 are skipped."""
        return self.scores_of_leaves(self.leaves(X), weights)

    def predict(self, X: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        return np.argmax(self.scores(X, weights), axis=1)


def fit_forest(X: np.ndarray, y: np.ndarray, *, trees: int, max_depth: int, seed: int) -> Forest:
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
    return Forest(tuple(model.estimators_), tuple(tables), classes)
