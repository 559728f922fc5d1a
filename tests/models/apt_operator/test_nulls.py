"""The uniform-k null and the paired check a learned model must pass before any robustness ratio counts."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.apt_operator.data import adaptive_sample, regular_sample
from models.apt_operator.nulls import (
    MIN_GAIN,
    improvement,
    null_check,
    on_leaves,
    paired_interval,
    relative_l2,
    uniform_k_guess,
)


def test_the_null_is_exact_on_a_uniform_medium_and_wrong_on_a_heterogeneous_one(medium) -> None:  # type: ignore[no-untyped-def]
    grid = regular_sample(medium, 32)
    uniform = regular_sample(dataclasses.replace(medium, contrast=1.0), 32)  # ln k = 0 everywhere
    assert np.all(relative_l2(uniform_k_guess(uniform), uniform) < 1e-10)  # pressure and saturation
    assert np.all((0.1 < relative_l2(uniform_k_guess(grid), grid)) & (relative_l2(uniform_k_guess(grid), grid) < 1.5))
    scaled = dataclasses.replace(uniform, log_k=uniform.log_k + np.log(4.0))  # k x 4 -> p / 4, same fluxes and s
    np.testing.assert_allclose(uniform_k_guess(scaled), uniform_k_guess(uniform) * [0.25, 1.0], atol=1e-12)


def test_leaf_averages_of_the_truth_are_the_adaptive_targets(medium) -> None:  # type: ignore[no-untyped-def]
    grid = regular_sample(medium, 32)
    leaves = adaptive_sample(medium, grid)
    assert np.allclose(on_leaves(grid.targets(), leaves), leaves.targets())
    with pytest.raises(ValueError):
        uniform_k_guess(leaves)


def test_paired_interval_brackets_the_mean_and_excludes_zero_only_for_a_clear_gap() -> None:
    rng = np.random.default_rng(0)
    clear = 0.1 + 0.01 * rng.normal(size=24)
    lo, hi = paired_interval(clear)
    assert lo < clear.mean() < hi and lo > 0
    noisy = 0.01 + 0.2 * rng.normal(size=24)
    lo, hi = paired_interval(noisy)
    assert lo < 0 < hi


@pytest.mark.parametrize(("factor", "passes"), [(0.6, True), (0.8, False), (1.0, False), (1.2, False)])
def test_beating_the_null_needs_a_paired_gap_and_a_quarter_less_error(factor: float, passes: bool) -> None:
    rng = np.random.default_rng(1)
    null = rng.uniform(0.4, 0.6, size=24)
    model = factor * null * (1 + 0.02 * rng.normal(size=24))
    check = null_check(model, null)
    assert check.passed is passes
    assert check.gain == pytest.approx(float(improvement(model, null).mean()))
    assert check.gain == pytest.approx(100 * (1 - model.mean() / null.mean()))  # the gain in mean relative L2
    assert (check.gain >= MIN_GAIN) is (factor < 0.75)
