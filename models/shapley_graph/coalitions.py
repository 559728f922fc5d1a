"""Size-balanced sampling of distinct binary coalitions, always with the empty and full ones."""

from __future__ import annotations

import math

import numpy as np

from models.shapley_graph.exact import all_coalitions

__all__ = ["sample_coalitions"]


def _size_quota(n: int, budget: int) -> np.ndarray:
    """How many coalitions of each size 1..n-1 to draw: as equal as the counts C(n, k) allow."""
    capacity = np.array([math.comb(n, k) for k in range(1, n)], dtype=np.int64)
    quota = np.zeros(n - 1, dtype=np.int64)
    left = budget
    open_sizes = np.ones(n - 1, dtype=bool)
    while left > 0 and open_sizes.any():
        share = max(left // int(open_sizes.sum()), 1)
        for k in np.flatnonzero(open_sizes):
            take = min(share, int(capacity[k] - quota[k]), left)
            quota[k] += take
            left -= take
            if quota[k] >= capacity[k]:
                open_sizes[k] = False
            if left == 0:
                break
    return quota


def _draw_size(n: int, size: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` distinct coalitions of exactly `size` atoms, uniformly at random."""
    if count >= math.comb(n, size):
        from itertools import combinations

        rows = np.zeros((math.comb(n, size), n), dtype=bool)
        for r, combo in enumerate(combinations(range(n), size)):
            rows[r, list(combo)] = True
        return rows
    seen: set[bytes] = set()
    rows_list: list[np.ndarray] = []
    while len(rows_list) < count:
        # ranks of i.i.d. uniforms pick a uniform random subset of the given size
        keys = rng.random((2 * (count - len(rows_list)) + 4, n))
        chosen = np.argsort(keys, axis=1)[:, :size]
        for picks in chosen:
            mask = np.zeros(n, dtype=bool)
            mask[picks] = True
            key = np.packbits(mask).tobytes()
            if key not in seen:
                seen.add(key)
                rows_list.append(mask)
                if len(rows_list) == count:
                    break
    return np.array(rows_list, dtype=bool)


def sample_coalitions(n: int, budget: int, rng: np.random.Generator) -> np.ndarray:
    """`budget` distinct binary coalitions (or all 2^n if fewer): empty, full, then equal counts per size.

    Rows 0 and 1 are the empty and the full coalition. TN-SHAP-G fits only on such binary points:
    those are where the surrogate must match the game; the Shapley kernel puts equal mass on each size.
    """
    if n <= 20 and 2**n <= budget:
        everything = all_coalitions(n)
        sizes = everything.sum(axis=1)
        order = np.concatenate([[0, 2**n - 1], np.flatnonzero((sizes > 0) & (sizes < n))])
        return everything[order]
    quota = _size_quota(n, budget - 2)
    blocks = [np.zeros((1, n), dtype=bool), np.ones((1, n), dtype=bool)]
    for k, count in enumerate(quota, start=1):
        if count > 0:
            blocks.append(_draw_size(n, k, int(count), rng))
    return np.vstack(blocks)
