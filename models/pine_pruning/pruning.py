"""Faithful pruning: the fewest trees (with weights) that reproduce the forest's vote on a region.

Given points S with the full forest's classes c(x), the pruned weights solve

    min  sum_t z_t                                   (MILP, L0: trees kept)
    s.t. sum_t w_t (p_t(x, c(x)) - p_t(x, k)) >= m   for all x in S, k != c(x)
         0 <= w_t <= z_t,  z_t in {0, 1},

or the L1 relaxation min sum_t w_t (LP). The vote is scale-free, so weights are capped at 1 (the full
forest's) and the margin m = min(0.01, the forest's smallest margin on S) keeps the forest itself
feasible. Points where the forest's vote is an exact tie (margin below 1e-9) are left out of S: there
the forest's class is decided by round-off. An oracle then searches the region for a point where the pruned
vote differs; each such point joins S and the program is solved again, until a search finds none
(FIPE, Emine et al. 2025, does this over the whole input space; PINE restricts it to a region).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.sparse import csr_matrix, hstack, identity, vstack

from models.common.contract import Progress, no_progress
from models.common.tabular.highs import LinearSolution, solve_lp, solve_milp
from models.pine_pruning.ensemble import Forest
from models.pine_pruning.region import Sampler

__all__ = ["FaithfulPruning", "accuracy_pruning", "faithful_prune", "margin_rows", "solve_weights", "tie_free"]

Solver = Literal["milp", "lp"]
ACTIVE = 1e-7  # a weight above this counts as a kept tree
TIE = 1e-9  # a full-forest vote margin below this is a tie decided by floating-point round-off
MARGIN = 1e-4  # pruned-vote margin required (weights lie in [0, 1]; the full forest has all weights 1)


def margin_rows(forest: Forest, X: np.ndarray) -> np.ndarray:
    """Rows p_t(x, c) - p_t(x, k) for every point x and class k != c (the full forest's class).

    The full forest's own margin on a row is the row's sum (all weights 1).
    """
    probs = forest.tree_probabilities(X)  # (n, T, K)
    target = np.argmax(probs.sum(axis=1), axis=1)
    rows = [probs[target != k, :, target[target != k]] - probs[target != k, :, k] for k in range(forest.classes)]
    return np.vstack(rows) if rows else np.empty((0, forest.size))


def tie_free(forest: Forest, X: np.ndarray) -> np.ndarray:
    """Mask of the points where the full forest's vote margin is above TIE (its class is not a round-off tie)."""
    scores = np.sort(forest.scores(X), axis=1)
    return scores[:, -1] - scores[:, -2] > TIE if forest.classes > 1 else np.ones(len(X), dtype=bool)


def _l1(rows: np.ndarray, cost: np.ndarray, time_limit: float) -> LinearSolution:
    T = rows.shape[1]
    return solve_lp(cost, csr_matrix(rows), np.ones(len(rows)), np.full(len(rows), np.inf),
                    var_lower=np.zeros(T), var_upper=np.ones(T), time_limit=time_limit)


def _l0(rows: np.ndarray, time_limit: float) -> LinearSolution:
    T = rows.shape[1]
    link = hstack([identity(T), -identity(T)]).tocsr()  # w_t - z_t <= 0
    matrix = vstack([csr_matrix(np.hstack([rows, np.zeros_like(rows)])), link]).tocsr()
    lower = np.concatenate([np.ones(len(rows)), np.full(T, -np.inf)])
    upper = np.concatenate([np.full(len(rows), np.inf), np.zeros(T)])
    solution = solve_milp(np.concatenate([np.zeros(T), np.ones(T)]), matrix, lower, upper,
                          integrality=np.concatenate([np.zeros(T), np.ones(T)]),
                          var_lower=np.zeros(2 * T), var_upper=np.ones(2 * T), time_limit=time_limit)
    if solution.x is None:
        return solution
    return LinearSolution(solution.status, solution.x[:T], solution.objective, solution.dual_bound, solution.message)


def solve_weights(rows: np.ndarray, *, solver: Solver, time_limit: float, reweighting: int = 3) -> LinearSolution:
    """Sparse weights on margin rows (one per point and rival class), always feasible on the rows.

    Weights lie in [0, 1] and the required margin is min(MARGIN, the full forest's smallest margin on
    the rows), so w = 1 (the full forest) is feasible. "lp": iteratively reweighted L1 (Candes, Wakin
    and Boyd 2008): min sum_t w_t / (w_t' + 1e-3), starting from plain L1, `reweighting` re-solves.
    "milp": the L0 program, falling back to the reweighted-L1 answer when HiGHS hits its time limit
    without a better incumbent (the status then says "time_limit").
    """
    T = rows.shape[1]
    margin = min(MARGIN, float(rows.sum(axis=1).min())) if len(rows) else MARGIN
    rows = rows / margin
    best = _l1(rows, np.ones(T), time_limit)
    for _ in range(reweighting):
        if best.x is None:
            break
        again = _l1(rows, 1.0 / (best.x / max(best.x.max(), 1e-12) + 1e-3), time_limit)
        if again.x is None or np.sum(again.x > ACTIVE) > np.sum(best.x > ACTIVE):
            break
        best = again
    if solver == "lp" or best.x is None:
        return best
    exact = _l0(rows, time_limit)
    if exact.x is not None and np.sum(exact.x > ACTIVE) <= np.sum(best.x > ACTIVE):
        return exact
    return LinearSolution("time_limit", best.x, float(np.sum(best.x > ACTIVE)), exact.dual_bound, exact.message)


@dataclass
class FaithfulPruning:
    """Outcome of the oracle loop: weights, trees kept, rounds, and the search effort behind the claim."""

    weights: np.ndarray
    trees_kept: int
    rounds: int
    constraint_points: int
    searched_points: int  # region points the oracle evaluated in all rounds
    ties_skipped: int  # searched points where the full forest's vote was a round-off tie
    converged: bool  # the last search found no disagreement
    optimal: bool  # every MILP/LP solve was proved optimal (no time limit hit)
    disagreements_per_round: list[int] = field(default_factory=list)
    trees_per_round: list[int] = field(default_factory=list)
    exact_on_constraints: bool = True  # the pruned vote equals the forest's on every point of S


def _pruned_weights(solution: LinearSolution, T: int) -> np.ndarray:
    if solution.x is None:  # no answer within the time limit: keep the whole forest (reported as not optimal)
        return np.ones(T)
    weights = np.where(solution.x > ACTIVE, solution.x, 0.0)
    return weights


def faithful_prune(forest: Forest, seed_points: np.ndarray, sampler: Sampler, rng: np.random.Generator, *,
                   solver: Solver = "milp", rounds: int = 20, search_size: int = 2000, add_per_round: int = 50,
                   time_limit: float = 5.0,
                   progress: Progress = no_progress) -> FaithfulPruning:
    """Prune on S = seed_points, then alternate oracle search and re-solve until the search finds no disagreement.

    `sampler(rng, n, S)` returns up to n points of the region (it may use the current S to search near it).
    Each round adds at most `add_per_round` disagreeing points (the ones with the largest pruned-vote error).
    """
    S = np.asarray(seed_points, dtype=float)
    S = S[tie_free(forest, S)]
    rows = margin_rows(forest, S)
    disagreements: list[int] = []
    trees: list[int] = []
    searched, ties, optimal = 0, 0, True
    weights = np.ones(forest.size)
    converged = False
    solved_on = S
    for round_index in range(rounds):
        solution = solve_weights(rows, solver=solver, time_limit=time_limit)
        solved_on = S
        optimal &= solution.optimal
        weights = _pruned_weights(solution, forest.size)
        trees.append(int(np.sum(weights > 0)))
        candidates = sampler(rng, search_size, S)
        searched += len(candidates)
        leaves = forest.leaves(candidates)
        full = forest.scores_of_leaves(leaves)
        ordered = np.sort(full, axis=1)
        clear = ordered[:, -1] - ordered[:, -2] > TIE
        ties += int(np.sum(~clear))
        candidates, full = candidates[clear], full[clear]
        pruned = forest.scores_of_leaves(leaves[clear], weights)
        target = np.argmax(full, axis=1)
        wrong = np.flatnonzero(np.argmax(pruned, axis=1) != target)
        disagreements.append(len(wrong))
        progress((round_index + 1) / rounds, f"round {round_index + 1}: {len(wrong)} disagreements in "
                 f"{len(candidates)} region points, {int(np.sum(weights > 0))} trees")
        if len(wrong) == 0:
            converged = True
            break
        # Most violated first: the pruned vote's lead of its wrong class over the forest's class.
        lead = pruned[wrong].max(axis=1) - pruned[wrong, target[wrong]]
        chosen = wrong[np.argsort(-lead)[:add_per_round]]
        new_rows = margin_rows(forest, candidates[chosen])
        S = np.vstack([S, candidates[chosen]])
        rows = np.vstack([rows, new_rows])
    exact = bool(np.all(forest.predict(solved_on, weights) == forest.predict(solved_on)))
    return FaithfulPruning(weights, int(np.sum(weights > 0)), len(disagreements), len(solved_on), searched, ties,
                           converged, optimal, disagreements, trees, exact)


def accuracy_pruning(forest: Forest, X_val: np.ndarray, y_val: np.ndarray) -> np.ndarray:
    """Reduce-error pruning (Margineantu & Dietterich 1997): greedy forward selection on validation accuracy.

    Trees are added one at a time, each time the one whose addition gives the best validation accuracy
    (ties: the better mean probability of the true class); the kept set is the shortest prefix reaching
    the best accuracy seen. Returns 0/1 weights (an unweighted sub-forest).
    """
    probs = forest.tree_probabilities(X_val)  # (n, T, K)
    n, T, _ = probs.shape
    chosen: list[int] = []
    total = np.zeros((n, forest.classes))
    history: list[float] = []
    remaining = list(range(T))
    for _ in range(T):
        candidate_totals = total[:, None, :] + probs[:, remaining, :]  # (n, R, K)
        accuracy = (np.argmax(candidate_totals, axis=2) == y_val[:, None]).mean(axis=0)
        true_mass = candidate_totals[np.arange(n), :, y_val].mean(axis=0) / (len(chosen) + 1)
        best = int(np.lexsort((-true_mass, -accuracy))[0])
        tree = remaining.pop(best)
        chosen.append(tree)
        total += probs[:, tree, :]
        history.append(float(accuracy[best]))
    keep = int(np.argmax(history)) + 1
    weights = np.zeros(T)
    weights[chosen[:keep]] = 1.0
    return weights
