"""Faithful pruning: the fewest trees (with weights) that reproduce the full ensemble's class on a region.

Given points S with the full ensemble's classes c(x), the pruned weights solve

    min  sum_t z_t                                             (MILP, L0: trees kept)
    s.t. (b_c - b_k) + sum_t w_t (v_t(x, c) - v_t(x, k)) >= m   for all x in S, k != c(x)
         0 <= w_t <= z_t u,  z_t in {0, 1},

or its reweighted L1 relaxation (LP). u caps the weights (1 for a forest's scale-free vote, a larger cap
for boosting, whose base score b stays fixed); the margin m = min(1e-4, the full ensemble's smallest
margin on S) keeps w = 1 feasible. Points where the full ensemble's margin is below 1e-9 (round-off ties)
are left out of S. The MILP oracle (`oracle.py`) then proves the pruned ensemble equivalent on the region
or returns counterexamples, which join S (FIPE, Emine et al. 2025, over the whole input space; PINE on
a conformal in-distribution region).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.sparse import csr_matrix, hstack, identity, vstack

from models.common.contract import Progress, no_progress
from models.common.tabular.highs import LinearSolution, solve_lp, solve_milp
from models.pine_pruning.ensemble import Ensemble
from models.pine_pruning.oracle import EquivalenceOracle
from models.pine_pruning.region import Sampler

__all__ = ["WEIGHT_CAP", "FaithfulPruning", "accuracy_pruning", "faithful_prune", "margin_rows", "solve_weights",
           "tie_free"]

Solver = Literal["milp", "lp"]
ACTIVE = 1e-7  # a weight above this counts as a kept tree
TIE = 1e-9  # a full-ensemble margin below this is a tie decided by floating-point round-off
MARGIN = 1e-4  # pruned margin required on the program's points
WEIGHT_CAP = {"random_forest": 1.0, "gradient_boosting": 4.0}


def margin_rows(ensemble: Ensemble, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows v_t(x, c) - v_t(x, k) and offsets b_c - b_k for every point x and class k != c (the full class).

    The full ensemble's own margin on a row is the row's sum plus its offset (all weights 1).
    """
    probs = ensemble.tree_probabilities(X)  # (n, T, K)
    target = np.argmax(probs.sum(axis=1) + ensemble.offset, axis=1)
    rows, offsets = [], []
    for k in range(ensemble.classes):
        keep = target != k
        rows.append(probs[keep, :, target[keep]] - probs[keep, :, k])
        offsets.append(ensemble.offset[target[keep]] - ensemble.offset[k])
    return np.vstack(rows), np.concatenate(offsets)


def tie_free(ensemble: Ensemble, X: np.ndarray) -> np.ndarray:
    """Mask of the points where the full ensemble's margin is above TIE (its class is not a round-off tie)."""
    scores = np.sort(ensemble.scores(X), axis=1)
    return scores[:, -1] - scores[:, -2] > TIE


def _l1(rows: np.ndarray, need: np.ndarray, cost: np.ndarray, upper: float, time_limit: float) -> LinearSolution:
    T = rows.shape[1]
    return solve_lp(cost, csr_matrix(rows), need, np.full(len(rows), np.inf),
                    var_lower=np.zeros(T), var_upper=np.full(T, upper), time_limit=time_limit)


def _l0(rows: np.ndarray, need: np.ndarray, upper: float, time_limit: float) -> LinearSolution:
    T = rows.shape[1]
    link = hstack([identity(T), -upper * identity(T)]).tocsr()  # w_t - u z_t <= 0
    matrix = vstack([csr_matrix(np.hstack([rows, np.zeros_like(rows)])), link]).tocsr()
    lower = np.concatenate([need, np.full(T, -np.inf)])
    bounds = np.concatenate([np.full(len(rows), np.inf), np.zeros(T)])
    solution = solve_milp(np.concatenate([np.zeros(T), np.ones(T)]), matrix, lower, bounds,
                          integrality=np.concatenate([np.zeros(T), np.ones(T)]), var_lower=np.zeros(2 * T),
                          var_upper=np.concatenate([np.full(T, upper), np.ones(T)]), time_limit=time_limit)
    if solution.x is None:
        return solution
    return LinearSolution(solution.status, solution.x[:T], solution.objective, solution.dual_bound, solution.message)


