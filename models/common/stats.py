"""Paired statistics for claims: the interval of a mean over seeds and units, and the exact sign test.

A claim's quantity is measured on S seeds; within a seed it is often the mean over natural units (queries,
test points, filters, particles): for a comparison, the per-unit paired differences. `mean_interval` gives
a 95% interval of the grand mean (the mean over seeds of each seed's value):

1. One seed: a bootstrap over its units (`RESAMPLES` resamples from a generator seeded with
   `RESAMPLE_SEED`, so the same data give the same interval; from `NORMAL_UNITS` units the resampled mean
   is drawn from its normal law, which is what resampling gives at that size); the standard error is the
   bootstrap's, corrected by sqrt(n / (n - 1)), with Student's t at n - 1 degrees of freedom.
2. Two or more seeds: the seeds are the independent replicates, and each seed's value already averages its
   units, so the interval is Student's t at S - 1 degrees of freedom on the seed values. This is the
   two-level bootstrap done right for a mean: resampling seeds and then units within them counts the unit
   noise twice (the simulation in `tests/models/common/test_stats.py` covered 100% at 3 seeds x 8 units:
   intervals too wide), and resampling seeds alone is this interval up to the (S - 1) / S bias that the
   t form removes. Pooling the units' degrees of freedom (Welch-Satterthwaite) covered only 90% at 3 seeds.
   Where every seed has units, their noise is a floor under the standard error: seeds that agree more closely
   than their own units allow (two seeds giving the same value) cannot make the interval narrower than the
   units' standard error of the grand mean (then with the units' degrees of freedom).

Coverage is checked by simulation at the smallest sizes the pages use (3 seeds; one seed of 10 units).
`sign_test` is the exact two-sided binomial test of wins against losses (ties dropped), which is McNemar's
exact test on paired binary outcomes; `binomial_lower_bound` is the one-sided Clopper-Pearson bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

__all__ = ["LEVEL", "RESAMPLES", "RESAMPLE_SEED", "Interval", "binomial_lower_bound", "mean_interval", "sign_test"]

LEVEL = 0.95
RESAMPLES = 2000
RESAMPLE_SEED = 20260706
NORMAL_UNITS = 200  # from this many units the resampled mean is drawn from its normal law


@dataclass(frozen=True)
class Interval:
    """A two-sided interval of a grand mean, with how it was made."""

    mean: float
    lo: float
    hi: float
    level: float
    kind: str
    resamples: int
    df: float


def _seed_arrays(per_seed: Sequence[Sequence[float]]) -> list[np.ndarray]:
    arrays = [np.asarray(values, dtype=float).ravel() for values in per_seed]
    if not arrays or any(a.size == 0 for a in arrays):
        raise ValueError("every seed needs at least one value")
    if any(not np.all(np.isfinite(a)) for a in arrays):
        raise ValueError("values must be finite")
    return arrays


def _resampled_means(units: np.ndarray, draws: int, rng: np.random.Generator) -> np.ndarray:
    """`draws` bootstrap means of one seed's units."""
    n = units.size
    if n == 1:
        return np.full(draws, units[0])
    if n >= NORMAL_UNITS:
        return rng.normal(units.mean(), units.std() / math.sqrt(n), size=draws)
    picks = rng.integers(0, n, size=(draws, n))
    return np.asarray(units[picks].mean(axis=1))


def mean_interval(per_seed: Sequence[Sequence[float]], level: float = LEVEL, resamples: int = RESAMPLES,
                  seed: int = RESAMPLE_SEED) -> Interval | None:
    """The interval of the mean over seeds of each seed's unit mean; None when it cannot be formed
    (one seed with one value: nothing to resample)."""
    arrays = _seed_arrays(per_seed)
    s = len(arrays)
    n = np.array([a.size for a in arrays])
    seed_means = np.array([a.mean() for a in arrays])
    mean = float(seed_means.mean())
    if s == 1 and n[0] == 1:
        return None
    rng = np.random.default_rng(seed)
    if s == 1:
        boot = _resampled_means(arrays[0], resamples, rng)
        se = float(boot.std(ddof=1)) * math.sqrt(n[0] / (n[0] - 1))
        df = float(n[0] - 1)
        kind = f"bootstrap over {n[0]} units"
    else:
        se = float(seed_means.std(ddof=1)) / math.sqrt(s)
        df = float(s - 1)
        within = [a.var(ddof=1) / a.size for a in arrays if a.size > 1]
        if len(within) == s:  # every seed has units: their noise is a floor under the seed-level SE
            unit_se = math.sqrt(float(np.mean(within)) / s)
            if unit_se > se:  # the seeds agree more than their own units allow (identical seeds): units decide
                se, df = unit_se, float(np.sum(n - 1))
        counts = f"{int(n.min())}" if n.min() == n.max() else f"{int(n.min())}-{int(n.max())}"
        kind = f"t over {s} seeds" + (f", each the mean of {counts} units" if n.max() > 1 else "")
    t = float(sps.t.ppf(0.5 + level / 2, df)) if math.isfinite(df) else float(sps.norm.ppf(0.5 + level / 2))
    return Interval(mean=mean, lo=mean - t * se, hi=mean + t * se, level=level, kind=kind, resamples=resamples,
                    df=df)


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided p-value of `wins` against `losses` under p = 1/2 (ties are not counted)."""
    if wins < 0 or losses < 0:
        raise ValueError("counts must be >= 0")
    n = wins + losses
    if n == 0:
        return 1.0
    return float(min(1.0, 2 * sps.binom.cdf(min(wins, losses), n, 0.5)))


def binomial_lower_bound(successes: int, trials: int, level: float = LEVEL) -> float:
    """One-sided Clopper-Pearson lower bound of a success probability at `level`."""
    if not 0 <= successes <= trials or trials == 0:
        raise ValueError("need 0 <= successes <= trials and trials > 0")
    if successes == 0:
        return 0.0
    return float(sps.beta.ppf(1 - level, successes, trials - successes + 1))
