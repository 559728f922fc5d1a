"""Shared helpers of the LMNet tests: the frozen nodes, loaded once."""

from __future__ import annotations

import pytest

from models.lmnet.nodes import load_nodes


@pytest.fixture(scope="session")
def nodes():
    return load_nodes("cpu")
