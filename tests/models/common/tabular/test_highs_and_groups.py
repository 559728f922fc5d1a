"""The HiGHS wrapper against brute force, and the group-wise tables."""

from __future__ import annotations

import itertools

import numpy as np

from models.common.tabular import group_mse_table, group_table, solve_lp, solve_milp, worst_group


def test_milp_knapsack_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    values, weights = rng.integers(1, 20, 10).astype(float), rng.integers(1, 10, 10).astype(float)
    capacity = 20.0
    best = max(values @ np.array(bits) for bits in itertools.product([0, 1], repeat=10)
               if weights @ np.array(bits) <= capacity)
    solution = solve_milp(-values, weights[None, :], [-np.inf], [capacity], integrality=np.ones(10),
                          var_lower=np.zeros(10), var_upper=np.ones(10))
    assert solution.optimal and solution.x is not None and abs(-solution.objective - best) < 1e-9


def test_lp_matches_a_closed_form_and_reports_infeasibility() -> None:
    # min x + 2y s.t. x + y >= 1, x - y <= 0.5, x, y in [0, 1]: optimum x = 0.75, y = 0.25
    solution = solve_lp(np.array([1.0, 2.0]), np.array([[1.0, 1.0], [1.0, -1.0]]), np.array([1.0, -np.inf]),
                        np.array([np.inf, 0.5]), var_lower=np.zeros(2), var_upper=np.ones(2))
    assert solution.optimal and solution.x is not None and np.allclose(solution.x, [0.75, 0.25])
    infeasible = solve_lp(np.ones(1), np.ones((1, 1)), [2.0], [np.inf], var_lower=np.zeros(1), var_upper=np.ones(1))
    assert infeasible.status == "infeasible" and not infeasible.feasible


def test_group_tables_and_worst_group() -> None:
    y = np.array([0, 0, 1, 1, 1, 0])
    pred = np.array([0, 1, 1, 1, 0, 0])
    groups = np.array([0, 0, 1, 1, 2, 2])
    rows = group_table(y, pred, groups, names=["a", "b", "c"])
    assert [(r.name, r.size, r.score) for r in rows] == [("a", 2, 0.5), ("b", 2, 1.0), ("c", 2, 0.5)]
    assert worst_group(rows).name == "a"
    mse = group_mse_table(np.array([0.0, 1.0, 2.0]), np.array([1.0, 1.0, 0.0]), np.array([0, 1, 1]))
    assert [r.score for r in mse] == [1.0, 2.0] and worst_group(mse, higher_is_better=False).group == 1
