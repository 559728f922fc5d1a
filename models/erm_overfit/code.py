"""An explicit code of near-orthogonal unit vectors: all cyclic shifts of the Gold sequences of length 2^n - 1.

Feldman's construction needs exponentially many unit vectors with small pairwise inner products.
Small random codes are not orthogonal enough (K random sign vectors in dimension d have coherence
about sqrt(2 ln K^2 / d)), so we use a structured one: a Gold family. For odd n, an m-sequence a of
period N = 2^n - 1 and its decimation b(t) = a(3t) form a preferred pair; the family
{a, b, a + shift_j(b) : j < N} (mod 2) has N + 2 sequences whose cross-correlations take only the
values -1, -t, t - 2 with t = 2^((n+1)/2) + 1 (Gold 1967). With every cyclic shift of every sequence,
mapped to +-1/sqrt(N), we get (N + 2) N unit vectors with coherence max |<w, w'>| = t / N
(9/31 at n = 5, 17/127 at n = 7, 33/511 at n = 9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PRIMITIVE_TAPS", "Code", "gold_code", "m_sequence"]

# a(t + n) = xor of a(t + i) for i in taps: the primitive polynomials x^5+x^2+1, x^7+x+1, x^9+x^4+1
PRIMITIVE_TAPS = {5: (0, 2), 7: (0, 1), 9: (0, 4)}


def m_sequence(n: int) -> np.ndarray:
    """One period (2^n - 1 bits) of the maximal-length sequence of the primitive polynomial for n."""
    taps = PRIMITIVE_TAPS[n]
    length = 2**n - 1
    bits = np.zeros(length + n, dtype=np.int8)
    bits[0] = 1
    for t in range(length):
        bits[t + n] = np.bitwise_xor.reduce(bits[[t + i for i in taps]])
    return bits[:length]


@dataclass(frozen=True)
class Code:
    """Unit vectors (rows) of the code; `sequences` x `length` of them, row = sequence * length + shift."""

    vectors: np.ndarray
    sequences: int
    length: int
    coherence: float


def _coherence(signs: np.ndarray) -> float:
    """max |<w, w'>| over distinct code vectors, exactly, from the periodic cross-correlations (FFT)."""
    length = signs.shape[1]
    spectra = np.fft.rfft(signs, axis=1)
    worst = 0.0
    for i in range(signs.shape[0]):
        correlation = np.fft.irfft(np.conj(spectra[i])[None, :] * spectra, n=length, axis=1)
        correlation = np.rint(correlation)  # integer-valued: remove FFT round-off
        correlation[i, 0] = 0.0  # a vector with itself
        worst = max(worst, float(np.abs(correlation).max()))
    return worst / length


def gold_code(n: int, max_sequences: int | None = None) -> Code:
    """The Gold code for odd n in PRIMITIVE_TAPS (optionally only its first `max_sequences` sequences)."""
    if n not in PRIMITIVE_TAPS:
        raise ValueError(f"n = {n}: Gold codes are built here for n in {sorted(PRIMITIVE_TAPS)}")
    a = m_sequence(n)
    length = a.size
    b = a[(3 * np.arange(length)) % length]
    family = [a, b] + [a ^ np.roll(b, -j) for j in range(length)]
    if max_sequences is not None:
        family = family[:max_sequences]
    signs = 1.0 - 2.0 * np.stack(family).astype(float)  # bit 0 -> +1, bit 1 -> -1
    shifts = np.stack([np.roll(signs, -s, axis=1) for s in range(length)], axis=1)  # (sequences, shift, length)
    vectors = shifts.reshape(-1, length) / np.sqrt(length)
    return Code(vectors, len(family), length, _coherence(signs))
