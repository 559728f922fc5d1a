"""Split conformal: the quantile rank, and coverage >= 1 - alpha (and not much more) on held-out data."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.tabular import conformal_quantile, empirical_coverage, region_threshold


def test_quantile_is_the_ceil_n_plus_one_rank() -> None:
    scores = np.arange(1.0, 20.0)  # n = 19
    assert conformal_quantile(scores, 0.1) == 18.0  # ceil(20 * 0.9) = 18
    assert conformal_quantile(scores, 0.5) == 10.0
    assert conformal_quantile(scores, 0.01) == float("inf")  # rank 20 > n
    with pytest.raises(ValueError, match="alpha"):
        conformal_quantile(scores, 0.0)


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.3])
def test_coverage_is_close_to_one_minus_alpha_over_many_splits(alpha: float) -> None:
    rng = np.random.default_rng(4)
    coverages = []
    for _ in range(400):
        calibration, test = rng.standard_normal(99), rng.standard_normal(500)
        coverages.append(empirical_coverage(test, region_threshold(calibration, alpha)))
    mean = float(np.mean(coverages))
    # exact marginal coverage with n = 99 continuous scores: ceil(100 (1 - alpha)) / 100, in [1 - alpha, 1 - alpha + 1/100]
    assert 1 - alpha - 0.005 <= mean <= 1 - alpha + 1 / 100 + 0.005


def test_region_threshold_is_a_lower_likelihood_bound() -> None:
    loglik = np.linspace(-10, 0, 101)
    t = region_threshold(loglik, 0.2)
    assert empirical_coverage(loglik, t) >= 0.8 and np.sum(loglik >= t) == np.ceil(102 * 0.8)
