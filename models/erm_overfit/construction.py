"""Our derived noise term on Feldman's function over a code in d = 6m: the loss, exact population losses, the
unique ERM in closed form (with a convex solver to check it), and one-pass SGD.

Sample z = (j, s): a coordinate j uniform in [d] and a sign s = +-1. With codewords w = sigma / sqrt(d)
(sigma in {+-1}^d), the set V(j, s) = {w : s sigma_j < 0} holds the codewords that disagree with s at j:
exactly half the code, and a fixed codeword is in it with probability 1/2 (Feldman's rate). Loss on the unit
ball:

    f(x; j, s) = max{theta, max_{w in V(j, s)} <w, x>}  -  alpha s x_j  +  lambda/2 ||x||^2.

* 1 + alpha + lambda Lipschitz and lambda-strongly convex; E_s[-alpha s x_j] = 0, so the population objective is
  E max{...} + lambda/2 ||x||^2 >= theta, attained at x = 0 only: F(x) - F(0) is the population excess.
* The m samples' noise adds up to -(alpha/m) <h, x> with h = sum_i s_i e_{j_i}. A codeword is *unseen* when it
  agrees with every sampled sign (it is in no V_i); with h-hat = h / ||h|| and no collisions,
  <u, h-hat> = sqrt(m/d) = 1/sqrt(6) for an unseen u and <w, h-hat> <= (m - 2)/sqrt(md) for every seen w.
* Theorem (ours, proved on the page): if max_{w seen} <w, h-hat> <= theta and alpha ||h|| / m >= lambda, the
  unique ERM is h-hat. Feldman_S >= theta everywhere with equality at h-hat, and -(alpha/m)<h, x> +
  lambda/2 ||x||^2 is minimised over the ball at the projection of alpha h / (m lambda), i.e. at h-hat; a point
  minimising both parts minimises the sum, and lambda-strong convexity makes it unique.
"""

from __future__ import annotations

from dataclasses import dataclass

import cvxpy as cp
import numpy as np

__all__ = ["ErmSolution", "Sample", "closed_form_erm", "empirical_objective", "feldman_population",
           "one_pass_sgd", "solve_regularised_erm"]


@dataclass(frozen=True)
class Sample:
    """The m draws (j_i, s_i) and, per codeword, whether it is in some V_i (seen)."""

    coordinates: np.ndarray  # (m,) ints in [d]
    signs: np.ndarray  # (m,) +-1
    seen: np.ndarray  # (K,) bool

    @classmethod
    def draw(cls, rng: np.random.Generator, samples: int, code: np.ndarray) -> Sample:
        coordinates = rng.integers(0, code.shape[1], size=samples)
        return cls.of(coordinates, rng.choice(np.array([-1.0, 1.0]), size=samples), code)

    @classmethod
    def of(cls, coordinates: np.ndarray, signs: np.ndarray, code: np.ndarray) -> Sample:
        disagree = signs[None, :] * code[:, coordinates] < 0  # (K, m): codeword k is in V_i
        return cls(coordinates, signs, disagree.any(axis=1))

    def noise_vector(self, d: int) -> np.ndarray:
        """h = sum_i s_i e_{j_i} (a repeated coordinate adds up or cancels)."""
        return np.bincount(self.coordinates, weights=self.signs, minlength=d)

    @property
    def collisions(self) -> int:
        """Draws whose coordinate an earlier draw already used (the paper assumes none)."""
        return int(self.coordinates.size - np.unique(self.coordinates).size)

    def members(self, code: np.ndarray, i: int) -> np.ndarray:
        """Mask of V_i: the codewords that disagree with draw i."""
        return self.signs[i] * code[:, self.coordinates[i]] < 0


def empirical_objective(x: np.ndarray, code: np.ndarray, sample: Sample, theta: float, alpha: float,
                        lam: float) -> float:
    """F_S(x) = (1/m) sum_i f(x; j_i, s_i), exactly."""
    inner = code @ x
    m = sample.signs.size
    feldman = sum(max(theta, float(inner[sample.members(code, i)].max(initial=-np.inf))) for i in range(m)) / m
    noise = -alpha * float(sample.noise_vector(code.shape[1]) @ x) / m
    return feldman + noise + 0.5 * lam * float(x @ x)


