"""Exact indices by brute force over all 2^n coalitions, from the definitions (the ground truth)."""

from __future__ import annotations

import math

import numpy as np

from models.shapley_graph.indices import GameIndices

__all__ = ["all_coalitions", "exact_indices", "popcount"]


def all_coalitions(n: int) -> np.ndarray:
    """Every coalition as a boolean mask, shape (2^n, n); row s contains atom i iff bit i of s is set."""
    s = np.arange(2**n, dtype=np.int64)
    return ((s[:, None] >> np.arange(n)) & 1).astype(bool)


def popcount(s: np.ndarray) -> np.ndarray:
    """Number of set bits of each integer in s."""
    s = s.astype(np.int64)
    count = np.zeros_like(s)
    while np.any(s):
        count += s & 1
        s = s >> 1
    return count


def exact_indices(values: np.ndarray, n: int) -> GameIndices:
    """Shapley, Banzhaf, SII, STII (order 2) and Banzhaf interactions of v given on all 2^n coalitions.

    values[s] = v(S) with S encoded as the bits of s (see `all_coalitions`). Definitions (Grabisch &
    Roubens 1999 for SII; Sundararajan et al. 2020 for STII), summed over S not containing i (or i, j):
      phi_i = sum |S|! (n-|S|-1)! / n! [v(S+i) - v(S)],
      SII_ij = sum |S|! (n-|S|-2)! / (n-1)! D_ij v(S),   STII_ij = (2/n) sum D_ij v(S) / C(n-1, |S|),
    with D_ij v(S) = v(S+ij) - v(S+i) - v(S+j) + v(S), and STII_i = v({i}) - v(empty).
    """
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (2**n,):
        raise ValueError(f"expected {2**n} values, got {values.shape}")
    s = np.arange(2**n, dtype=np.int64)
    size = popcount(s)
    fact = np.array([math.factorial(k) for k in range(n + 1)], dtype=np.float64)
    w_shap = fact[: n] * fact[n - 1 :: -1][: n] / fact[n]  # |S| = 0..n-1
    shapley = np.zeros(n)
    banzhaf = np.zeros(n)
    for i in range(n):
        rest = s[(s >> i) & 1 == 0]
        marginal = values[rest | (1 << i)] - values[rest]
        shapley[i] = np.dot(w_shap[size[rest]], marginal)
        banzhaf[i] = marginal.mean()

    sii = np.zeros((n, n))
    stii = np.zeros((n, n))
    banzhaf_pair = np.zeros((n, n))
    if n >= 2:
        k = np.arange(n - 1)
        w_sii = fact[k] * fact[n - 2 - k] / fact[n - 1]
        w_stii = np.array([2.0 / n / math.comb(n - 1, int(m)) for m in k])
        for i in range(n):
            for j in range(i + 1, n):
                rest = s[((s >> i) & 1 == 0) & ((s >> j) & 1 == 0)]
                delta = (
                    values[rest | (1 << i) | (1 << j)]
                    - values[rest | (1 << i)]
                    - values[rest | (1 << j)]
                    + values[rest]
                )
                sizes = size[rest]
                sii[i, j] = sii[j, i] = np.dot(w_sii[sizes], delta)
                stii[i, j] = stii[j, i] = np.dot(w_stii[sizes], delta)
                banzhaf_pair[i, j] = banzhaf_pair[j, i] = delta.mean()
    singles = values[1 << np.arange(n)] - values[0]
    return GameIndices(
        shapley=shapley,
        banzhaf=banzhaf,
        sii=sii,
        stii=stii,
        banzhaf_pair=banzhaf_pair,
        stii_single=singles,
    )
