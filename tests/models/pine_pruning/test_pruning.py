"""The pruning program (against brute force), the oracle loop's exactness, and accuracy pruning."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier

from models.common.tabular import region_threshold
from models.common.tabular.highs import solve_lp
from models.pine_pruning.pruning import accuracy_pruning, faithful_prune, margin_rows, solve_weights, tie_free
from models.pine_pruning.region import box_sampler, region_sampler


def test_forest_vote_equals_scikit_learn(small) -> None:  # type: ignore[no-untyped-def]
    model = RandomForestClassifier(n_estimators=12, max_depth=2, min_samples_leaf=2, random_state=0, n_jobs=1)
    model.fit(small.train.X.astype(np.float32), small.train.y)
    assert np.array_equal(model.predict(small.test.X.astype(np.float32)), small.forest.predict(small.test.X))


def _support_feasible(rows: np.ndarray, support: tuple[int, ...]) -> bool:
    margin = min(1e-4, float(rows.sum(axis=1).min()))
    sub = rows[:, list(support)] / margin
    k = len(support)
    return solve_lp(np.zeros(k), sub, np.ones(len(rows)), np.full(len(rows), np.inf), var_lower=np.zeros(k),
                    var_upper=np.ones(k)).feasible


@pytest.mark.slow
def test_milp_finds_the_smallest_faithful_subset_by_brute_force(small) -> None:  # type: ignore[no-untyped-def]
    forest = small.forest
    X = small.train.X[tie_free(forest, small.train.X)][:120]
    rows = margin_rows(forest, X)
    solution = solve_weights(rows, solver="milp", time_limit=20)
    assert solution.optimal and solution.x is not None
    kept = int(np.sum(solution.x > 1e-7))
    smallest = next(k for k in range(1, forest.size + 1)
                    if any(_support_feasible(rows, s) for s in itertools.combinations(range(forest.size), k)))
    assert kept == smallest
    weights = np.where(solution.x > 1e-7, solution.x, 0.0)
    assert np.array_equal(forest.predict(X, weights), forest.predict(X))
    lp = solve_weights(rows, solver="lp", time_limit=20)
    assert lp.x is not None and np.sum(lp.x > 1e-7) >= kept


def test_oracle_loop_is_exact_and_survives_a_fresh_recheck(small) -> None:  # type: ignore[no-untyped-def]
    forest, density = small.forest, small.density
    threshold = region_threshold(density.log_likelihood(small.calibration.X), 0.2)
    sampler = region_sampler(density, threshold)
    seeds = small.train.X[density.log_likelihood(small.train.X) >= threshold]
    result = faithful_prune(forest, seeds, sampler, np.random.default_rng(0), rounds=40, search_size=2000,
                            add_per_round=200, solver="milp")
    assert result.converged and result.exact_on_constraints
    fresh = sampler(np.random.default_rng(99), 20000, small.train.X)
    assert np.all(density.log_likelihood(fresh) >= threshold)
    wrong = np.mean(forest.predict(fresh, result.weights) != forest.predict(fresh))
    assert wrong < 0.002  # a randomised oracle: "no disagreement found in 2,000", re-checked on 20,000


def test_whole_space_pruning_keeps_at_least_as_many_trees_when_both_converge(small) -> None:  # type: ignore[no-untyped-def]
    forest, density = small.forest, small.density
    threshold = region_threshold(density.log_likelihood(small.calibration.X), 0.3)
    kwargs = {"rounds": 40, "search_size": 2000, "add_per_round": 200, "solver": "milp"}
    region = faithful_prune(forest, small.train.X[density.log_likelihood(small.train.X) >= threshold],
                            region_sampler(density, threshold), np.random.default_rng(0), **kwargs)  # type: ignore[arg-type]
    whole = faithful_prune(forest, small.train.X, box_sampler(density.low, density.high), np.random.default_rng(0),
                           **kwargs)  # type: ignore[arg-type]
    assert region.converged and whole.converged
    assert region.trees_kept <= whole.trees_kept


def test_accuracy_pruning_reaches_the_best_prefix(small) -> None:  # type: ignore[no-untyped-def]
    forest = small.forest
    weights = accuracy_pruning(forest, small.calibration.X, small.calibration.y)
    assert set(np.unique(weights)) <= {0.0, 1.0} and weights.sum() >= 1
    pruned = np.mean(forest.predict(small.calibration.X, weights) == small.calibration.y)
    full = np.mean(forest.predict(small.calibration.X) == small.calibration.y)
    assert pruned >= full  # the greedy path's best prefix is at least as good as the whole path's end
