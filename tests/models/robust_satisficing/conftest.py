"""Shared helpers of the robust-satisficing tests: a small problem on the spurious data."""

from __future__ import annotations

import numpy as np
import pytest

from models.robust_satisficing.data import build
from models.robust_satisficing.training import Problem


def make_problem(dataset: str = "spurious", *, epochs: int = 60, seed: int = 0, train_size: int = 400) -> Problem:
    data = build(dataset, np.random.default_rng(seed), train_size=train_size)
    assert data.train.groups is not None
    return Problem.make(data.train.X, data.train.y, data.train.groups, regression=data.regression, hidden=0,
                        learning_rate=0.05, epochs=epochs, seed=seed, device="cpu")


@pytest.fixture
def small_problem() -> Problem:
    return make_problem()
