"""Weights, the oracle loop and accuracy pruning: sklearn agreement, brute-force L0, the full-ensemble fallback."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier

from models.common.tabular import region_threshold
from models.common.tabular.highs import LinearSolution, solve_lp
from models.pine_pruning import pruning
from models.pine_pruning.ensemble import fit_boosting
from models.pine_pruning.oracle import EquivalenceOracle
from models.pine_pruning.pruning import accuracy_pruning, faithful_prune, margin_rows, solve_weights, tie_free
from models.pine_pruning.region import region_sampler


def test_forest_and_boosting_votes_equal_scikit_learn(small) -> None:  # type: ignore[no-untyped-def]
    model = RandomForestClassifier(n_estimators=12, max_depth=2, min_samples_leaf=2, random_state=0, n_jobs=1)
    model.fit(small.train.X.astype(np.float32), small.train.y)
    assert np.array_equal(model.predict(small.test.X.astype(np.float32)), small.forest.predict(small.test.X))
    gb = GradientBoostingClassifier(n_estimators=6, max_depth=2, subsample=0.8, random_state=0)
    gb.fit(small.train.X.astype(np.float32), small.train.y)
    assert np.array_equal(gb.predict(small.test.X.astype(np.float32)), small.boosted.predict(small.test.X))
    binary = small.train.y > 0
    gb2 = fit_boosting(small.train.X, binary.astype(int), trees=5, max_depth=2, seed=0)
    ref = GradientBoostingClassifier(n_estimators=5, max_depth=2, subsample=0.8, random_state=0)
    ref.fit(small.train.X.astype(np.float32), binary.astype(int))
    assert np.allclose(gb2.scores(small.test.X)[:, 1], ref.decision_function(small.test.X.astype(np.float32)))


def _support_feasible(rows: np.ndarray, offsets: np.ndarray, support: tuple[int, ...]) -> bool:
    margin = min(1e-4, float((rows.sum(axis=1) + offsets).min()))
    k = len(support)
    return solve_lp(np.zeros(k), rows[:, list(support)], margin - offsets, np.full(len(rows), np.inf),
                    var_lower=np.zeros(k), var_upper=np.full(k, 4.0)).feasible


@pytest.mark.slow
def test_milp_finds_the_smallest_faithful_subset_by_brute_force(small) -> None:  # type: ignore[no-untyped-def]
    ensemble = small.boosted  # signed leaf values and a base score
    X = small.train.X[tie_free(ensemble, small.train.X)][:60]
    rows, offsets = margin_rows(ensemble, X)
    solution = solve_weights(rows, offsets, solver="milp", time_limit=20, upper=4.0)
    assert solution.optimal and solution.x is not None
    kept = int(np.sum(solution.x > 1e-7))
    smallest = next(k for k in range(1, ensemble.size + 1)
                    if any(_support_feasible(rows, offsets, s) for s in itertools.combinations(range(ensemble.size), k)))
    assert kept == smallest
    weights = np.where(solution.x > 1e-7, solution.x, 0.0)
    assert np.array_equal(ensemble.predict(X, weights), ensemble.predict(X))


def _loop(small, ensemble, rounds: int):  # type: ignore[no-untyped-def]
    d = small.density
    threshold = region_threshold(d.log_likelihood(small.calibration.X), 0.3)
    oracle = EquivalenceOracle(ensemble, d.low, d.high, region=(d, threshold), time_limit=20)
    inside = small.train.X[d.log_likelihood(small.train.X) >= threshold]
    return faithful_prune(ensemble, inside, oracle, region_sampler(d, threshold), np.random.default_rng(0),
                          rounds=rounds, search_size=300, add_per_round=50), oracle, threshold


def test_a_proved_pruning_has_no_disagreement_in_20000_region_points(small) -> None:  # type: ignore[no-untyped-def]
    result, oracle, threshold = _loop(small, small.forest, rounds=40)
    assert result.converged and oracle.check(result.weights).proved
    X = region_sampler(small.density, threshold)(np.random.default_rng(5), 20000, small.train.X)
    assert len(X) > 10000
    assert np.array_equal(small.forest.predict(X, result.weights), small.forest.predict(X))


def test_no_proof_in_time_returns_the_full_ensemble(small) -> None:  # type: ignore[no-untyped-def]
    result, _, _ = _loop(small, small.boosted, rounds=1)
    assert not result.converged and result.fell_back
    assert np.array_equal(result.weights, np.ones(small.boosted.size))


def test_a_program_keeping_every_tree_gives_the_plain_full_ensemble(small, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    T = small.forest.size
    uneven = LinearSolution("optimal", np.linspace(0.2, 1.0, T), 0.0, 0.0)
    monkeypatch.setattr(pruning, "solve_weights", lambda *a, **k: uneven)
    result, oracle, _ = _loop(small, small.forest, rounds=5)
    assert np.array_equal(result.weights, np.ones(T)) and result.trees_kept == T
    assert result.converged and oracle.check(result.weights).proved  # w = 1 is equivalent, and proved


def test_accuracy_pruning_reaches_the_best_prefix(small) -> None:  # type: ignore[no-untyped-def]
    forest = small.forest
    weights = accuracy_pruning(forest, small.calibration.X, small.calibration.y)
    assert set(np.unique(weights)) <= {0.0, 1.0} and weights.sum() >= 1
    pruned = np.mean(forest.predict(small.calibration.X, weights) == small.calibration.y)
    full = np.mean(forest.predict(small.calibration.X) == small.calibration.y)
    assert pruned >= full  # the greedy path's best prefix is at least as good as the whole path's end


@pytest.mark.parametrize("family", ["forest", "boosted"])
def test_centred_weights_keep_the_support_and_a_larger_share_of_every_margin(small, family: str) -> None:  # type: ignore[no-untyped-def]
    ensemble = getattr(small, family)
    X = small.train.X[tie_free(ensemble, small.train.X)][:60]
    rows, offsets = margin_rows(ensemble, X)
    cap = pruning.WEIGHT_CAP[ensemble.family]
    sparse = pruning._pruned_weights(solve_weights(rows, offsets, solver="lp", time_limit=5.0, upper=cap), ensemble.size)
    assert 0 < np.sum(sparse > 0) < ensemble.size
    centred = pruning.center_weights(rows, offsets, sparse, upper=cap, time_limit=5.0)
    assert set(np.flatnonzero(centred > 0)) <= set(np.flatnonzero(sparse > 0)) and centred.max() <= cap + 1e-9
    full = rows.sum(axis=1) + offsets

    def share(w: np.ndarray) -> float:
        return float(np.min((rows @ w + offsets) / full))

    assert share(centred) > 2 * share(sparse) > 0  # the sparse vertex sits at the least margin allowed
    assert share(centred) > 0.01  # every point of S keeps a share of its full margin
    assert np.array_equal(ensemble.predict(X, centred), ensemble.predict(X))
