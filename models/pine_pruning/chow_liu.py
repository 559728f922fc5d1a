"""Chow-Liu tree density over quantile bins: fit, log-likelihood, ancestral sampling.

Each feature is cut into at most `bins` quantile bins of the training data inside the box [min, max]
of the training data. The Chow-Liu tree (Chow & Liu 1968) is the maximum-weight spanning tree of
the pairwise mutual informations of the binned features; it is the tree-structured distribution
closest in KL to the empirical one. The density of x is piecewise constant:

    log p(x) = sum_j [ log P(b_j(x) | b_parent(j)(x)) - log width_j(b_j(x)) ],

(uniform inside a bin), with conditional tables smoothed by a pseudo-count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ChowLiuTree", "fit_chow_liu", "maximum_spanning_tree", "mutual_information", "snap"]


@dataclass(frozen=True)
class ChowLiuTree:
    """A fitted Chow-Liu density: bin edges per feature, the tree (parent per feature) and its tables."""

    low: np.ndarray  # (d,) box lower corner
    high: np.ndarray  # (d,) box upper corner
    edges: tuple[np.ndarray, ...]  # interior bin edges per feature; bin = number of edges <= x
    parent: np.ndarray  # (d,) parent feature, -1 for the root
    order: np.ndarray  # (d,) features in breadth-first order from the root
    tables: tuple[np.ndarray, ...]  # tables[j][parent_bin, bin] = P(b_j | b_parent) (root: one row)
    discrete: bool = False  # score log P(bins) (the paper's code), without the uniform-in-bin width term

    @property
    def d(self) -> int:
        return len(self.low)

    def bin_bounds(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper end of every bin of feature j."""
        cuts = np.concatenate([[self.low[j]], self.edges[j], [self.high[j]]])
        return cuts[:-1], cuts[1:]

    def bins(self, X: np.ndarray) -> np.ndarray:
        """(n, d) bin index of every entry (values outside the box fall in the first or last bin)."""
        return np.stack([np.searchsorted(self.edges[j], X[:, j], side="right") for j in range(self.d)], axis=1)

    def log_width(self, j: int) -> np.ndarray:
        """log of every bin's width of feature j (zeros for a discrete score: the score is log P(bins))."""
        lo, hi = self.bin_bounds(j)
        return np.zeros(len(lo)) if self.discrete else np.log(np.maximum(hi - lo, 1e-12))

    def log_likelihood(self, X: np.ndarray) -> np.ndarray:
        """log p(clip(x)) of each row: the piecewise-constant density of x clipped into the box.

        Clipping makes the score finite everywhere; it loses nothing for a tree ensemble fitted to the same
        training data, whose split thresholds all lie strictly inside the box, so f(x) = f(clip(x)).
        """
        X = np.clip(np.asarray(X, dtype=float), self.low, self.high)
        b = self.bins(X)
        total = np.zeros(len(X))
        for j in range(self.d):
            row = b[:, self.parent[j]] if self.parent[j] >= 0 else np.zeros(len(X), dtype=int)
            total += np.log(self.tables[j][row, b[:, j]]) - self.log_width(j)[b[:, j]]
        return total

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n draws from the density: ancestral sampling of the bins along the tree, then uniform in each bin."""
        b = np.zeros((n, self.d), dtype=int)
        for j in self.order:
            row = b[:, self.parent[j]] if self.parent[j] >= 0 else np.zeros(n, dtype=int)
            cdf = np.cumsum(self.tables[j], axis=1)[row]
            b[:, j] = np.minimum((rng.random(n)[:, None] > cdf).sum(axis=1), self.tables[j].shape[1] - 1)
        X = np.empty((n, self.d))
        for j in range(self.d):
            lo, hi = self.bin_bounds(j)
            X[:, j] = lo[b[:, j]] + rng.random(n) * (hi - lo)[b[:, j]]
        return X


def mutual_information(a: np.ndarray, b: np.ndarray, ka: int, kb: int) -> float:
    """Empirical mutual information (nats) of two discrete columns with ka and kb values."""
    joint = np.zeros((ka, kb))
    np.add.at(joint, (a, b), 1.0)
    joint /= joint.sum()
    outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
    mask = joint > 0
    return float(np.sum(joint[mask] * np.log(joint[mask] / outer[mask])))


def maximum_spanning_tree(weights: np.ndarray) -> np.ndarray:
    """Parent array (root 0 has -1) of a maximum-weight spanning tree of a dense symmetric matrix (Prim)."""
    d = len(weights)
    parent = -np.ones(d, dtype=int)
    in_tree = np.zeros(d, dtype=bool)
    in_tree[0] = True
    best = weights[0].astype(float).copy()
    best_from = np.zeros(d, dtype=int)
    for _ in range(d - 1):
        candidates = np.where(in_tree, -np.inf, best)
        j = int(np.argmax(candidates))
        in_tree[j] = True
        parent[j] = best_from[j]
        better = (~in_tree) & (weights[j] > best)
        best[better] = weights[j][better]
        best_from[better] = j
    return parent


def _bfs_order(parent: np.ndarray) -> np.ndarray:
    order = [int(np.flatnonzero(parent < 0)[0])]
    for node in order:
        order.extend(int(c) for c in np.flatnonzero(parent == node))
    return np.asarray(order)


def snap(cuts: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Each cut moved to the nearest of `thresholds` (sorted, unique); no thresholds: no cuts (one bin)."""
    if len(thresholds) == 0 or len(cuts) == 0:
        return np.empty(0)
    t = np.unique(thresholds)
    right = np.clip(np.searchsorted(t, cuts), 0, len(t) - 1)
    left = np.clip(right - 1, 0, len(t) - 1)
    nearest = np.where(np.abs(t[left] - cuts) <= np.abs(t[right] - cuts), t[left], t[right])
    return np.unique(nearest)


