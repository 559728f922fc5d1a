"""seeded_init: weights that depend on the seed alone, and a global RNG left untouched."""

from __future__ import annotations

import torch

from models.common.device import seeded_init, torch_device


def test_the_same_seed_builds_the_same_weights_and_another_seed_does_not() -> None:
    first, again, other = (seeded_init(s, lambda: torch.nn.Linear(4, 3)) for s in (5, 5, 6))
    assert torch.equal(first.weight, again.weight)
    assert not torch.equal(first.weight, other.weight)


def test_the_callers_global_rng_is_left_as_it_was() -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    seeded_init(9, lambda: torch.nn.Linear(16, 16))
    assert torch.equal(torch.rand(3), expected)


def test_torch_device_names_a_device_torch_accepts() -> None:
    assert torch.zeros(1, device=torch_device()).device.type == torch_device()
