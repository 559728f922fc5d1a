"""The exact equivalence oracle: a MILP over the trees' leaves (HiGHS) that proves a pruned ensemble agrees
with the full one on a region, or returns a point where it does not (FIPE's oracle, restricted as in PINE).

Variables (Misic 2020's formulation of a tree ensemble):
- y[j, i] in {0, 1}: x_j < g[j, i], for the sorted grid g[j] of every split threshold on feature j (and,
  with a region, every Chow-Liu bin edge of j); y[j, i] <= y[j, i + 1];
- z[t, l] in [0, 1]: x falls in leaf l of tree t; sum_l z[t, l] = 1; for each split (j, g[j, i]) of t,
  sum of z over its left leaves <= y[j, i] and over its right leaves <= 1 - y[j, i] (z is integral
  once y is);
- the region (optional): the bin of x_j is u[j, b] = y[j, edge b] - y[j, edge b - 1] (linear in y);
  pair indicators q[j, b, b'] in [0, 1] with both margins equal to u[j, .] and u[parent, .] (integral
  once u is), so the Chow-Liu log-likelihood sum_j sum q log P(b | b') - log width(b) is linear and the
  constraint log p(x) >= threshold is exact: the region is the union of the Chow-Liu cells above it.

For each ordered class pair (c, k), one feasibility MILP asks for x with the full ensemble's class c (its
margin over every other class >= DELTA) and a pruned score of k at least that of c. Infeasible for every
pair: the pruned ensemble is proved equivalent on the region (every point off the grid's thresholds;
points with a full-ensemble margin below DELTA count as ties). A feasible pair gives a counterexample: the
midpoint of its grid cell.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix

from models.common.tabular.highs import solve_milp
from models.pine_pruning.chow_liu import ChowLiuTree
from models.pine_pruning.ensemble import Ensemble

__all__ = ["DELTA", "EquivalenceOracle", "OracleAnswer"]

DELTA = 1e-4  # the full ensemble's margin required of a counterexample (smaller margins are ties)


@dataclass(frozen=True)
class OracleAnswer:
    proved: bool  # every class pair's MILP was infeasible: no disagreement exists in the region
    timed_out: bool  # some MILP hit its time limit with neither a point nor a proof
    points: np.ndarray  # counterexamples (one per feasible class pair)
    seconds: float
    solves: int


class _Rows:
    """Sparse constraint rows lower <= a'v <= upper, built one at a time."""

    def __init__(self) -> None:
        self.r: list[int] = []
        self.c: list[int] = []
        self.v: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []

    def add(self, coefficients: dict[int, float], lower: float, upper: float) -> None:
        k = len(self.lower)
        for col, val in coefficients.items():
            self.r.append(k)
            self.c.append(col)
            self.v.append(val)
        self.lower.append(lower)
        self.upper.append(upper)


def _leaves_under(tree: object) -> tuple[list[int], dict[int, list[int]]]:
    """The tree's leaves and, for every node, the leaves below it."""
    left, right = tree.children_left, tree.children_right  # type: ignore[attr-defined]
    below: dict[int, list[int]] = {}
    for node in reversed(range(len(left))):
        below[node] = [node] if left[node] < 0 else below[left[node]] + below[right[node]]
    return below[0], below


