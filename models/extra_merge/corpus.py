"""A synthetic next-token corpus: an order-3 Markov chain over a small vocabulary, made in code."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CONTEXT", "VOCAB", "Corpus", "MarkovChain", "make_corpus"]

VOCAB = 8
CONTEXT = 3


@dataclass(frozen=True)
class MarkovChain:
    """P(next | previous three tokens): one Dirichlet(alpha) row per context, shape (V^3, V)."""

    table: np.ndarray

    @classmethod
    def random(cls, rng: np.random.Generator, alpha: float = 0.2) -> MarkovChain:
        return cls(rng.dirichlet(np.full(VOCAB, alpha), size=VOCAB**CONTEXT))

    def entropy_rate(self) -> float:
        """Average conditional entropy (nats) over contexts weighted uniformly: a floor for the loss."""
        p = np.clip(self.table, 1e-300, 1.0)
        return float(-(self.table * np.log(p)).sum(axis=1).mean())

    def sample(self, rng: np.random.Generator, chains: int, length: int) -> np.ndarray:
        """`chains` independent sequences of `length` tokens (vectorised over chains)."""
        tokens = np.empty((chains, length), dtype=np.int64)
        tokens[:, :CONTEXT] = rng.integers(0, VOCAB, size=(chains, CONTEXT))
        cdf = np.cumsum(self.table, axis=1)
        uniforms = rng.random((chains, length))
        for t in range(CONTEXT, length):
            context = (tokens[:, t - 3] * VOCAB + tokens[:, t - 2]) * VOCAB + tokens[:, t - 1]
            nxt = (uniforms[:, t, None] > cdf[context]).sum(axis=1)
            tokens[:, t] = np.minimum(nxt, VOCAB - 1)
        return tokens


@dataclass(frozen=True)
class Corpus:
    """(context, next token) pairs of the train, validation and test splits (separate sequences)."""

    train_x: np.ndarray
    train_y: np.ndarray
    val_x: np.ndarray
    val_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray
    entropy_rate: float


def _pairs(tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    windows = np.lib.stride_tricks.sliding_window_view(tokens, CONTEXT + 1, axis=1).reshape(-1, CONTEXT + 1)
    return windows[:, :CONTEXT].copy(), windows[:, CONTEXT].copy()


def make_corpus(rng: np.random.Generator, train_tokens: int = 120_000, eval_tokens: int = 16_000) -> Corpus:
    """A chain and three splits drawn from it: train for SGD, validation to pick beta, test to report."""
    chain = MarkovChain.random(rng)
    length = 1000
    train = chain.sample(rng, max(train_tokens // length, 1), length)
    val = chain.sample(rng, max(eval_tokens // length, 1), length)
    test = chain.sample(rng, max(eval_tokens // length, 1), length)
    return Corpus(*_pairs(train), *_pairs(val), *_pairs(test), entropy_rate=chain.entropy_rate())
