"""The torch device a method should use (CUDA when available, else CPU) and seeded initialisation."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["seeded_init", "torch_device"]

Built = TypeVar("Built")


def torch_device() -> str:
    """Return "cuda" when torch sees a GPU, else "cpu" (and "cpu" when torch is missing)."""
    try:
        import torch
    except ImportError:
        return "cpu"
    return "cuda" if torch.cuda.is_available() else "cpu"


def seeded_init(seed: int, build: Callable[[], Built]) -> Built:
    """`build()` with torch's RNG seeded by `seed` only; the caller's global RNG is left as it was."""
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return build()
