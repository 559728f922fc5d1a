"""Batched vs naive inference on a store of random experts: exact load counts, identical answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from models.common.tiny import ModelStore
from models.skill_moe.inference import batched, naive
from models.skill_moe.pool import PoolNet, predict
from models.skill_moe.wordsuite import make_queries


@pytest.fixture
def store(tmp_path: Path) -> ModelStore:
    for i in range(6):
        torch.manual_seed(i)
        ModelStore.save(PoolNet(), tmp_path / f"e{i}.pt")
    return ModelStore(tmp_path, lambda _name: PoolNet())


def test_batched_loads_each_distinct_expert_once(store: ModelStore) -> None:
    names = [f"e{i}" for i in range(6)]
    texts = make_queries(40, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    chosen = [[int(e) for e in rng.choice([0, 2, 3, 5], 2, replace=False)] for _ in texts]
    fast = batched(store, names, texts, chosen)
    assert fast.loads == fast.distinct_experts == len({e for row in chosen for e in row}) == 4
    assert store.load_log == ["e0", "e2", "e3", "e5"]
    slow = naive(store, names, texts, chosen)
    assert slow.loads == len(texts) * 2
    assert np.array_equal(fast.answers, slow.answers)


def test_answers_are_each_experts_own(store: ModelStore) -> None:
    names = [f"e{i}" for i in range(6)]
    texts = make_queries(10, np.random.default_rng(2))
    chosen = [[4, 1] for _ in texts]
    run = batched(store, names, texts, chosen)
    torch.manual_seed(4)
    expected = predict(PoolNet().eval(), texts)
    assert np.array_equal(run.answers[:, 0], expected)
