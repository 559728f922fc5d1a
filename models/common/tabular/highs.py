"""LP and MILP on HiGHS through scipy: min c'x s.t. lower <= A x <= upper, bounds, integrality."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import csr_matrix, issparse, vstack

__all__ = ["LinearSolution", "solve_lp", "solve_milp"]

_MILP_STATUS = {0: "optimal", 1: "time_limit", 2: "infeasible", 3: "unbounded", 4: "error"}
_LP_STATUS = {0: "optimal", 1: "iteration_limit", 2: "infeasible", 3: "unbounded", 4: "error"}


@dataclass(frozen=True)
class LinearSolution:
    """HiGHS's answer: status ("optimal", "time_limit", "infeasible", ...), x (None if none found), objective.

    `dual_bound` is the proven lower bound on the optimum (MILP; equals `objective` for an optimal LP), so
    `objective - dual_bound` is the remaining optimality gap of a MILP stopped by its time limit.
    """

    status: str
    x: np.ndarray | None
    objective: float
    dual_bound: float
    message: str = ""

    @property
    def feasible(self) -> bool:
        return self.x is not None

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send file descriptor 1 to stderr while HiGHS runs: its MIP code prints to C stdout even with disp off,
    which would corrupt the JSON the CLI prints on stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _matrix(A: np.ndarray | csr_matrix, n: int) -> csr_matrix:
    matrix = csr_matrix(A.tocsr() if issparse(A) else np.asarray(A, dtype=float))  # type: ignore[union-attr]
    if matrix.shape[1] != n:
        raise ValueError(f"constraint matrix has {matrix.shape[1]} columns for {n} variables")
    return matrix


def solve_milp(c: np.ndarray, A: np.ndarray | csr_matrix, lower: np.ndarray, upper: np.ndarray, *,
               integrality: np.ndarray, var_lower: np.ndarray, var_upper: np.ndarray,
               time_limit: float = 10.0, mip_rel_gap: float = 1e-4) -> LinearSolution:
    """min c'x s.t. lower <= A x <= upper, var_lower <= x <= var_upper, x_i integer where integrality_i = 1."""
    c = np.asarray(c, dtype=float)
    constraints = LinearConstraint(_matrix(A, len(c)), np.asarray(lower, float), np.asarray(upper, float))
    with _stdout_to_stderr():
        result = milp(c, integrality=np.asarray(integrality), bounds=Bounds(var_lower, var_upper),
                      constraints=constraints,
                      options={"time_limit": float(time_limit), "mip_rel_gap": float(mip_rel_gap), "disp": False})
    x = None if result.x is None else np.asarray(result.x)
    objective = float(result.fun) if x is not None else float("nan")
    bound = getattr(result, "mip_dual_bound", None)
    return LinearSolution(_MILP_STATUS.get(result.status, "error"), x, objective,
                          float(bound) if bound is not None else objective, str(result.message))


def solve_lp(c: np.ndarray, A: np.ndarray | csr_matrix, lower: np.ndarray, upper: np.ndarray, *,
             var_lower: np.ndarray, var_upper: np.ndarray, time_limit: float = 10.0) -> LinearSolution:
    """min c'x s.t. lower <= A x <= upper, var_lower <= x <= var_upper (HiGHS dual simplex / IPM)."""
    c = np.asarray(c, dtype=float)
    matrix = _matrix(A, len(c))
    lower, upper = np.asarray(lower, float), np.asarray(upper, float)
    # linprog takes A_ub x <= b_ub only: split the two-sided rows, drop infinite sides.
    finite_upper, finite_lower = np.isfinite(upper), np.isfinite(lower)
    A_ub = vstack([matrix[finite_upper], -matrix[finite_lower]]).tocsr()
    b_ub = np.concatenate([upper[finite_upper], -lower[finite_lower]])
    with _stdout_to_stderr():
        result = linprog(c, A_ub=A_ub if A_ub.shape[0] else None, b_ub=b_ub if len(b_ub) else None,
                         bounds=list(zip(var_lower, var_upper, strict=True)), method="highs",
                         options={"time_limit": float(time_limit)})
    x = None if result.x is None else np.asarray(result.x)
    objective = float(result.fun) if x is not None else float("nan")
    return LinearSolution(_LP_STATUS.get(result.status, "error"), x, objective, objective, str(result.message))
