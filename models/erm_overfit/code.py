"""A binary linear code in linear dimension, as unit vectors: d = 6m coordinates, 2^k codewords with k = m + 3.

A random linear code of rate k/d about 1/6 is asymptotically good (Gilbert-Varshamov: relative distance
bounded away from 0 as d grows), which is what a Feldman-type construction in dimension linear in m needs:
exponentially many (2^k >= 8 * 2^m) unit vectors w = (+-1)/sqrt(d) whose pairwise inner products stay below
a constant. For a linear code <w, w'> = 1 - 2 wt(c xor c') / d, so the largest inner product between distinct
codewords (the coherence) is 1 - 2 (minimum distance) / d: exact, from the 2^k weights alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Code", "random_linear_code"]

_CANDIDATES = 8  # generator matrices tried; the one with the smallest coherence is kept (a fixed instance)


@dataclass(frozen=True)
class Code:
    """Codewords (rows) as unit vectors; message bits `messages` (rows) map to them."""

    vectors: np.ndarray  # (2^k, d), entries +-1/sqrt(d)
    generator: np.ndarray  # (k, d) bits
    coherence: float  # max <w, w'> over distinct codewords

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1])


def _codewords(generator: np.ndarray) -> np.ndarray:
    k = generator.shape[0]
    messages = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1
    return (messages @ generator) % 2


def _coherence(bits: np.ndarray) -> float:
    weights = bits[1:].sum(axis=1)  # nonzero codewords; <w, w'> = 1 - 2 wt(w xor w') / d
    if (weights == 0).any():
        return 1.0  # the generator is not full rank: two messages share a codeword
    return float(1.0 - 2.0 * weights.min() / bits.shape[1])


def random_linear_code(length: int, bits: int, instance_seed: int = 0) -> Code:
    """The best of a few random generator matrices (fixed by `instance_seed`): the problem instance,
    not part of the random sample."""
    rng = np.random.default_rng([instance_seed, length, bits])
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for _ in range(_CANDIDATES):
        generator = rng.integers(0, 2, size=(bits, length))
        words = _codewords(generator)
        mu = _coherence(words)
        if best is None or mu < best[0]:
            best = (mu, generator, words)
    assert best is not None
    mu, generator, words = best
    return Code(vectors=(1.0 - 2.0 * words) / np.sqrt(length), generator=generator, coherence=mu)