def solve_weights(rows: np.ndarray, offsets: np.ndarray, *, solver: Solver, time_limit: float, upper: float = 1.0,
                  reweighting: int = 3) -> LinearSolution:
    """Sparse weights in [0, upper] with margin >= m on every row; w = 1 (the full ensemble) is feasible.

    "lp": iteratively reweighted L1 (Candes, Wakin and Boyd 2008): min sum_t w_t / (w_t' + 1e-3), from
    plain L1, `reweighting` re-solves. "milp": the L0 program, falling back to the reweighted-L1 answer
    when HiGHS hits its time limit without a better incumbent (the status then says "time_limit").
    """
    T = rows.shape[1]
    if not len(rows):
        return LinearSolution("optimal", np.zeros(T), 0.0, 0.0)
    margin = min(MARGIN, float((rows.sum(axis=1) + offsets).min()))
    need = margin - offsets
    best = _l1(rows, need, np.ones(T), upper, time_limit)
    for _ in range(reweighting):
        if best.x is None:
            break
        again = _l1(rows, need, 1.0 / (best.x / max(best.x.max(), 1e-12) + 1e-3), upper, time_limit)
        if again.x is None or np.sum(again.x > ACTIVE) > np.sum(best.x > ACTIVE):
            break
        best = again
    if solver == "lp" or best.x is None:
        return best
    exact = _l0(rows, need, upper, time_limit)
    if exact.x is not None and np.sum(exact.x > ACTIVE) <= np.sum(best.x > ACTIVE):
        return exact
    return LinearSolution("time_limit", best.x, float(np.sum(best.x > ACTIVE)), exact.dual_bound, exact.message)


def center_weights(rows: np.ndarray, offsets: np.ndarray, weights: np.ndarray, *, upper: float,
                   time_limit: float) -> np.ndarray:
    """On the support of `weights`, the weights that keep the largest share theta of the full ensemble's own
    margin on every row: max theta s.t. (pruned margin) >= theta (full margin), 0 <= w <= upper, theta <= 1.

    A sparse program's vertex meets some rows with the least margin allowed, so the next point of the region
    just beside them disagrees again; weights in the middle of the feasible set leave the oracle fewer
    counterexamples per round (a central cutting-plane step). The support is kept; when the centred program
    is not solved, or keeps less than the sparse weights already do, `weights` come back unchanged.
    """
    support = np.flatnonzero(weights > 0)
    if not len(rows) or not len(support) or len(support) == len(weights):
        return weights
    full = rows.sum(axis=1) + offsets
    share = float(np.min((rows[:, support] @ weights[support] + offsets) / full))
    sub = rows[:, support]
    matrix = csr_matrix(np.hstack([sub, -full[:, None]]))
    n = len(support)
    solution = solve_lp(np.concatenate([np.zeros(n), [-1.0]]), matrix, -offsets, np.full(len(rows), np.inf),
                        var_lower=np.zeros(n + 1), var_upper=np.concatenate([np.full(n, upper), [1.0]]),
                        time_limit=time_limit)
    if solution.x is None or solution.x[-1] <= share:
        return weights
    centred = np.zeros_like(weights)
    centred[support] = np.where(solution.x[:n] > ACTIVE, solution.x[:n], 0.0)
    return centred


def _pruned_weights(solution: LinearSolution, T: int) -> np.ndarray:
    if solution.x is None:  # no answer within the time limit: keep the whole ensemble (reported as not optimal)
        return np.ones(T)
    return np.where(solution.x > ACTIVE, solution.x, 0.0)


@dataclass
class FaithfulPruning:
    """Outcome of the oracle loop: weights, trees kept, rounds, and what the oracle proved."""

    weights: np.ndarray
    trees_kept: int
    rounds: int
    constraint_points: int
    converged: bool  # the MILP proved the final weights equivalent on the region (every class pair infeasible)
    optimal: bool  # every weight solve was proved optimal (no time limit hit)
    fell_back: bool  # the full ensemble (all w = 1) was returned: nothing prunable, or no proof in time
    oracle_seconds: float
    oracle_calls: int
    seconds: float
    searched_per_round: list[int] = field(default_factory=list)  # disagreements the sampling search added
    milp_per_round: list[int] = field(default_factory=list)  # counterexamples the MILP added
    trees_per_round: list[int] = field(default_factory=list)
    exact_on_constraints: bool = True  # the pruned class equals the full one on every point of S


@dataclass
class RoundLog:
    trees: list[int] = field(default_factory=list)
    searched: list[int] = field(default_factory=list)
    milp: list[int] = field(default_factory=list)
    oracle_seconds: float = 0.0
    oracle_calls: int = 0


