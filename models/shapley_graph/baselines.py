"""Baselines at the same query budget: exact brute force and shapiq's sampling estimators."""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np

from models.shapley_graph.exact import all_coalitions, exact_indices
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.oracles import CoalitionGame

__all__ = ["EXACT_MAX_ATOMS", "BaselineEstimate", "exact_game_indices", "shapiq_estimates"]

EXACT_MAX_ATOMS = 16


@dataclass
class BaselineEstimate:
    """One shapiq estimator's output: Shapley values (or None) and pairwise SII (or None)."""

    name: str
    shapley: np.ndarray | None
    sii: np.ndarray | None
    queries: int
    seconds: float


def exact_game_indices(game: CoalitionGame) -> tuple[GameIndices, np.ndarray]:
    """Every index by brute force: one batched call on all 2^n coalitions (n <= 16), and the values."""
    n = game.n_players
    if n > EXACT_MAX_ATOMS:
        raise ValueError(f"exact indices need n <= {EXACT_MAX_ATOMS}, got {n}")
    values = game(all_coalitions(n))
    return exact_indices(values, n), values


def _first_order(values: object, n: int) -> np.ndarray:
    return np.array([float(values[(i,)]) for i in range(n)])  # type: ignore[index]


def _pairs(values: object, n: int) -> np.ndarray:
    sii = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            sii[i, j] = sii[j, i] = float(values[(i, j)])  # type: ignore[index]
    return sii


def shapiq_estimates(game: CoalitionGame, budget: int, seed: int, pairs: bool = True) -> list[BaselineEstimate]:
    """KernelSHAP and PermutationSamplingSV (Shapley) and KernelSHAPIQ (pairwise SII), shapiq 1.4.

    Each gets the same budget of game evaluations as TN-SHAP-G; the query count is what the game saw,
    and `seconds` is each estimator's own wall time (game evaluations included).
    """
    import shapiq

    n = game.n_players
    estimators: list[tuple[str, object, bool]] = [
        ("KernelSHAP", shapiq.KernelSHAP(n=n, random_state=seed), False),
        ("PermutationSamplingSV", shapiq.PermutationSamplingSV(n=n, random_state=seed), False),
    ]
    if pairs and n >= 2:
        estimators.append(("KernelSHAPIQ", shapiq.KernelSHAPIQ(n=n, max_order=2, index="SII", random_state=seed), True))
    out = []
    for name, approximator, is_pairs in estimators:
        before = game.queries
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = approximator.approximate(budget=budget, game=game)  # type: ignore[attr-defined]
        seconds = time.perf_counter() - start
        used = game.queries - before
        if is_pairs:
            out.append(BaselineEstimate(name, None, _pairs(values, n), used, seconds))
        else:
            out.append(BaselineEstimate(name, _first_order(values, n), None, used, seconds))
    return out
