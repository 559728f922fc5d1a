"""The oracle's search distributions: the conformal in-distribution region, or the whole box."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from models.pine_pruning.chow_liu import ChowLiuTree

__all__ = ["Sampler", "box_sampler", "mutate", "region_sampler"]

# sampler(rng, n, S) -> at most n points of the search distribution (it may move from the points S).
Sampler = Callable[[np.random.Generator, int, np.ndarray], np.ndarray]


def mutate(rng: np.random.Generator, S: np.ndarray, n: int, low: np.ndarray, high: np.ndarray,
           max_coordinates: int = 3) -> np.ndarray:
    """n copies of random rows of S with 1..max_coordinates coordinates redrawn uniformly in the box.

    The local half of the search: disagreements cluster near the points already found, so small moves
    from S find the next ones faster than fresh draws do.
    """
    X = S[rng.integers(0, len(S), size=n)].copy()
    d = X.shape[1]
    count = rng.integers(1, min(max_coordinates, d) + 1, size=n)
    for k in range(min(max_coordinates, d)):
        rows = np.flatnonzero(count > k)
        cols = rng.integers(0, d, size=len(rows))
        X[rows, cols] = low[cols] + rng.random(len(rows)) * (high[cols] - low[cols])
    return X


def region_sampler(tree: ChowLiuTree, threshold: float, *, attempts: int = 8) -> Sampler:
    """A sampler of points with Chow-Liu log-likelihood >= threshold: half draws of the tree, half moves from S."""

    def sample(rng: np.random.Generator, n: int, S: np.ndarray) -> np.ndarray:
        kept: list[np.ndarray] = []
        total = 0
        for _ in range(attempts):
            fresh = tree.sample(n - n // 2, rng)
            moved = mutate(rng, S, n // 2, tree.low, tree.high) if len(S) else tree.sample(n // 2, rng)
            X = np.vstack([fresh, moved])
            X = X[tree.log_likelihood(X) >= threshold]
            kept.append(X)
            total += len(X)
            if total >= n:
                break
        return np.vstack(kept)[:n]

    return sample


def box_sampler(low: np.ndarray, high: np.ndarray) -> Sampler:
    """A sampler of the whole input box (FIPE's input space): half uniform draws, half moves from S."""

    def sample(rng: np.random.Generator, n: int, S: np.ndarray) -> np.ndarray:
        uniform = low + rng.random((n - n // 2, len(low))) * (high - low)
        moved = mutate(rng, S, n // 2, low, high) if len(S) else low + rng.random((n // 2, len(low))) * (high - low)
        return np.vstack([uniform, moved])

    return sample
