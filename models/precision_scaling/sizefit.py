"""Effective model size from risk: fit R_q(M) = E + R_full(kappa M) to a scheme's risks over M.

R_full is the same seed's full-precision risk curve over the same model sizes, interpolated linearly in
log-log (and extended by the straight line through its last two points above the largest M, so that a
kappa above 1 can be fitted too). E >= 0 is the additive error; kappa is the effective model size as a fraction
of M: 1 means the scheme costs only an additive error, kappa < 1 that it behaves like a smaller model. The fit
minimises the squared error in log risk over every M (scipy least squares, a few starting kappas).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

__all__ = ["KAPPA_RANGE", "SizeFit", "fit_model_size", "full_curve"]

KAPPA_RANGE = (0.05, 2.0)


@dataclass(frozen=True)
class SizeFit:
    additive_error: float  # E
    kappa: float  # effective model size / M
    rms_log_error: float


def full_curve(sizes: np.ndarray, full_risk: np.ndarray, m: np.ndarray) -> np.ndarray:
    """R_full at (possibly non-grid) sizes m: log-log interpolation, linear extrapolation in log-log beyond the
    grid (the power law of the last two, resp. first two, points)."""
    log_s, log_r, log_m = np.log(sizes), np.log(full_risk), np.log(m)
    inside = np.interp(log_m, log_s, log_r)
    high = log_r[-1] + (log_m - log_s[-1]) * (log_r[-1] - log_r[-2]) / (log_s[-1] - log_s[-2])
    low = log_r[0] + (log_m - log_s[0]) * (log_r[1] - log_r[0]) / (log_s[1] - log_s[0])
    return np.exp(np.where(log_m > log_s[-1], high, np.where(log_m < log_s[0], low, inside)))


def fit_model_size(sizes: list[int], full_risk: np.ndarray, risk: np.ndarray) -> SizeFit:
    """The least-squares (E, kappa) of log R_q(M) = log(E + R_full(kappa M)) over the given sizes."""
    m = np.asarray(sizes, float)
    full, target = np.asarray(full_risk, float), np.log(np.asarray(risk, float))

    def residual(p: np.ndarray) -> np.ndarray:
        return np.log(p[0] + full_curve(m, full, p[1] * m)) - target

    best = None
    for start in (0.3, 0.7, 1.0, 1.5):
        fit = least_squares(residual, [1e-6, start], bounds=([0.0, KAPPA_RANGE[0]], [np.inf, KAPPA_RANGE[1]]))
        if best is None or fit.cost < best.cost:
            best = fit
    assert best is not None
    return SizeFit(float(best.x[0]), float(best.x[1]), float(np.sqrt(np.mean(best.fun**2))))