def fit_chow_liu(X: np.ndarray, *, bins: int = 5, pseudo_count: float = 1.0,
                 thresholds: list[np.ndarray] | None = None, discrete: bool = False) -> ChowLiuTree:
    """Fit bins (quantiles of X), the Chow-Liu tree on the binned columns, and smoothed conditional tables.

    With `thresholds` (per feature, an ensemble's split thresholds) every quantile edge is snapped to the nearest
    threshold of its feature, as the paper's code does: a region cell is then a union of the ensemble's cells,
    and a feature no tree splits on has one bin (it does not enter the score)."""
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    low, high = X.min(axis=0), X.max(axis=0)
    quantiles = np.linspace(0.0, 1.0, bins + 1)[1:-1]
    edges = []
    for j in range(d):
        cut = np.unique(np.quantile(X[:, j], quantiles)) if high[j] > low[j] else np.empty(0)
        if thresholds is not None:
            cut = snap(cut, thresholds[j])
        edges.append(cut[(cut > low[j]) & (cut < high[j])])
    sizes = np.array([len(e) + 1 for e in edges])
    B = np.stack([np.searchsorted(edges[j], X[:, j], side="right") for j in range(d)], axis=1)
    mi = np.zeros((d, d))
    for i in range(d):
        for j in range(i + 1, d):
            if sizes[i] > 1 and sizes[j] > 1:
                mi[i, j] = mi[j, i] = mutual_information(B[:, i], B[:, j], sizes[i], sizes[j])
    parent = maximum_spanning_tree(mi)
    tables = []
    for j in range(d):
        rows = sizes[parent[j]] if parent[j] >= 0 else 1
        counts = np.full((rows, sizes[j]), pseudo_count)
        np.add.at(counts, (B[:, parent[j]] if parent[j] >= 0 else np.zeros(n, dtype=int), B[:, j]), 1.0)
        tables.append(counts / counts.sum(axis=1, keepdims=True))
    return ChowLiuTree(low, high, tuple(edges), parent, _bfs_order(parent), tuple(tables), discrete)
