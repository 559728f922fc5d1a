"""Shared tabular-learning infrastructure: data sets, shift generators, conformal sets, HiGHS, group tables.

Used by `pine_pruning` (and meant for `robust_satisficing`, `lift_offline_rl`). Everything is seeded by
an explicit `numpy.random.Generator`; nothing downloads (only scikit-learn's bundled `load_*` data).

- `datasets`: `load_dataset(name)` -> `TabularData` (X, y, groups, names) for "breast_cancer", "wine",
  "digits", "diabetes", "iris"; `split(data, fractions, rng)` -> stratified `TabularData` parts;
  `standardise(train, *others)`.
- `generators`: `spurious_correlation(n, rng, ...)` (label + a spurious attribute that agrees with the label
  with probability `correlation`; groups = (label, attribute)), `group_shift(n, rng, ...)` (a minority group
  whose decision boundary is rotated), `classification_blobs(n, rng, ...)` (correlated Gaussian classes),
  `waterbirds_like(n, rng, ...)` (a non-linear ring core and a linear spurious cue, minority groups a != y).
- `conformal`: split-conformal thresholds `conformal_quantile(scores, alpha)` (coverage >= 1 - alpha for
  exchangeable data), `region_threshold` for "score above threshold" sets, `empirical_coverage`.
- `highs`: `solve_lp(...)` and `solve_milp(...)` on HiGHS (scipy) -> `LinearSolution`.
- `evaluation`: `group_table(y_true, y_pred, groups)` -> `list[GroupRow]`, `worst_group`, `group_mse_table`.
"""

from __future__ import annotations

from models.common.tabular.conformal import conformal_quantile, empirical_coverage, region_threshold
from models.common.tabular.datasets import BUNDLED, TabularData, load_dataset, split, standardise
from models.common.tabular.evaluation import GroupRow, group_mse_table, group_table, worst_group
from models.common.tabular.generators import (
    classification_blobs,
    group_shift,
    spurious_correlation,
    waterbirds_like,
)
from models.common.tabular.highs import LinearSolution, solve_lp, solve_milp

__all__ = [
    "BUNDLED",
    "GroupRow",
    "LinearSolution",
    "TabularData",
    "classification_blobs",
    "conformal_quantile",
    "empirical_coverage",
    "group_mse_table",
    "group_shift",
    "group_table",
    "load_dataset",
    "region_threshold",
    "solve_lp",
    "solve_milp",
    "spurious_correlation",
    "split",
    "standardise",
    "waterbirds_like",
    "worst_group",
]
