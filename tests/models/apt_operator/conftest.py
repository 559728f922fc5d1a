"""Shared helpers of the APT-operator tests: a seeded medium and a tiny run."""

from __future__ import annotations

import numpy as np
import pytest

from models.apt_operator.data import SampleField, draw_field


@pytest.fixture
def medium() -> SampleField:
    return draw_field(np.random.default_rng(123))
