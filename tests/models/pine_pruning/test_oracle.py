"""The MILP oracle: its counterexamples really disagree (and lie in the region); an exactly equivalent
reweighting is proved; the full ensemble is proved; the region constraint is the Chow-Liu region."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.tabular import region_threshold
from models.pine_pruning.ensemble import Ensemble
from models.pine_pruning.oracle import EquivalenceOracle


def _region(small, alpha: float = 0.3):  # type: ignore[no-untyped-def]
    d = small.density
    return d, region_threshold(d.log_likelihood(small.calibration.X), alpha)


@pytest.mark.parametrize("family", ["forest", "boosted"])
def test_counterexamples_disagree_and_lie_in_the_region(small, family: str) -> None:  # type: ignore[no-untyped-def]
    ensemble = getattr(small, family)
    d, threshold = _region(small)
    oracle = EquivalenceOracle(ensemble, d.low, d.high, region=(d, threshold), time_limit=20)
    weights = np.ones(ensemble.size)
    weights[::2] = 0.0
    answer = oracle.check(weights)
    assert not answer.proved and len(answer.points) > 0
    assert np.all(ensemble.predict(answer.points, weights) != ensemble.predict(answer.points))
    assert np.all(d.log_likelihood(answer.points) >= threshold - 1e-9)


def test_whole_space_counterexamples_disagree(small) -> None:  # type: ignore[no-untyped-def]
    d = small.density
    oracle = EquivalenceOracle(small.boosted, d.low, d.high, time_limit=20)
    weights = np.ones(small.boosted.size)
    weights[1::2] = 0.0
    answer = oracle.check(weights)
    assert len(answer.points) > 0
    assert np.all(small.boosted.predict(answer.points, weights) != small.boosted.predict(answer.points))


def test_the_full_ensemble_and_an_exact_reweighting_are_proved(small) -> None:  # type: ignore[no-untyped-def]
    d, threshold = _region(small)
    f = small.forest
    doubled = Ensemble(f.trees + f.trees, f.leaf_probabilities + f.leaf_probabilities, f.classes, None, f.family)
    oracle = EquivalenceOracle(doubled, d.low, d.high, region=(d, threshold), time_limit=20)
    assert oracle.check(np.ones(doubled.size)).proved
    half = np.concatenate([np.full(f.size, 2.0), np.zeros(f.size)])  # the same function with half the trees
    assert oracle.check(half).proved
    X = np.random.default_rng(3).uniform(d.low, d.high, size=(20000, len(d.low)))
    assert np.array_equal(doubled.predict(X, half), doubled.predict(X))


def test_a_region_with_no_disagreement_is_proved_where_the_whole_space_is_not(small) -> None:  # type: ignore[no-untyped-def]
    """Drop a tree; the whole space shows a disagreement, a far-off threshold leaves an empty region: proved."""
    d = small.density
    weights = np.ones(small.forest.size)
    weights[0] = 0.0
    whole = EquivalenceOracle(small.forest, d.low, d.high, time_limit=20).check(weights)
    empty = EquivalenceOracle(small.forest, d.low, d.high, region=(d, 1e6), time_limit=20).check(weights)
    assert len(whole.points) > 0 and empty.proved
