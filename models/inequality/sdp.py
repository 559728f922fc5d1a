"""SDP proposer: a numerical Gram matrix with the largest smallest-eigenvalue margin (cvxpy + Clarabel).

NSPI's proposer stage: any approximate SOS decomposition will do, because exact refinement follows.
Maximising t subject to Q_b - t I >= 0 keeps Q in the relative interior of the PSD cone when the
feasible set has one, which is what the rounding step (Peyrl & Parrilo 2008) needs.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from .gram import GramSystem

__all__ = ["SdpSolution", "solve_gram_sdp", "solve_gram_sdp_fast", "solve_max_margin"]


@dataclass
class SdpSolution:
    """Numerical blocks (in the target's own scale), the margin t and which solver answered."""

    grams: list[np.ndarray]
    margin: float  # smallest-eigenvalue margin in the normalised problem (target scaled to max |coef| 1)
    solver: str
    status: str

    @property
    def feasible(self) -> bool:
        return self.margin > -1e-6


def _solve_with(system: GramSystem, solver: str, scale: float, fast: bool = False) -> SdpSolution | None:
    matrix, rhs, _offsets = system.float_system(scale)
    variables = [cp.Variable((b.size, b.size), symmetric=True) for b in system.blocks]
    margin = cp.Variable()
    stacked = cp.hstack([cp.vec(v, order="F") for v in variables]) if len(variables) > 1 else cp.vec(
        variables[0], order="F"
    )
    constraints = [matrix @ stacked == rhs, margin <= 1.0]
    constraints += [v - margin * np.eye(v.shape[0]) >> 0 for v in variables]
    problem = cp.Problem(cp.Maximize(margin), constraints)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if solver == "CLARABEL":
                problem.solve(solver=cp.CLARABEL)
            else:
                eps, iters = (1e-5, 4000) if fast else (1e-9, 20000)
                problem.solve(solver=cp.SCS, eps=eps, max_iters=iters)
    except cp.error.SolverError:
        return None
    if problem.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
        return SdpSolution([], -np.inf, solver.lower(), problem.status)
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or margin.value is None:
        return None
    grams = [np.asarray(v.value, dtype=float) * scale for v in variables]
    grams = [(g + g.T) / 2.0 for g in grams]
    name = "scs (fast)" if fast else solver.lower()
    return SdpSolution(grams, float(margin.value), name, problem.status)


def solve_gram_sdp_fast(system: GramSystem) -> SdpSolution | None:
    """A low-accuracy first-order (SCS, eps 1e-5) solution: for large blocks the interior-point
    solver's dense KKT factorisation dominates, and exact rounding often succeeds from this one."""
    if not system.consistent_support or not system.blocks:
        return None
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    return _solve_with(system, "SCS", scale, fast=True)


def solve_gram_sdp(system: GramSystem, solver: str = "clarabel") -> SdpSolution:
    """Maximise the eigenvalue margin over the Gram space; falls back to SCS when Clarabel fails."""
    if not system.consistent_support or not system.blocks:
        return SdpSolution([], -np.inf, "none", "unsupported monomials")
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    order = ["CLARABEL", "SCS"] if solver.lower() == "clarabel" else ["SCS", "CLARABEL"]
    for name in order:
        solution = _solve_with(system, name, scale)
        if solution is not None:
            return solution
    return SdpSolution([], -np.inf, "none", "solver failure")


def solve_max_margin(system: GramSystem, cap: float = 1e6) -> float | None:
    """The largest t with target - t = sum_b g_b q_b^T Q_b q_b, Q_b PSD (the SDP's lower bound on p over
    the domain, in the target's own scale), or None when the SDP fails; capped at `cap` times the scale."""
    zero = (0,) * len(system.target.variables)
    if zero not in system.rows or not system.blocks:
        return None
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    matrix, rhs, _offsets = system.float_system(scale)
    variables = [cp.Variable((b.size, b.size), symmetric=True) for b in system.blocks]
    t = cp.Variable()
    stacked = cp.hstack([cp.vec(v, order="F") for v in variables]) if len(variables) > 1 else cp.vec(
        variables[0], order="F"
    )
    unit = np.zeros(len(system.rows))
    unit[system.rows.index(zero)] = 1.0
    constraints = [matrix @ stacked + t * unit == rhs, t <= cap] + [v >> 0 for v in variables]
    problem = cp.Problem(cp.Maximize(t), constraints)
    for solver in (cp.CLARABEL, cp.SCS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                problem.solve(solver=solver)
        except cp.error.SolverError:
            continue
        if problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) and t.value is not None:
            return float(t.value) * scale
        if problem.status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
            return None
    return None
