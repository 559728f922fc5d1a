"""Multipliers for nonnegative polynomials that are not sums of squares (Motzkin, Robinson, Choi-Lam).

Reznick's uniform denominators: for positive definite forms p, (sum x_i^2)^k p is SOS for large k;
for inhomogeneous p the analogue is (1 + sum x_i^2)^k. NSPI certifies D * p = sum c_i s_i^2 with D
itself a sum of squares that is positive away from a null set, which gives p >= 0 by continuity.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .certificate import WeightedSquare
from .polynomial import Polynomial, sum_polys

__all__ = ["Multiplier", "multiplier"]


@dataclass(frozen=True)
class Multiplier:
    """D = S^k with S = |x|^2 (homogeneous p) or 1 + |x|^2, both as a polynomial and as squares."""

    kind: Literal["homogeneous", "affine"]
    power: int
    polynomial: Polynomial
    squares: tuple[WeightedSquare, ...]


def multiplier(poly: Polynomial, power: int) -> Multiplier:
    """D = (|x|^2)^k for a homogeneous p of positive degree, else (1 + |x|^2)^k, written as squares:
    S^(2m) = (S^m)^2 and S^(2m+1) = sum_t (t S^m)^2 over t in {1 (affine only), x_1, ..., x_n}."""
    variables = poly.variables
    homogeneous = poly.is_homogeneous() and poly.degree() > 0
    terms = [Polynomial.variable(variables, v) for v in variables]
    if not homogeneous:
        terms = [Polynomial.constant(variables, 1), *terms]
    base = sum_polys((t * t for t in terms), variables)
    half = base ** (power // 2)
    squares: tuple[WeightedSquare, ...]
    if power % 2 == 0:
        squares = (WeightedSquare(Fraction(1), half),)
    else:
        squares = tuple(WeightedSquare(Fraction(1), t * half) for t in terms)
    return Multiplier("homogeneous" if homogeneous else "affine", power, base**power, squares)