def feldman_population(x: np.ndarray, code: np.ndarray, theta: float) -> float:
    """E_{j,s} max{theta, max_{w in V(j,s)} <w, x>} - theta, exactly (all 2d draws, equally likely)."""
    inner = (code @ x)[:, None]
    positive = code > 0  # codeword k has sign + at j: it is in V(j, -1)
    top_pos = np.where(positive, inner, -np.inf).max(axis=0)
    top_neg = np.where(~positive, inner, -np.inf).max(axis=0)
    value = float(np.mean(np.maximum(theta, np.concatenate([top_pos, top_neg])))) - theta
    return 0.0 if abs(value) < 1e-12 else value


def closed_form_erm(code: np.ndarray, sample: Sample, theta: float, alpha: float, lam: float) -> np.ndarray | None:
    """h-hat when the theorem's two conditions hold (then it is the unique ERM), else None."""
    h = sample.noise_vector(code.shape[1])
    norm = float(np.linalg.norm(h))
    if norm == 0.0 or alpha * norm / sample.signs.size < lam:
        return None
    direction = h / norm
    seen = code[sample.seen]
    if seen.size and float((seen @ direction).max()) > theta + 1e-12:
        return None
    return direction


@dataclass(frozen=True)
class ErmSolution:
    """The solver's minimiser, its exact objective and the solver's status."""

    x: np.ndarray
    objective: float
    status: str


def solve_regularised_erm(code: np.ndarray, sample: Sample, theta: float, alpha: float, lam: float,
                          tolerance: float = 1e-9) -> ErmSolution:
    """min (1/m) sum t_i - (alpha/m)<h, x> + lambda/2 ||x||^2 s.t. t_i >= theta, t_i >= <w, x> (w in V_i),
    ||x|| <= 1: the empirical objective in epigraph form (Clarabel, second-order cone)."""
    m, d = sample.signs.size, code.shape[1]
    rows = [code[sample.members(code, i)] for i in range(m)]
    owner = np.concatenate([np.full(len(r), i) for i, r in enumerate(rows)])
    x, t = cp.Variable(d), cp.Variable(m)
    h = sample.noise_vector(d)
    objective = cp.sum(t) / m - (alpha / m) * h @ x + 0.5 * lam * cp.sum_squares(x)
    constraints = [t >= theta, np.concatenate(rows) @ x <= t[owner], cp.norm(x, 2) <= 1.0]
    problem = cp.Problem(cp.Minimize(objective), constraints)
    problem.solve(solver=cp.CLARABEL, tol_gap_abs=tolerance, tol_gap_rel=tolerance, tol_feas=tolerance)
    point = np.asarray(x.value, dtype=float)
    norm = float(np.linalg.norm(point))
    if norm > 1.0:
        point = point / norm
    return ErmSolution(point, empirical_objective(point, code, sample, theta, alpha, lam), str(problem.status))


def one_pass_sgd(code: np.ndarray, sample: Sample, theta: float, alpha: float, lam: float) -> np.ndarray:
    """Projected SGD, one pass over the m draws from x = 0, step 1 / (L sqrt(m)) with L = 1 + alpha + lambda,
    returning the average of the iterates: the classical O(L / sqrt(m)) learner, dimension-free."""
    m, d = sample.signs.size, code.shape[1]
    step = 1.0 / ((1.0 + alpha + lam) * np.sqrt(m))
    x, total = np.zeros(d), np.zeros(d)
    for i in range(m):
        members = code[sample.members(code, i)]
        inner = members @ x
        grad = lam * x
        grad[sample.coordinates[i]] -= alpha * sample.signs[i]
        if inner.size and inner.max() > theta:
            grad = grad + members[int(inner.argmax())]
        x = x - step * grad
        norm = float(np.linalg.norm(x))
        if norm > 1.0:
            x = x / norm
        total += x
    return total / m
