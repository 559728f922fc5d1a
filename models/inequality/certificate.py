"""The certificate D * p = sum_i c_i s_i^2 with exact rational c_i >= 0, and its text forms."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .polynomial import Polynomial, format_fraction, latex_fraction, sum_polys

__all__ = ["Certificate", "WeightedSquare", "squares_from_ldl"]


@dataclass(frozen=True)
class WeightedSquare:
    """coeff * poly^2 with coeff > 0."""

    coeff: Fraction
    poly: Polynomial

    def expand(self) -> Polynomial:
        return (self.poly * self.poly).scale(self.coeff)


@dataclass(frozen=True)
class Certificate:
    """(sum of multiplier squares, or 1) * p = sum of squares; `multiplier_power` k records D's origin."""

    squares: tuple[WeightedSquare, ...]
    multiplier: tuple[WeightedSquare, ...] | None = None
    multiplier_kind: str = ""  # "", "affine" ((1 + |x|^2)^k) or "homogeneous" ((|x|^2)^k)
    multiplier_power: int = 0

    def multiplier_polynomial(self, variables: Sequence[str]) -> Polynomial:
        if self.multiplier is None:
            return Polynomial.constant(variables, 1)
        return sum_polys((s.expand() for s in self.multiplier), variables)

    def to_json(self) -> dict[str, Any]:
        """The CLI contract: {"multiplier": null | [{"coeff", "poly"}], "squares": [{"coeff", "poly"}]}."""

        def items(squares: Sequence[WeightedSquare]) -> list[dict[str, str]]:
            return [{"coeff": format_fraction(s.coeff), "poly": s.poly.format()} for s in squares]

        return {
            "multiplier": None if self.multiplier is None else items(self.multiplier),
            "squares": items(self.squares),
        }

    def latex(self, limit: int = 40) -> str:
        """sum_i c_i (s_i)^2 as LaTeX (the first `limit` squares, then an ellipsis)."""
        if not self.squares:
            return "0"
        parts = []
        for sq in self.squares[:limit]:
            coeff = "" if sq.coeff == 1 else latex_fraction(sq.coeff) + " "
            parts.append(f"{coeff}\\left({sq.poly.latex()}\\right)^{{2}}")
        if len(self.squares) > limit:
            parts.append(f"\\cdots\\ (+{len(self.squares) - limit}\\ \\text{{more}})")
        return " + ".join(parts)


def _integral(coeff: Fraction, poly: Polynomial) -> WeightedSquare:
    """Rescale so that the polynomial has coprime integer coefficients: c q^2 = (c / s^2) (s q)^2."""
    denominators = [c.denominator for c in poly.terms.values()]
    lcm = math.lcm(*denominators) if denominators else 1
    numerators = [int(c * lcm) for c in poly.terms.values()]
    gcd = math.gcd(*numerators) if numerators else 1
    factor = Fraction(lcm, gcd or 1)
    if poly.terms and poly.sorted_terms()[0][1] < 0:  # (-q)^2 = q^2: print the leading term positive
        factor = -factor
    return WeightedSquare(coeff / (factor * factor), poly.scale(factor))


def squares_from_ldl(
    factors: Sequence[tuple[Fraction, Sequence[Fraction]]], basis: Sequence[Polynomial]
) -> list[WeightedSquare]:
    """z^T L D L^T z = sum_k d_k (l_k . z)^2 over the block basis z."""
    out: list[WeightedSquare] = []
    if not basis:
        return out
    variables = basis[0].variables
    for d, column in factors:
        poly = sum_polys((q.scale(c) for q, c in zip(basis, column, strict=True) if c != 0), variables)
        if d > 0 and not poly.is_zero():
            out.append(_integral(d, poly))
    return out
