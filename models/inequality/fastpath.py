"""Fast paths tried before any SDP: term-wise (diagonal) certificates and a DSOS linear program.

1. Term-wise: p = sum c_a x^(2a) with every c_a > 0 (every monomial even, every coefficient positive)
   is its own certificate, p = sum c_a (x^a)^2, found by reading the terms: no basis, no solver.
2. DSOS (Ahmadi & Majumdar, "DSOS and SDSOS optimization", SIAM J. Appl. Algebra Geom. 2019):
   look for a Gram matrix that is diagonally dominant, Q_ii >= sum_j |Q_ij|, with a linear program
   (HiGHS) instead of an SDP. The LP has O(m^2) variables for a basis of size m but no m x m
   semidefinite constraint, so it scales to many more variables; its solution is rounded, projected
   and factored exactly like an SDP's, so it proves nothing the exact checker does not accept.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from .budget import check_time
from .certificate import WeightedSquare
from .gram import GramSystem
from .polynomial import Polynomial
from .sdp import SdpSolution

__all__ = ["DSOS_MAX_BASIS", "SDSOS_MAX_BASIS", "dsos_solution", "sdsos_solution", "termwise_squares"]

DSOS_MAX_BASIS = 300  # the LP has about m^2 columns: 300 -> 90k, a fraction of a second for HiGHS


def termwise_squares(poly: Polynomial) -> list[WeightedSquare] | None:
    """p = sum c (x^(a))^2 when every term is an even monomial with a positive coefficient."""
    squares = []
    for mono, coeff in poly.sorted_terms():
        if coeff <= 0 or any(e % 2 for e in mono):
            return None
        squares.append(WeightedSquare(coeff, Polynomial.monomial(poly.variables, tuple(e // 2 for e in mono))))
    return squares


def dsos_solution(system: GramSystem) -> SdpSolution | None:
    """A diagonally dominant Gram matrix (one per block) maximising the dominance slack t <= 1, or None
    when the LP is infeasible (p is not DSOS on this basis) or too large."""
    if not system.consistent_support or not system.blocks or any(b.size > DSOS_MAX_BASIS for b in system.blocks):
        return None
    check_time()
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    # columns: Q entries (i <= j) of every block, then u_ij >= |Q_ij| for i < j, then t
    entry_index = _entry_index(system)
    n_q = len(entry_index)
    off = [k for k, (_b, i, j) in enumerate(entry_index) if i != j]
    n_vars = n_q + len(off) + 1
    t_col = n_vars - 1
    a_eq, b_eq = _equalities(system, n_vars, scale)
    a_ub = _dominance_rows(entry_index, off, n_vars)
    cost = np.zeros(n_vars)
    cost[t_col] = -1.0
    bounds = [(None, None)] * n_q + [(0, None)] * len(off) + [(None, 1.0)]
    check_time()
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0 or res.x is None or res.x[t_col] < -1e-9:
        return None
    grams = _grams(system, entry_index, res.x[:n_q] * scale)
    margin = float(res.x[t_col])
    return SdpSolution(grams, margin, "dsos (LP)", "optimal")


def _entry_index(system: GramSystem) -> list[tuple[int, int, int]]:
    """(block, i, j) of every Gram entry i <= j, blocks in order: the entries' columns."""
    return [(b, i, j) for b, block in enumerate(system.blocks) for i, j, _ in block.entries]


def _equalities(system: GramSystem, n_cols: int, scale: float) -> tuple[sp.csr_matrix, np.ndarray]:
    """The coefficient-matching rows A x = b over the entry columns (off-diagonal entries count twice)."""
    eq_rows, eq_cols, eq_vals = [], [], []
    k = 0
    for block in system.blocks:
        for i, j, coefs in block.entries:
            factor = 1.0 if i == j else 2.0
            for row, coef in coefs.items():
                eq_rows.append(row)
                eq_cols.append(k)
                eq_vals.append(float(coef) * factor)
            k += 1
    a_eq = sp.csr_matrix((eq_vals, (eq_rows, eq_cols)), shape=(len(system.rows), n_cols))
    return a_eq, np.array([float(v) for v in system.rhs]) / scale


