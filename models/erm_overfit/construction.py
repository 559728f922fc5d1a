"""Feldman's function on a linear-dimension code, a zero-mean noise term, exact population losses, and the
regularised empirical objective solved by a convex solver.

Sample z = V, a random half of the code W (each codeword independently with probability 1/2). Loss on the
unit ball:

    f(x; V) = max{theta, max_{w in V} <w, x>} + alpha <xi_V, x> + lambda/2 ||x||^2,
    xi_V = K^-1/2 sum_w s_w(V) w,  s_w = +1 if w in V else -1   (E xi_V = 0).

* The population objective is E max{theta, ...} + lambda/2 ||x||^2 >= theta, attained at x = 0 only:
  the population excess of any x is F(x) - theta, computed exactly (sort <w, x> decreasingly; the largest
  member of V is the first included one: E max = sum_k 2^-k max(theta, a_(k)) + 2^-K theta).
* With theta above the code's coherence, a codeword u in none of the m samples is an exact minimiser of
  the Feldman part of the training loss (every <w, u> <= coherence for w != u), with population excess
  >= (1 - theta) / 2: u is in a fresh V with probability 1/2, and then f = 1.
* The regularised empirical objective (1/m) sum_i f(x; V_i) is lambda-strongly convex: its minimiser is
  unique. It is solved exactly as a second-order cone programme in epigraph form (Clarabel).
"""

from __future__ import annotations

from dataclasses import dataclass

import cvxpy as cp
import numpy as np

__all__ = ["ErmSolution", "Sample", "empirical_objective", "population_excess", "solve_regularised_erm"]


@dataclass(frozen=True)
class Sample:
    """membership[i, k]: codeword k is in sample i; `noise` is the empirical mean of xi_V."""

    membership: np.ndarray
    noise: np.ndarray

    @classmethod
    def draw(cls, rng: np.random.Generator, samples: int, code: np.ndarray) -> Sample:
        membership = rng.random((samples, code.shape[0])) < 0.5
        signs = np.where(membership, 1.0, -1.0).mean(axis=0)
        return cls(membership, (signs @ code) / np.sqrt(code.shape[0]))

    def unseen(self) -> np.ndarray:
        """Indices of the codewords in none of the samples."""
        return np.nonzero(~self.membership.any(axis=0))[0]


def empirical_objective(x: np.ndarray, code: np.ndarray, sample: Sample, theta: float, alpha: float,
                        lam: float) -> float:
    """(1/m) sum_i max{theta, max_{w in V_i} <w, x>} + alpha <mean xi, x> + lambda/2 ||x||^2, exactly."""
    inner = code @ x
    masked = np.where(sample.membership, inner[None, :], -np.inf).max(axis=1)
    return float(np.maximum(theta, masked).mean() + alpha * sample.noise @ x + 0.5 * lam * x @ x)


def population_excess(x: np.ndarray, code: np.ndarray, theta: float, lam: float) -> float:
    """F(x) - min F = E_V max{theta, max_{w in V} <w, x>} + lambda/2 ||x||^2 - theta, exactly."""
    ordered = np.sort(code @ x)[::-1]
    weights = 0.5 ** np.arange(1, ordered.size + 1)
    expected = float((weights * np.maximum(theta, ordered)).sum() + 0.5**ordered.size * theta)
    excess = expected + 0.5 * lam * float(x @ x) - theta
    return 0.0 if abs(excess) < 1e-12 else excess


@dataclass(frozen=True)
class ErmSolution:
    """The solver's minimiser, its exact objective, the solver's certified lower bound and status."""

    x: np.ndarray
    objective: float
    lower_bound: float
    status: str

    @property
    def gap(self) -> float:
        """Exact objective at x minus the solver's dual bound: an upper bound on the suboptimality."""
        return max(self.objective - self.lower_bound, 0.0)


def solve_regularised_erm(code: np.ndarray, sample: Sample, theta: float, alpha: float, lam: float,
                          tolerance: float = 1e-9) -> ErmSolution:
    """min (1/m) sum t_i + alpha <xi, x> + lambda/2 ||x||^2  s.t.  t_i >= theta, t_i >= <w, x> (w in V_i),
    ||x|| <= 1: the regularised empirical objective in epigraph form (one cone, m * K/2 half-spaces)."""
    m, d = sample.membership.shape[0], code.shape[1]
    rows = [code[sample.membership[i]] for i in range(m)]
    owner = np.concatenate([np.full(len(r), i) for i, r in enumerate(rows)])
    x, t = cp.Variable(d), cp.Variable(m)
    stacked = np.concatenate(rows)
    objective = cp.sum(t) / m + alpha * sample.noise @ x + 0.5 * lam * cp.sum_squares(x)
    constraints = [t >= theta, stacked @ x <= t[owner], cp.norm(x, 2) <= 1.0]
    problem = cp.Problem(cp.Minimize(objective), constraints)
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=tolerance, tol_gap_rel=tolerance, tol_feas=tolerance)
    point = np.asarray(x.value, dtype=float)
    norm = float(np.linalg.norm(point))
    if norm > 1.0:
        point = point / norm
    exact = empirical_objective(point, code, sample, theta, alpha, lam)
    bound = _dual_bound(constraints, stacked, owner, sample.noise * alpha, theta, lam, m)
    return ErmSolution(point, exact, bound, str(problem.status))


def _dual_bound(constraints: list[cp.Constraint], stacked: np.ndarray, owner: np.ndarray, linear: np.ndarray,
                theta: float, lam: float, m: int) -> float:
    """A certified lower bound on the optimum: the Lagrange dual function at the solver's multipliers.

    Multipliers nu_i (t_i >= theta), pi_r (<w_r, x> <= t_i) and rho (||x|| <= 1), clipped at 0 and rescaled
    per sample so nu_i + sum_r pi_r = 1/m (then t drops out); minimising over x in closed form gives
    g = theta sum nu - rho - max(0, ||c|| - rho)^2 / (2 lambda) with c = linear + sum_r pi_r w_r.
    """
    nu = np.maximum(np.asarray(constraints[0].dual_value, dtype=float), 0.0)
    pi = np.maximum(np.asarray(constraints[1].dual_value, dtype=float), 0.0)
    rho = max(float(np.asarray(constraints[2].dual_value, dtype=float)), 0.0)
    totals = nu + np.bincount(owner, weights=pi, minlength=m)
    scale = np.where(totals > 0, (1.0 / m) / np.where(totals > 0, totals, 1.0), 0.0)
    nu = np.where(totals > 0, nu * scale, 1.0 / m)
    pi = pi * scale[owner]
    c = linear + pi @ stacked
    reach = max(float(np.linalg.norm(c)) - rho, 0.0)
    return float(theta * nu.sum() - rho - (reach**2 / (2.0 * lam) if lam > 0 else (np.inf if reach > 0 else 0.0)))
