"""A fixed-size replay buffer filled by reservoir sampling (Vitter's algorithm R), with a seeded generator."""

from __future__ import annotations

import numpy as np

__all__ = ["ReplayBuffer"]


class ReplayBuffer:
    """Keeps at most `capacity` (x, y) pairs; after n offers each offered pair is held with probability capacity/n."""

    def __init__(self, capacity: int, features: int, rng: np.random.Generator) -> None:
        if capacity < 0:
            raise ValueError("capacity must be >= 0")
        self.capacity = capacity
        self.rng = rng
        self.x = np.zeros((capacity, features), dtype=np.float32)
        self.y = np.zeros(capacity, dtype=np.int64)
        self.seen = 0

    def __len__(self) -> int:
        return min(self.seen, self.capacity)

    def add(self, x: np.ndarray, y: np.ndarray) -> None:
        """Offer each row in order (reservoir sampling keeps a uniform sample of everything offered)."""
        for row, label in zip(x, y, strict=True):
            if self.seen < self.capacity:
                slot = self.seen
            else:
                slot = int(self.rng.integers(0, self.seen + 1))
            if slot < self.capacity:
                self.x[slot] = row
                self.y[slot] = label
            self.seen += 1

    def sample(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """`size` pairs drawn uniformly with replacement from the buffer (empty arrays when empty)."""
        n = len(self)
        if n == 0 or size <= 0:
            return self.x[:0], self.y[:0]
        idx = self.rng.integers(0, n, size=size)
        return self.x[idx], self.y[idx]

    def contents(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self)
        return self.x[:n], self.y[:n]
