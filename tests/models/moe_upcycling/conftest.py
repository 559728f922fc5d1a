"""Small settings shared by the selective-upcycling tests."""

from __future__ import annotations

import pytest

from models.moe_upcycling.params import Params


@pytest.fixture
def tiny() -> Params:
    """Two tasks, one epoch, narrow blocks: a whole run in about a second."""
    return Params(seeds=1, tasks=2, epochs_per_task=2, layers=2, width=16, experts=3, buffer_size=50)
