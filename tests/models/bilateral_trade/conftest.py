"""Shared helpers of the bilateral trade tests: the named distributions and their valuation pools."""

from __future__ import annotations

import numpy as np

from models.bilateral_trade.distributions import ValuationDistribution
from models.bilateral_trade.params import DistributionParams
from models.bilateral_trade.scenarios import build_distribution

__all__ = ["DEPENDENT", "KINDS", "Pools", "make_dist", "make_pools"]

KINDS = ["uniform", "factor_two", "two_markets", "two_squares", "gaussian_copula", "rectangles"]
DEPENDENT = ["factor_two", "two_markets", "two_squares", "rectangles"]  # s and b not independent

Pools = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def make_dist(kind: str, **extra: object) -> ValuationDistribution:
    """The page's distribution `kind` with its default parameters (overridden by `extra`)."""
    return build_distribution(DistributionParams(kind=kind, **extra))  # type: ignore[arg-type]


def make_pools(dist: ValuationDistribution | str, horizon: int, seed: int) -> Pools:
    """Two i.i.d. valuation pools (planned rounds, guard rounds) of length `horizon`."""
    if isinstance(dist, str):
        dist = make_dist(dist)
    rng = np.random.default_rng(seed)
    return dist.sample(rng, horizon), dist.sample(rng, horizon)
