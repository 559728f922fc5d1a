"""The seeds of a run: the `seeds` parameter every method takes, the seed list, and running each seed with its
share of the progress bar. Claims (`models.common.claims`) are measured on each of these seeds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import Field

from models.common.progress import MonotoneProgress, Progress

__all__ = ["run_seeds", "seed_values", "seeds_field"]

T = TypeVar("T")


def seeds_field(default: int = 1, maximum: int = 5) -> Any:
    """The `seeds` parameter every method takes: how many independent seeds each claim is measured on."""
    return Field(default=default, ge=1, le=maximum, title="Seeds",
                 description=f"Independent seeds (1 to {maximum}): every claim is measured on each; the claims "
                             "table gives mean ± sd over them, and a claim holds only if it holds on every seed.")


def seed_values(seed: int, seeds: int) -> list[int]:
    """The seeds of a run: the base seed and the `seeds - 1` after it."""
    return [seed + k for k in range(seeds)]


def run_seeds(seeds: Sequence[int], run_one: Callable[[int, Progress], T], progress: Progress,
              start: float = 0.0, end: float = 1.0) -> list[T]:
    """`run_one(seed, progress)` for every seed, progress split evenly over [start, end] and monotone."""
    shared = MonotoneProgress(progress)
    width = (end - start) / max(len(seeds), 1)
    out: list[T] = []
    for k, seed in enumerate(seeds):
        stage = shared.stage(start + k * width, start + (k + 1) * width)
        out.append(run_one(seed, stage))
    return out