def _search(ensemble: Ensemble, weights: np.ndarray, sampler: Sampler, rng: np.random.Generator, size: int,
            near: np.ndarray, keep: int) -> np.ndarray:
    """The sampling oracle: up to `keep` points of the region (draws and moves from `near`) where the pruned
    class differs from the full one, the most violated first (a search, not a proof)."""
    candidates = sampler(rng, size, near)
    candidates = candidates[tie_free(ensemble, candidates)]
    leaves = ensemble.leaves(candidates)
    full, pruned = ensemble.scores_of_leaves(leaves), ensemble.scores_of_leaves(leaves, weights)
    target = np.argmax(full, axis=1)
    wrong = np.flatnonzero(np.argmax(pruned, axis=1) != target)
    lead = pruned[wrong].max(axis=1) - pruned[wrong, target[wrong]]
    return candidates[wrong[np.argsort(-lead)[:keep]]]


def faithful_prune(ensemble: Ensemble, seed_points: np.ndarray, oracle: EquivalenceOracle, sampler: Sampler,
                   rng: np.random.Generator, *, solver: Solver = "lp", rounds: int = 20, search_size: int = 1000,
                   add_per_round: int = 100, time_limit: float = 5.0, center: bool = True,
                   progress: Progress = no_progress) -> FaithfulPruning:
    """Prune on S = seed_points; each round, search the region by sampling and, when that finds nothing, ask
    the MILP oracle; add what either finds to S, until the MILP proves equivalence.

    A MILP counterexample lies in a leaf cell where the pruned class is wrong and the next program requires
    it right, so no cell comes back and the loop ends after finitely many rounds (`rounds` bounds it). When
    the program keeps every tree, the full ensemble (w = 1) replaces its weighting (the oracle then proves
    it at once); when the oracle has not proved equivalence within `rounds`, the full ensemble is returned
    too (`converged` False): it is equivalent by construction, a weighted subset may not be.
    """
    start = time.perf_counter()
    S = np.asarray(seed_points, dtype=float)
    S = S[tie_free(ensemble, S)]
    rows, offsets = margin_rows(ensemble, S)
    log = RoundLog()
    weights, optimal, converged = np.ones(ensemble.size), True, False
    near = S
    for round_index in range(rounds):
        solution = solve_weights(rows, offsets, solver=solver, time_limit=time_limit, upper=WEIGHT_CAP[ensemble.family])
        optimal &= solution.optimal
        weights = _pruned_weights(solution, ensemble.size)
        if np.sum(weights > 0) == ensemble.size:  # the program needs every tree: nothing is prunable
            weights = np.ones(ensemble.size)
        elif center:
            weights = center_weights(rows, offsets, weights, upper=WEIGHT_CAP[ensemble.family], time_limit=time_limit)
        found = _search(ensemble, weights, sampler, rng, search_size, near, add_per_round)
        log.trees.append(int(np.sum(weights > 0)))
        log.searched.append(len(found))
        milp_points = 0
        if not len(found):
            answer = oracle.check(weights)
            log.oracle_seconds += answer.seconds
            log.oracle_calls += 1
            converged = answer.proved
            if converged or not len(answer.points):  # proved, or a MILP timed out without a point
                log.milp.append(0)
                break
            found, milp_points = answer.points, len(answer.points)
        log.milp.append(milp_points)
        progress((round_index + 1) / rounds, f"round {round_index + 1}: {len(found)} disagreements added "
                 f"({milp_points} from the MILP), {log.trees[-1]} trees")
        new_rows, new_offsets = margin_rows(ensemble, found)
        S, near = np.vstack([S, found]), found
        rows, offsets = np.vstack([rows, new_rows]), np.concatenate([offsets, new_offsets])
    exact = bool(np.all(ensemble.predict(S, weights) == ensemble.predict(S)))
    fell_back = not converged or bool(np.all(weights == 1.0))
    if not converged:
        weights = np.ones(ensemble.size)
    return FaithfulPruning(weights, int(np.sum(weights > 0)), len(log.trees), len(S), converged, optimal, fell_back,
                           log.oracle_seconds, log.oracle_calls, time.perf_counter() - start, log.searched, log.milp,
                           log.trees, exact)


def accuracy_pruning(ensemble: Ensemble, X_val: np.ndarray, y_val: np.ndarray) -> np.ndarray:
    """Reduce-error pruning (Margineantu & Dietterich 1997): greedy forward selection on validation accuracy.

    Trees are added one at a time, each time the one whose addition gives the best validation accuracy
    (ties: the better mean probability of the true class); the kept set is the shortest prefix reaching
    the best accuracy seen. Returns 0/1 weights (an unweighted sub-forest).
    """
    probs = ensemble.tree_probabilities(X_val)  # (n, T, K)
    n, T, _ = probs.shape
    chosen: list[int] = []
    total = np.tile(ensemble.offset, (n, 1))
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
