"""The claims' statistics: interval coverage by simulation at the pages' smallest sizes, exact p-values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from models.common.stats import binomial_lower_bound, mean_interval, sign_test


def _coverage(seeds: int, units: int, between: float, within: float, datasets: int = 1000) -> float:
    rng = np.random.default_rng(11)
    hits = 0
    for k in range(datasets):
        data = [rng.normal(rng.normal(0.0, between), within, size=units) for _ in range(seeds)]
        interval = mean_interval(data, resamples=400, seed=k)
        assert interval is not None
        hits += interval.lo <= 0.0 <= interval.hi
    return hits / datasets


@pytest.mark.parametrize(("seeds", "units", "between", "within"), [
    (3, 1, 1.0, 0.0),   # three seeds, a value each
    (3, 8, 0.0, 1.0),   # three seeds, the spread all within them
    (3, 8, 1.0, 1.0),   # both
    (1, 10, 0.0, 1.0),  # one seed of ten units: the bootstrap over units
    (1, 400, 0.0, 1.0),  # one seed of many units (normal draw of the resampled mean)
])
def test_a_95_percent_interval_covers_the_mean_about_95_percent_of_the_time(seeds: int, units: int, between: float,
                                                                            within: float) -> None:
    # 1,000 data sets: the binomial sd of a 95% rate is 0.7 points; [0.93, 0.975] is about 3 sd below and a
    # little more above (where seeds agree, the units' floor under the standard error is mildly conservative)
    assert 0.93 <= _coverage(seeds, units, between, within) <= 0.975


def test_a_too_narrow_interval_is_caught_by_the_coverage_check() -> None:
    """The check can fail: a z interval on three seeds (ignoring Student's t) covers well under 93%."""
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(1000):
        values = rng.normal(0.0, 1.0, size=3)
        half = 1.96 * values.std(ddof=1) / math.sqrt(3)
        hits += abs(values.mean()) <= half
    assert hits / 1000 < 0.93


def test_the_interval_is_reproducible_and_none_without_anything_to_resample() -> None:
    data = [[0.1, 0.4, 0.3], [0.2, 0.5]]
    assert mean_interval(data) == mean_interval(data)
    assert mean_interval([[0.3]]) is None
    with pytest.raises(ValueError):
        mean_interval([[]])
    with pytest.raises(ValueError):
        mean_interval([[math.nan, 1.0]])


def test_identical_seeds_do_not_make_a_zero_width_interval() -> None:
    units = [1.0, 0.0, 1.0, 0.0, 1.0] * 20
    interval = mean_interval([units, units])
    assert interval is not None and interval.hi - interval.lo > 0.1, "the units' noise is a floor"


def test_three_seed_values_give_the_classical_t_interval() -> None:
    interval = mean_interval([[1.0], [2.0], [4.0]])
    assert interval is not None
    half = sps.t.ppf(0.975, 2) * np.std([1.0, 2.0, 4.0], ddof=1) / math.sqrt(3)
    assert (interval.lo, interval.hi) == pytest.approx((7 / 3 - half, 7 / 3 + half))


@pytest.mark.parametrize(("wins", "losses", "p"), [
    (3, 0, 0.25), (0, 3, 0.25), (5, 0, 0.0625), (1, 1, 1.0), (0, 0, 1.0), (6, 1, 16 / 128),
    (10, 2, 2 * (1 + 12 + 66) / 4096),
])
def test_the_sign_test_p_values_are_exact(wins: int, losses: int, p: float) -> None:
    assert sign_test(wins, losses) == pytest.approx(p)


def test_the_clopper_pearson_bound_is_exact_and_below_the_rate() -> None:
    assert binomial_lower_bound(10, 10) == pytest.approx(0.05 ** (1 / 10))  # (1 - level)^(1/n) for all successes
    assert binomial_lower_bound(0, 10) == 0.0
    assert binomial_lower_bound(30, 40) < 0.75
    with pytest.raises(ValueError):
        binomial_lower_bound(11, 10)
