"""Tuning grids reported with the result: which values were tried, which won, and whether it sat on an edge.

A baseline (or the method) tuned on a grid is only as fair as the grid: an optimum on the grid's first or
last value may lie beyond it. `best_on_grid` picks the best value by validation score and says so; a method
whose optimum is on an edge extends its grid, or its claim says why not.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

__all__ = ["GridReport", "best_on_grid"]


class GridReport(BaseModel):
    """One tuned parameter: its grid, the value chosen on validation data, and whether that is an edge."""

    tuned: str = Field(description="what was tuned (the baseline or method)")
    param: str
    values: list[float]
    scores: list[float] = Field(description="validation score of each value (the selection criterion)")
    best: float
    at_edge: bool = Field(description="the best value is the grid's smallest or largest")


def best_on_grid(tuned: str, param: str, values: Sequence[float], scores: Sequence[float],
                 lower_is_better: bool) -> GridReport:
    """The best value of `param` by its validation score (the first of equal scores)."""
    if len(values) != len(scores) or not values:
        raise ValueError("one validation score per grid value, and at least one value")
    ordered = sorted(range(len(values)), key=lambda k: values[k])
    pick = min(range(len(values)), key=lambda k: scores[k] if lower_is_better else -scores[k])
    edge = len(values) > 1 and pick in (ordered[0], ordered[-1])
    return GridReport(tuned=tuned, param=param, values=[float(v) for v in values], scores=[float(s) for s in scores],
                      best=float(values[pick]), at_edge=edge)
