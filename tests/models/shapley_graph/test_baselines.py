"""shapiq baselines: each estimator is timed on its own and stays within the budget."""

from __future__ import annotations

import time

import numpy as np

from models.shapley_graph.baselines import shapiq_estimates
from models.shapley_graph.oracles import CoalitionGame


def test_each_estimator_gets_its_own_time() -> None:
    """A game that costs 50 ms per coalition: each estimator's seconds follow its own query count."""
    weights = np.linspace(-1, 1, 8)

    def slow(masks: np.ndarray) -> np.ndarray:
        time.sleep(0.05 * masks.shape[0])
        return masks.astype(float) @ weights

    rows = shapiq_estimates(CoalitionGame(8, slow), 20, seed=0)
    assert [r.name for r in rows] == ["KernelSHAP", "PermutationSamplingSV", "KernelSHAPIQ"]
    for row in rows:
        assert 10 <= row.queries <= 20
        # its own sleeping plus shapiq's overhead, not the others' time (at least 0.5 s more)
        assert 0.05 * row.queries <= row.seconds < 0.05 * row.queries + 0.45, row.name
