"""Split-conformal thresholds: the calibration quantile that gives coverage >= 1 - alpha."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["conformal_quantile", "empirical_coverage", "region_threshold"]


def conformal_quantile(scores: np.ndarray, alpha: float) -> float:
    """The ceil((n + 1)(1 - alpha))-th smallest calibration nonconformity score (inf if that exceeds n).

    For a new point exchangeable with the n calibration points, P(score_new <= q) >= 1 - alpha, and
    <= 1 - alpha + 1/(n + 1) when scores have no ties (Vovk et al. 2005; Lei et al. 2018).
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha {alpha} is outside (0, 1)")
    ordered = np.sort(np.asarray(scores, dtype=float).ravel())
    n = len(ordered)
    if n == 0:
        raise ValueError("conformal_quantile needs at least one calibration score")
    rank = math.ceil((n + 1) * (1.0 - alpha))
    return float("inf") if rank > n else float(ordered[rank - 1])


def region_threshold(log_likelihoods: np.ndarray, alpha: float) -> float:
    """Threshold t such that {x : loglik(x) >= t} holds a new in-distribution point with probability >= 1 - alpha.

    The nonconformity score is -loglik, so t = -conformal_quantile(-loglik, alpha).
    """
    return -conformal_quantile(-np.asarray(log_likelihoods, dtype=float), alpha)


def empirical_coverage(log_likelihoods: np.ndarray, threshold: float) -> float:
    """Fraction of the points whose log-likelihood is at least `threshold`."""
    values = np.asarray(log_likelihoods, dtype=float)
    return float(np.mean(values >= threshold)) if len(values) else float("nan")