def _dominance_rows(entry_index: list[tuple[int, int, int]], off: list[int], n_vars: int) -> sp.csr_matrix:
    """A_ub x <= 0: u_ij >= |Q_ij| for every off-diagonal entry, then t + sum u - Q_ii <= 0 per row."""
    n_q, t_col = len(entry_index), n_vars - 1
    u_of = {k: n_q + n for n, k in enumerate(off)}
    ub_rows, ub_cols, ub_vals = [], [], []
    n_ub = 0
    diagonal_of: dict[tuple[int, int], int] = {}
    for k, (b, i, j) in enumerate(entry_index):
        if i == j:
            diagonal_of[(b, i)] = k
    dominance: dict[tuple[int, int], list[int]] = {key: [] for key in diagonal_of}
    for k in off:
        b, i, j = entry_index[k]
        dominance[(b, i)].append(u_of[k])
        dominance[(b, j)].append(u_of[k])
        for sign in (1.0, -1.0):  # sign * Q_ij - u_ij <= 0
            ub_rows += [n_ub, n_ub]
            ub_cols += [k, u_of[k]]
            ub_vals += [sign, -1.0]
            n_ub += 1
    for key, k in diagonal_of.items():  # t + sum u - Q_ii <= 0
        ub_rows += [n_ub, n_ub]
        ub_cols += [k, t_col]
        ub_vals += [-1.0, 1.0]
        for u in dominance[key]:
            ub_rows.append(n_ub)
            ub_cols.append(u)
            ub_vals.append(1.0)
        n_ub += 1
    return sp.csr_matrix((ub_vals, (ub_rows, ub_cols)), shape=(n_ub, n_vars))


def _grams(system: GramSystem, entry_index: list[tuple[int, int, int]], values: np.ndarray) -> list[np.ndarray]:
    """The symmetric Gram matrix of every block from the values of its entries."""
    grams = [np.zeros((b.size, b.size)) for b in system.blocks]
    for k, (b, i, j) in enumerate(entry_index):
        grams[b][i, j] = grams[b][j, i] = values[k]
    return grams


SDSOS_MAX_BASIS = 120  # about m^2 / 2 second-order cones of size 3: 120 -> 7,140 cones


def sdsos_solution(system: GramSystem) -> SdpSolution | None:
    """A scaled diagonally dominant Gram matrix (Ahmadi & Majumdar): Q = sum over pairs i < j of a PSD 2x2
    block on (i, j), plus t I, maximising t <= 1; a second-order cone program (Clarabel) instead of an SDP.
    None when p is not SDSOS on this basis, the solver fails, or the blocks are too large. Its solution is
    rounded, projected and factored exactly like the SDP's, so it proves nothing the exact checker rejects."""
    import warnings

    import cvxpy as cp

    if not system.consistent_support or not system.blocks or any(b.size > SDSOS_MAX_BASIS for b in system.blocks):
        return None
    check_time()
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    # entries of every block in order; a pair cone (p, q, r) per off-diagonal entry; a diagonal entry is
    # t + the sum of the p (or q) of the cones through it (blocks of size 1 are t + a free nonnegative d)
    entry_index = _entry_index(system)
    off = [k for k, (_b, i, j) in enumerate(entry_index) if i != j]
    diag = {(b, i): k for k, (b, i, j) in enumerate(entry_index) if i == j}
    n_e, n_c = len(entry_index), len(off)
    a_eq, b_eq = _equalities(system, n_e, scale)
    # entries = D_p @ p + D_q @ q + O @ r + U @ t + S @ d
    rows_p, cols_p, rows_q, cols_q, rows_r = [], [], [], [], []
    for c, k in enumerate(off):
        b, i, j = entry_index[k]
        rows_p.append(diag[(b, i)])
        cols_p.append(c)
        rows_q.append(diag[(b, j)])
        cols_q.append(c)
        rows_r.append(k)
    ones = np.ones(n_c)
    d_p = sp.csr_matrix((ones, (rows_p, cols_p)), shape=(n_e, max(n_c, 1)))
    d_q = sp.csr_matrix((ones, (rows_q, cols_q)), shape=(n_e, max(n_c, 1)))
    o_r = sp.csr_matrix((ones, (rows_r, list(range(n_c)))), shape=(n_e, max(n_c, 1)))
    unit = np.zeros(n_e)
    unit[list(diag.values())] = 1.0
    p, q, r = cp.Variable(max(n_c, 1)), cp.Variable(max(n_c, 1)), cp.Variable(max(n_c, 1))
    d, t = cp.Variable(n_e, nonneg=True), cp.Variable()
    entries = d_p @ p + d_q @ q + o_r @ r + unit * t + cp.multiply(unit, d)
    constraints = [a_eq @ entries == b_eq, t <= 1.0]
    if n_c:
        constraints.append(cp.SOC(p + q, cp.vstack([2 * r, p - q]), axis=0))
    problem = cp.Problem(cp.Maximize(t), constraints)
    check_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            problem.solve(solver=cp.CLARABEL)
    except cp.error.SolverError:
        return None
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or t.value is None or float(t.value) < -1e-9:
        return None
    values = np.asarray(entries.value, dtype=float) * scale
    return SdpSolution(_grams(system, entry_index, values), float(t.value), "sdsos (SOCP, Clarabel)", str(problem.status))
