"""Stochastic b-bit quantisers: multiplicative (float-like, relative error) and additive (int-like, absolute).

Both round stochastically to a grid, so they are unbiased: E Q(x) = x (the additive one up to
clipping at its range). They differ in how the grid spacing depends on the value:

* multiplicative (b mantissa bits): |x| in [2^e, 2^(e+1)) is rounded on spacing 2^(e-b), so the error
  variance is proportional to x^2 (at most x^2 4^-b);
* additive (b-bit integers on [-R, R]): 2^b levels, spacing 2R / (2^b - 1) for every value, so the
  error variance (at most spacing^2 / 4) does not depend on x.
"""

from __future__ import annotations

from math import erf, sqrt
from typing import Literal

import numpy as np

__all__ = ["Scheme", "additive", "paper_noise", "expected_noise_variance", "matched_additive_bits", "multiplicative", "quantise",
           "stochastic_round"]

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


def quantise(x: np.ndarray, scheme: Scheme, bits: int, value_range: float, rng: np.random.Generator,
             noise_level: float = 0.0, additive_variance: float = 0.0) -> np.ndarray:
    """Q(x): b-bit stochastic rounding, or (noise_level > 0) the paper's noise model (see `paper_noise`)."""
    if scheme == "full":
        return x
    if noise_level > 0:
        return paper_noise(x, scheme, noise_level, additive_variance, rng)
    if scheme == "multiplicative":
        return multiplicative(x, bits, rng)
    return additive(x, bits, value_range, rng)


def paper_noise(x: np.ndarray, scheme: Scheme, level: float, additive_variance: float,
                rng: np.random.Generator) -> np.ndarray:
    """The paper's two quantisation models as unbiased noise: multiplicative x + sqrt(level) |x| xi (second
    moment level x^2), additive x + sqrt(additive_variance) xi (second moment constant); xi = +-1 uniform, so
    both second moments hold exactly, not only as bounds."""
    signs = rng.choice(np.array([-1.0, 1.0]), size=x.shape)
    if scheme == "multiplicative":
        return x + np.sqrt(level) * np.abs(x) * signs
    return x + np.sqrt(additive_variance) * signs


def _gaussian_below(t: float, variance: float) -> float:
    """P(|x| < t) for x ~ N(0, variance)."""
    return erf(t / sqrt(2.0 * variance))


def expected_noise_variance(scheme: Scheme, bits: int, variance: float, value_range: float) -> float:
    """E (Q(x) - x)^2 for x ~ N(0, variance), in closed form.

    Stochastic rounding on spacing s leaves the error variance s^2 f (1 - f) at remainder f.
    Additive (exact up to clipping): the levels sit at -R + k s, and with the Fourier series
    f (1 - f) = 1/6 - sum_k cos(2 pi k f) / (pi k)^2 and E cos(2 pi k (x + R) / s) = cos(2 pi k R / s)
    exp(-2 (pi k sigma / s)^2), E = s^2 [1/6 - sum_k cos(2 pi k R / s) exp(-2 (pi k sigma / s)^2) / (pi k)^2]
    (s^2 / 6 for sigma >> s, s^2 / 4 for sigma << s: zero is mid-cell), plus the clipping error
    E[(|x| - R)^2; |x| > R]. Multiplicative (flat-density approximation: f uniform in each cell, within a
    few per cent at 1 bit): s = 2^(e - b) on the binade [2^e, 2^(e+1)), so the variance is
    (1/6) sum_e 4^(e - b) P(2^e <= |x| < 2^(e+1)).
    """
    if scheme == "full":
        return 0.0
    if scheme == "additive":
        sd, r = sqrt(variance), value_range
        tail = 1.0 - _gaussian_below(r, variance)  # P(|x| > R)
        density = np.exp(-0.5 * (r / sd) ** 2) / sqrt(2.0 * np.pi)
        clipping = (variance + r * r) * tail - 2.0 * r * sd * density
        spacing = 2.0 * value_range / (2**bits - 1)
        k = np.arange(1, 200)
        series = np.cos(2 * np.pi * k * r / spacing) * np.exp(-2 * (np.pi * k * sd / spacing) ** 2) / (np.pi * k) ** 2
        return float(spacing**2 * (1.0 / 6.0 - series.sum()) + clipping)
    centre = int(np.floor(0.5 * np.log2(variance)))
    total = 0.0
    for e in range(centre - 60, centre + 8):  # binades far below or above carry no mass
        mass = _gaussian_below(2.0 ** (e + 1), variance) - _gaussian_below(2.0**e, variance)
        total += 4.0 ** (e - bits) * mass
    return total / 6.0


def matched_additive_bits(multiplicative_bits: int, spectrum: np.ndarray, value_range: float,
                          choices: range = range(1, 17)) -> int:
    """The additive bit width whose closed-form mean noise variance per feature is closest (in log) to the
    multiplicative quantiser's at `multiplicative_bits` on features x_i ~ N(0, spectrum_i)."""
    def mean(scheme: Scheme, bits: int) -> float:
        return float(np.mean([expected_noise_variance(scheme, bits, float(v), value_range) for v in spectrum]))

    target = mean("multiplicative", multiplicative_bits)
    return min(choices, key=lambda b: abs(np.log(mean("additive", b) / target)))
