"""Tuning grids: the best value by validation score, and whether it sits on the grid's edge."""

from __future__ import annotations

import pytest

from models.common.grids import best_on_grid


def test_the_best_value_and_its_edge_are_found_in_any_order() -> None:
    inside = best_on_grid("DPS", "scale", [0.3, 0.1, 1.0, 3.0], [0.5, 0.7, 0.2, 0.4], lower_is_better=True)
    assert inside.best == 1.0 and not inside.at_edge
    low = best_on_grid("DPS", "scale", [0.3, 0.1, 1.0], [0.5, 0.2, 0.6], lower_is_better=True)
    assert low.best == 0.1 and low.at_edge, "0.1 is the smallest value although it is listed second"
    high = best_on_grid("EMA", "decay", [0.9, 0.99, 0.999], [0.1, 0.2, 0.3], lower_is_better=False)
    assert high.best == 0.999 and high.at_edge
    assert not best_on_grid("x", "p", [1.0], [0.0], lower_is_better=True).at_edge


def test_a_grid_needs_a_score_per_value() -> None:
    with pytest.raises(ValueError):
        best_on_grid("x", "p", [1.0, 2.0], [0.0], lower_is_better=True)
