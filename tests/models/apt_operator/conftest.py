"""Shared helpers of the APT-operator tests: a seeded channelised medium."""

from __future__ import annotations

import numpy as np
import pytest

from models.apt_operator.channels import ChannelField
from models.apt_operator.data import draw_field


@pytest.fixture
def medium() -> ChannelField:
    return draw_field(np.random.default_rng(123))
