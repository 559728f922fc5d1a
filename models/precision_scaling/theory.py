"""Deterministic-equivalent risk of one-pass SGD on quantised sketched features, and the effective model size.

For a fixed sketch S (size M) and measured quantisation-noise variances q (per coordinate of x;
stochastic rounding is unbiased and uncorrelated with x, so E x~ x~^T = H + diag(q)):

* G = S (H + diag q) S^T is the covariance SGD sees and v_inf = G^-1 S H w* its population optimum;
  R_inf = (S^T v_inf - w*)^T H (S^T v_inf - w*) is the risk with infinite data (approximation error
  plus the quantisation's additive error);
* effective model size m_eff = tr[S H S^T G^-1]: the number of sketched directions whose signal
  dominates the quantisation noise. Full precision: M. Multiplicative noise, q proportional to the
  signal's own variance, only rescales G, so m_eff stays close to M. Additive noise, q the same for
  every coordinate, swamps the weak directions, so m_eff saturates below M;
* after n samples (iterates n/2..n averaged, step gamma): bias sum_j mu_j c_j^2 f_j^2 with
  f_j the averaged contraction (1 - gamma mu_j)^t, and variance sigma_eff^2 D_eff / (n/2), where
  D_eff = #{gamma mu_j n/2 >= 1} + sum over the rest of (gamma mu_j n/2)^2 and sigma_eff^2 is the
  residual variance at v_inf (label noise + R_inf + the quantisation noise seen by v_inf). This is
  the constant-step SGD risk of Zou et al. (2021) / Lin et al. (2024) with its constants set to one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TheoryPoint", "theory"]


@dataclass(frozen=True)
class TheoryPoint:
    infinite_data_risk: float
    effective_size: float
    risk_at: dict[int, float]


def _averaged_contraction(mu: np.ndarray, gamma: float, n: int) -> np.ndarray:
    """mean over t in (n/2, n] of (1 - gamma mu)^t, in closed form."""
    rho = np.clip(1.0 - gamma * mu, 0.0, 1.0)
    start, count = n // 2 + 1, n - n // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        geometric = rho**start * (1.0 - rho**count) / (1.0 - rho) / count
    return np.where(rho < 1.0 - 1e-15, geometric, 1.0)


def theory(sketch: np.ndarray, spectrum: np.ndarray, target: np.ndarray, noise_variance: np.ndarray,
           label_noise: float, gamma: float, record: list[int]) -> TheoryPoint:
    """R_inf, m_eff and the risk after each n in `record` for one sketch (rows = model size)."""
    signal = (sketch * spectrum) @ sketch.T
    seen = signal + (sketch * noise_variance) @ sketch.T
    v_inf = np.linalg.solve(seen, sketch @ (spectrum * target))
    residual = sketch.T @ v_inf - target
    r_inf = float(residual @ (spectrum * residual))
    m_eff = float(np.trace(np.linalg.solve(seen, signal)))
    mu, basis = np.linalg.eigh(seen)
    mu = np.maximum(mu, 0.0)
    coefficients = basis.T @ v_inf
    sigma_eff = label_noise**2 + r_inf + float(v_inf @ ((sketch * noise_variance) @ sketch.T) @ v_inf)
    risk_at = {}
    for n in record:
        bias = float((mu * coefficients**2 * _averaged_contraction(mu, gamma, n) ** 2).sum())
        reach = gamma * mu * (n / 2)
        d_eff = float((reach >= 1).sum() + (reach[reach < 1] ** 2).sum())
        risk_at[n] = r_inf + bias + sigma_eff * d_eff / (n / 2)
    return TheoryPoint(r_inf, m_eff, risk_at)
