"""Shared small fixtures: a seeded synthetic split, a small forest, a small boosted ensemble, a Chow-Liu density."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from models.common.tabular import TabularData, classification_blobs, split
from models.pine_pruning.chow_liu import ChowLiuTree, fit_chow_liu
from models.pine_pruning.ensemble import Ensemble, fit_boosting, fit_forest


@dataclass(frozen=True)
class Small:
    train: TabularData
    calibration: TabularData
    test: TabularData
    forest: Ensemble
    boosted: Ensemble  # 6 stages x 3 classes = 18 regression trees
    density: ChowLiuTree


@pytest.fixture(scope="module")
def small() -> Small:
    rng = np.random.default_rng(11)
    data = classification_blobs(600, rng, dims=4, classes=3)
    train, calibration, test = split(data, [0.5, 0.2, 0.3], rng)
    return Small(train, calibration, test, fit_forest(train.X, train.y, trees=12, max_depth=2, seed=0),
                 fit_boosting(train.X, train.y, trees=6, max_depth=2, seed=0), fit_chow_liu(train.X, bins=4))