class EquivalenceOracle:
    """The MILP of an ensemble on a region (None: the whole input space), built once, asked per weight vector."""

    def __init__(self, ensemble: Ensemble, low: np.ndarray, high: np.ndarray, *,
                 region: tuple[ChowLiuTree, float] | None = None, time_limit: float = 10.0) -> None:
        self.ensemble, self.low, self.high, self.time_limit = ensemble, low, high, time_limit
        d = len(low)
        cuts: list[list[float]] = [[] for _ in range(d)]
        for tree in ensemble.trees:
            for node in np.flatnonzero(tree.children_left >= 0):  # type: ignore[attr-defined]
                cuts[int(tree.feature[node])].append(float(tree.threshold[node]))  # type: ignore[attr-defined]
        if region is not None:
            for j in range(d):
                cuts[j].extend(float(e) for e in region[0].edges[j])
        self.grid = [np.unique(np.asarray(c, dtype=float)) for c in cuts]
        self.y_start = np.concatenate([[0], np.cumsum([len(g) for g in self.grid])]).astype(int)
        self.n_y = int(self.y_start[-1])
        self.rows = _Rows()
        self._thresholds()
        self.z_index = self._leaves()
        self.n_vars = self.n_y + sum(len(z) for z in self.z_index)
        if region is not None:
            self._region(*region)

    def y(self, j: int, value: float) -> int:
        return int(self.y_start[j] + np.searchsorted(self.grid[j], value))

    def _thresholds(self) -> None:
        for j, g in enumerate(self.grid):
            for i in range(len(g) - 1):
                self.rows.add({int(self.y_start[j] + i): 1.0, int(self.y_start[j] + i + 1): -1.0}, -np.inf, 0.0)

    def _leaves(self) -> list[dict[int, int]]:
        z_index: list[dict[int, int]] = []
        column = self.n_y
        for tree in self.ensemble.trees:
            leaves, below = _leaves_under(tree)
            index = {leaf: column + k for k, leaf in enumerate(leaves)}
            column += len(leaves)
            self.rows.add({c: 1.0 for c in index.values()}, 1.0, 1.0)
            for node in np.flatnonzero(tree.children_left >= 0):  # type: ignore[attr-defined]
                yv = self.y(int(tree.feature[node]), float(tree.threshold[node]))  # type: ignore[attr-defined]
                left = {index[leaf]: 1.0 for leaf in below[int(tree.children_left[node])]}  # type: ignore[attr-defined]
                right = {index[leaf]: 1.0 for leaf in below[int(tree.children_right[node])]}  # type: ignore[attr-defined]
                self.rows.add({**left, yv: -1.0}, -np.inf, 0.0)
                self.rows.add({**right, yv: 1.0}, -np.inf, 1.0)
            z_index.append(index)
        return z_index

    def _bin(self, density: ChowLiuTree, j: int, b: int) -> tuple[dict[int, float], float]:
        """u[j, b] as (coefficients on y, constant): y[upper edge] - y[lower edge]; outer edges are constants."""
        edges = density.edges[j]
        coefficients: dict[int, float] = {}
        constant = 0.0
        if b < len(edges):
            coefficients[self.y(j, float(edges[b]))] = 1.0
        else:
            constant += 1.0
        if b > 0:
            col = self.y(j, float(edges[b - 1]))
            coefficients[col] = coefficients.get(col, 0.0) - 1.0
        return coefficients, constant

    def _region(self, density: ChowLiuTree, threshold: float) -> None:
        loglik: dict[int, float] = {}
        constant = 0.0
        for j in range(density.d):
            width = density.log_width(j)
            p = int(density.parent[j])
            table = np.log(density.tables[j])
            if p < 0:
                for b in range(table.shape[1]):
                    coefficients, const = self._bin(density, j, b)
                    for col, val in coefficients.items():
                        loglik[col] = loglik.get(col, 0.0) + val * (table[0, b] - width[b])
                    constant += const * (table[0, b] - width[b])
                continue
            start = self.n_vars
            self.n_vars += table.size  # q[j, b', b] at start + b' * bins + b
            for b_parent in range(table.shape[0]):
                for b in range(table.shape[1]):
                    loglik[start + b_parent * table.shape[1] + b] = table[b_parent, b] - width[b]
            for b in range(table.shape[1]):  # sum_b' q[b', b] = u[j, b]
                coefficients, const = self._bin(density, j, b)
                row = {start + bp * table.shape[1] + b: 1.0 for bp in range(table.shape[0])}
                for col, val in coefficients.items():
                    row[col] = row.get(col, 0.0) - val
                self.rows.add(row, const, const)
            for bp in range(table.shape[0]):  # sum_b q[b', b] = u[parent, b']
                coefficients, const = self._bin(density, p, bp)
                row = {start + bp * table.shape[1] + b: 1.0 for b in range(table.shape[1])}
                for col, val in coefficients.items():
                    row[col] = row.get(col, 0.0) - val
                self.rows.add(row, const, const)
        self.rows.add(loglik, threshold - constant, np.inf)

    def _score_row(self, weights: np.ndarray, first: int, second: int) -> dict[int, float]:
        """Coefficients on z of sum_t w_t (v_t(first) - v_t(second))."""
        row: dict[int, float] = {}
        for t, index in enumerate(self.z_index):
            if weights[t] == 0.0:
                continue
            table = self.ensemble.leaf_probabilities[t]
            for leaf, col in index.items():
                value = weights[t] * (table[leaf, first] - table[leaf, second])
                if value != 0.0:
                    row[col] = value
        return row

    def _pair(self, weights: np.ndarray, c: int, k: int) -> tuple[str, np.ndarray | None]:
        rows = _Rows()
        rows.r, rows.c, rows.v = list(self.rows.r), list(self.rows.c), list(self.rows.v)
        rows.lower, rows.upper = list(self.rows.lower), list(self.rows.upper)
        base = self.ensemble.offset
        ones = np.ones(self.ensemble.size)
        for j in range(self.ensemble.classes):
            if j != c:
                rows.add(self._score_row(ones, c, j), DELTA - (base[c] - base[j]), np.inf)
        rows.add(self._score_row(weights, k, c), -(base[k] - base[c]), np.inf)
        A = coo_matrix((rows.v, (rows.r, rows.c)), shape=(len(rows.lower), self.n_vars)).tocsr()
        integrality = np.zeros(self.n_vars)
        integrality[: self.n_y] = 1
        result = solve_milp(np.zeros(self.n_vars), A, np.array(rows.lower), np.array(rows.upper),
                            integrality=integrality, var_lower=np.zeros(self.n_vars), var_upper=np.ones(self.n_vars),
                            time_limit=self.time_limit)
        if result.status == "infeasible":
            return "infeasible", None
        if result.x is None:
            return "time_limit", None
        return "point", self.point(np.round(result.x[: self.n_y]))

    def point(self, y: np.ndarray) -> np.ndarray:
        """The midpoint of the grid cell a 0/1 vector y selects (inside the box where it can be)."""
        x = np.empty(len(self.grid))
        for j, g in enumerate(self.grid):
            bits = y[self.y_start[j]: self.y_start[j + 1]]
            i = int(np.argmax(bits)) if np.any(bits > 0.5) else len(g)
            below = g[i - 1] if i > 0 else min(self.low[j], g[0] - 1.0) if len(g) else self.low[j]
            above = g[i] if i < len(g) else max(self.high[j], g[-1] + 1.0) if len(g) else self.high[j]
            x[j] = 0.5 * (below + above)
        return x

    def check(self, weights: np.ndarray) -> OracleAnswer:
        """Every ordered class pair (c, k): a point with full class c where the pruned score of k >= c's?"""
        start = time.perf_counter()
        weights = np.asarray(weights, dtype=float)
        found, timed_out, solves = [], False, 0
        for c in range(self.ensemble.classes):
            for k in range(self.ensemble.classes):
                if k == c:
                    continue
                status, x = self._pair(weights, c, k)
                solves += 1
                timed_out |= status == "time_limit"
                if x is not None:
                    found.append(x)
        points = np.array(found) if found else np.empty((0, len(self.grid)))
        return OracleAnswer(not found and not timed_out, timed_out, points, time.perf_counter() - start, solves)
