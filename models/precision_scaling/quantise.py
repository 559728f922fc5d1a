"""Stochastic b-bit quantisers: multiplicative (float-like, relative error) and additive (int-like, absolute).

Both round stochastically to a grid, so they are unbiased: E Q(x) = x (the additive one up to
clipping at its range). They differ in how the grid spacing depends on the value:

* multiplicative (b mantissa bits): |x| in [2^e, 2^(e+1)) is rounded on spacing 2^(e-b), so the error
  variance is proportional to x^2 (at most x^2 4^-b);
* additive (b-bit integers on [-R, R]): 2^b levels, spacing 2R / (2^b - 1) for every value, so the
  error variance (at most spacing^2 / 4) does not depend on x.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

__all__ = ["Scheme", "additive", "multiplicative", "quantise", "stochastic_round"]

Scheme = Literal["full", "multiplicative", "additive"]


def stochastic_round(x: np.ndarray, spacing: np.ndarray | float, rng: np.random.Generator) -> np.ndarray:
    """Round x to a multiple of `spacing`, up with probability equal to the remainder (unbiased)."""
    scaled = x / spacing
    low = np.floor(scaled)
    up = rng.random(x.shape) < (scaled - low)
    return (low + up) * spacing


def multiplicative(x: np.ndarray, bits: int, rng: np.random.Generator) -> np.ndarray:
    """Float-like: b mantissa bits, spacing 2^(floor(log2 |x|) - b); zero stays zero."""
    magnitude = np.abs(x)
    exponent = np.floor(np.log2(np.where(magnitude > 0, magnitude, 1.0)))
    spacing = np.exp2(exponent - bits)
    return np.where(magnitude > 0, stochastic_round(x, spacing, rng), 0.0)


def additive(x: np.ndarray, bits: int, value_range: float, rng: np.random.Generator) -> np.ndarray:
    """Int-like: 2^b levels on [-R, R] (spacing 2R / (2^b - 1)); values beyond R are clipped."""
    spacing = 2.0 * value_range / (2**bits - 1)
    clipped = np.clip(x, -value_range, value_range)
    # levels sit at -R + k * spacing
    return stochastic_round(clipped + value_range, spacing, rng) - value_range


def quantise(x: np.ndarray, scheme: Scheme, bits: int, value_range: float, rng: np.random.Generator) -> np.ndarray:
    if scheme == "full":
        return x
    if scheme == "multiplicative":
        return multiplicative(x, bits, rng)
    return additive(x, bits, value_range, rng)
