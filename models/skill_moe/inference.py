"""Answer (query, expert) pairs two ways: grouped by expert (each loaded once) or query by query.

Both use the same on-disk model store with one resident model, so the load counts are real reads of
weight files and the answers are identical; only the order of the work differs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models.common.contract import Progress, no_progress
from models.common.tiny import ModelStore

from .pool import predict
from .wordsuite import Query

__all__ = ["InferenceRun", "batched", "naive"]


@dataclass
class InferenceRun:
    """answers[q][j] is the answer of the j-th expert chosen for query q."""

    answers: np.ndarray
    loads: int
    wall_time_s: float
    distinct_experts: int


def batched(store: ModelStore, names: Sequence[str], texts: Sequence[Query], chosen: Sequence[Sequence[int]],
            progress: Progress = no_progress) -> InferenceRun:
    """Group the queries by chosen expert; load each expert once and answer its group in one batch."""
    start = time.perf_counter()
    loads_before = store.loads
    k = len(chosen[0]) if chosen else 0
    answers = np.zeros((len(texts), k), dtype=np.int64)
    groups: dict[int, list[tuple[int, int]]] = {}
    for q, experts in enumerate(chosen):
        for j, e in enumerate(experts):
            groups.setdefault(e, []).append((q, j))
    for done, e in enumerate(sorted(groups)):
        progress(done / len(groups), f"expert {names[e]}: {len(groups[e])} answers")
        model = store.get(names[e])
        slots = groups[e]
        predicted = predict(model, [texts[q] for q, _ in slots])
        for (q, j), answer in zip(slots, predicted, strict=True):
            answers[q, j] = answer
        store.unload(names[e])
    return InferenceRun(answers, store.loads - loads_before, time.perf_counter() - start, len(groups))


def naive(store: ModelStore, names: Sequence[str], texts: Sequence[Query], chosen: Sequence[Sequence[int]],
          progress: Progress = no_progress) -> InferenceRun:
    """For each query, load each of its experts, answer the one query, offload it."""
    start = time.perf_counter()
    loads_before = store.loads
    k = len(chosen[0]) if chosen else 0
    answers = np.zeros((len(texts), k), dtype=np.int64)
    for q, experts in enumerate(chosen):
        if q % 50 == 0:
            progress(q / len(chosen), f"query {q + 1}/{len(chosen)}")
        for j, e in enumerate(experts):
            model = store.get(names[e])
            answers[q, j] = int(predict(model, [texts[q]])[0])
            store.unload(names[e])
    distinct = len({e for experts in chosen for e in experts})
    return InferenceRun(answers, store.loads - loads_before, time.perf_counter() - start, distinct)
