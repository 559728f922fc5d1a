"""The model store: loads come from disk, are counted exactly, respect the capacity and give the saved weights."""

from __future__ import annotations

from pathlib import Path

import torch

from models.common.tiny import ModelStore


def _store(tmp_path: Path, capacity: int = 1) -> ModelStore:
    for i in range(3):
        torch.manual_seed(i)
        ModelStore.save(torch.nn.Linear(2, 2), tmp_path / f"m{i}.pt")
    return ModelStore(tmp_path, lambda name: torch.nn.Linear(2, 2), capacity=capacity)


def test_loads_are_counted_and_weights_restored(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert store.names() == ["m0", "m1", "m2"]
    torch.manual_seed(1)
    reference = torch.nn.Linear(2, 2)
    assert torch.equal(store.get("m1").weight, reference.weight)
    assert store.loads == 1
    store.get("m1")
    assert store.loads == 1  # resident: no new load
    store.get("m0")
    store.get("m1")  # evicted by m0 at capacity 1: loaded again
    assert store.loads == 3 and store.load_log == ["m1", "m0", "m1"]
    assert store.resident() == ["m1"]


def test_capacity_two_keeps_the_recent_ones(tmp_path: Path) -> None:
    store = _store(tmp_path, capacity=2)
    for name in ["m0", "m1", "m0", "m2", "m0"]:
        store.get(name)
    assert store.load_log == ["m0", "m1", "m2"]  # m1 was least recently used when m2 came
    assert sorted(store.resident()) == ["m0", "m2"]


def test_unload_forces_a_new_load(tmp_path: Path) -> None:
    store = _store(tmp_path, capacity=3)
    store.get("m2")
    store.unload("m2")
    store.get("m2")
    assert store.loads == 2
