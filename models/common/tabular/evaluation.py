"""Group-wise evaluation tables: accuracy (or MSE) per group, and the worst group."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel

__all__ = ["GroupRow", "group_mse_table", "group_table", "worst_group"]


class GroupRow(BaseModel):
    """One group's size and score (accuracy for classification, mean squared error for regression)."""

    group: int
    name: str
    size: int
    score: float


def _names(groups: np.ndarray, names: Sequence[str]) -> list[tuple[int, str]]:
    return [(int(g), names[int(g)] if int(g) < len(names) else f"group {int(g)}") for g in np.unique(groups)]


def group_table(y_true: np.ndarray, y_pred: np.ndarray, groups: np.ndarray,
                names: Sequence[str] = ()) -> list[GroupRow]:
    """Accuracy of `y_pred` within each group present in `groups` (sorted by group id)."""
    correct = np.asarray(y_true) == np.asarray(y_pred)
    groups = np.asarray(groups)
    return [GroupRow(group=g, name=name, size=int(np.sum(groups == g)), score=float(correct[groups == g].mean()))
            for g, name in _names(groups, names)]


def group_mse_table(y_true: np.ndarray, y_pred: np.ndarray, groups: np.ndarray,
                    names: Sequence[str] = ()) -> list[GroupRow]:
    """Mean squared error of `y_pred` within each group present in `groups`."""
    squared = (np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)) ** 2
    groups = np.asarray(groups)
    return [GroupRow(group=g, name=name, size=int(np.sum(groups == g)), score=float(squared[groups == g].mean()))
            for g, name in _names(groups, names)]


def worst_group(rows: Sequence[GroupRow], *, higher_is_better: bool = True) -> GroupRow:
    """The group with the lowest accuracy (or, with higher_is_better=False, the highest MSE)."""
    if not rows:
        raise ValueError("worst_group needs at least one group")
    return min(rows, key=lambda r: r.score) if higher_is_better else max(rows, key=lambda r: r.score)
