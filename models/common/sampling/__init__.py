"""Shared sampling infrastructure: integrators, Gaussian mixtures under the VP process, kernels, particles, Kalman."""

from __future__ import annotations

from models.common.sampling.gaussian_mixture import GaussianMixture
from models.common.sampling.integrators import euler_maruyama, euler_ode
from models.common.sampling.kalman import KalmanOutput, LinearGaussianSSM, kalman_filter
from models.common.sampling.kernels import median_bandwidth, rbf_kernel, stein_direction
from models.common.sampling.particles import (
    effective_sample_size,
    entropic_ot_resample,
    multinomial_resample,
    normalize_log_weights,
    soft_resample,
    systematic_resample,
)
from models.common.sampling.vp import VPSchedule, tweedie_mean

__all__ = [
    "GaussianMixture",
    "KalmanOutput",
    "LinearGaussianSSM",
    "VPSchedule",
    "effective_sample_size",
    "entropic_ot_resample",
    "euler_maruyama",
    "euler_ode",
    "kalman_filter",
    "median_bandwidth",
    "multinomial_resample",
    "normalize_log_weights",
    "rbf_kernel",
    "soft_resample",
    "stein_direction",
    "systematic_resample",
    "tweedie_mean",
]
