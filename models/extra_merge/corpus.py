"""A generated corpus with real structure: a sparse hidden Markov model over tokens, made in code.

Hidden states move along a sparse random graph (each state has a few successors) and each state emits
from a few tokens shared with other states, so the next token depends on the whole history through the
hidden state: a language model must infer the state from the context. The loss floor is exact: the
Bayes-optimal predictor's cross-entropy, by the forward algorithm on the test split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Corpus", "HiddenMarkovModel", "make_corpus"]


@dataclass(frozen=True)
class HiddenMarkovModel:
    """transition[h, h'] = P(h' | h), emission[h, v] = P(v | h); the first state is uniform."""

    transition: np.ndarray
    emission: np.ndarray

    @classmethod
    def random(cls, rng: np.random.Generator, states: int, vocab: int, successors: int = 4,
               emissions: int = 4, alpha: float = 0.7) -> HiddenMarkovModel:
        transition = np.zeros((states, states))
        emission = np.zeros((states, vocab))
        for h in range(states):
            transition[h, rng.choice(states, successors, replace=False)] = rng.dirichlet(np.full(successors, alpha))
            emission[h, rng.choice(vocab, emissions, replace=False)] = rng.dirichlet(np.full(emissions, alpha))
        return cls(transition, emission)

    @property
    def vocab(self) -> int:
        return int(self.emission.shape[1])

    def sample(self, rng: np.random.Generator, sequences: int, length: int) -> np.ndarray:
        """`sequences` independent token sequences of `length` (vectorised over sequences)."""
        states = self.transition.shape[0]
        hidden = rng.integers(0, states, size=sequences)
        cum_t, cum_e = np.cumsum(self.transition, axis=1), np.cumsum(self.emission, axis=1)
        tokens = np.empty((sequences, length), dtype=np.int64)
        for t in range(length):
            tokens[:, t] = np.minimum((rng.random(sequences)[:, None] > cum_e[hidden]).sum(axis=1), self.vocab - 1)
            hidden = np.minimum((rng.random(sequences)[:, None] > cum_t[hidden]).sum(axis=1), states - 1)
        return tokens

    def bayes_loss(self, tokens: np.ndarray) -> float:
        """Mean of -log P(x_t | x_0..x_{t-1}) over t >= 1: the loss of the exact predictor (forward algorithm)."""
        sequences, length = tokens.shape
        belief = np.full((sequences, self.transition.shape[0]), 1.0 / self.transition.shape[0])
        total = 0.0
        for t in range(length):
            if t > 0:
                predictive = belief @ self.emission
                total += float(-np.log(predictive[np.arange(sequences), tokens[:, t]]).sum())
            belief = belief * self.emission[:, tokens[:, t]].T
            belief = (belief / belief.sum(axis=1, keepdims=True)) @ self.transition
        return total / (sequences * (length - 1))


@dataclass(frozen=True)
class Corpus:
    """Token sequences of the train, validation and test splits (separate draws) and the loss floor."""

    train: np.ndarray
    val: np.ndarray
    test: np.ndarray
    floor: float
    unigram: float
    vocab: int


def make_corpus(rng: np.random.Generator, *, states: int = 32, vocab: int = 32, length: int = 17,
                train_sequences: int = 6000, eval_sequences: int = 256) -> Corpus:
    """An HMM and three splits drawn from it: train for SGD, validation to choose, test to report."""
    hmm = HiddenMarkovModel.random(rng, states, vocab)
    train = hmm.sample(rng, train_sequences, length)
    val = hmm.sample(rng, eval_sequences, length)
    test = hmm.sample(rng, eval_sequences, length)
    counts = np.bincount(train[:, 1:].ravel(), minlength=vocab) + 1.0
    probs = counts / counts.sum()
    unigram = float(-np.log(probs[test[:, 1:].ravel()]).mean())
    return Corpus(train, val, test, floor=hmm.bayes_loss(test), unigram=unigram, vocab=vocab)
