"""Small torch helpers shared by the continual methods: seeded initialisation, minibatches, accuracy."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import torch

__all__ = ["accuracy", "init_linear_", "minibatches", "one_thread", "to_tensors"]


@contextmanager
def one_thread() -> Iterator[None]:
    """Run torch on one intra-op thread, then restore the caller's count.

    CPU matrix products split their reductions by thread, so the same seed gives results that differ
    in the last bits (and, after a few hundred SGD steps, in the first decimal of an accuracy) at
    another thread count. Pinning one thread makes a run's numbers independent of the host's setting.
    """
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def init_linear_(layer: torch.nn.Linear, generator: torch.Generator) -> torch.nn.Linear:
    """Re-draw a linear layer like torch's default (U(-1/sqrt(fan_in), 1/sqrt(fan_in))) from `generator`."""
    bound = 1.0 / float(np.sqrt(layer.in_features))
    with torch.no_grad():
        weight = torch.rand(layer.weight.shape, generator=generator) * 2 * bound - bound
        layer.weight.copy_(weight.to(layer.weight.device))
        if layer.bias is not None:
            bias = torch.rand(layer.bias.shape, generator=generator) * 2 * bound - bound
            layer.bias.copy_(bias.to(layer.bias.device))
    return layer


def to_tensors(x: np.ndarray, y: np.ndarray, device: str) -> tuple[torch.Tensor, torch.Tensor]:
    return (
        torch.as_tensor(np.asarray(x, dtype=np.float32), device=device),
        torch.as_tensor(np.asarray(y, dtype=np.int64), device=device),
    )


def minibatches(n: int, batch_size: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Index batches of one shuffled pass over n examples (the last one may be smaller)."""
    order = rng.permutation(n)
    for start in range(0, n, batch_size):
        yield order[start : start + batch_size]


@torch.no_grad()
def accuracy(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """Fraction of rows whose arg-max logit is the label (0 for no rows)."""
    if labels.numel() == 0:
        return 0.0
    return float((logits.argmax(dim=1) == labels).float().mean())
