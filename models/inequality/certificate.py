"""The certificate D (p - margin) = s_0 + sum prod(g) s_k + sum h_j lambda_j with exact rationals, and its text forms."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .polynomial import Polynomial, format_fraction, latex_fraction, sum_polys

__all__ = ["Certificate", "EqualityTerm", "ProductTerm", "WeightedSquare", "squares_from_ldl"]


@dataclass(frozen=True)
class WeightedSquare:
    """coeff * poly^2 with coeff > 0."""

    coeff: Fraction
    poly: Polynomial

    def expand(self) -> Polynomial:
        return (self.poly * self.poly).scale(self.coeff)


def _items(squares: Sequence[WeightedSquare]) -> list[dict[str, str]]:
    return [{"coeff": format_fraction(s.coeff), "poly": s.poly.format()} for s in squares]


@dataclass(frozen=True)
class ProductTerm:
    """prod(g_i for i in hypotheses) * sum of squares (Putinar: one g_i; Schmuedgen: products)."""

    hypotheses: tuple[int, ...]
    squares: tuple[WeightedSquare, ...]


@dataclass(frozen=True)
class EqualityTerm:
    """h_j * lambda_j with lambda_j an arbitrary polynomial (h_j = left - right of hypothesis j)."""

    hypothesis: int
    poly: Polynomial


@dataclass(frozen=True)
class Certificate:
    """multiplier * (p - margin) = sum squares + sum prod(g) * squares + sum h * lambda.

    `multiplier` None means 1; otherwise D = (1 + |x|^2)^k ("affine") or (|x|^2)^k ("homogeneous"),
    positive where it matters, so the identity gives p >= margin on the domain of the hypotheses.
    """

    squares: tuple[WeightedSquare, ...]
    multiplier: Polynomial | None = None
    multiplier_kind: str = ""  # "", "affine" ((1 + |x|^2)^k) or "homogeneous" ((|x|^2)^k)
    multiplier_power: int = 0
    margin: Fraction = Fraction(0)
    products: tuple[ProductTerm, ...] = ()
    equalities: tuple[EqualityTerm, ...] = ()

    def multiplier_polynomial(self, variables: Sequence[str]) -> Polynomial:
        return Polynomial.constant(variables, 1) if self.multiplier is None else self.multiplier

    @property
    def n_squares(self) -> int:
        return len(self.squares) + sum(len(t.squares) for t in self.products)

    def to_json(self) -> dict[str, Any]:
        """The CLI contract (see the README of the issue): every number and polynomial as parser text."""
        return {
            "multiplier": None if self.multiplier is None else self.multiplier.format(),
            "margin": format_fraction(self.margin),
            "squares": _items(self.squares),
            "products": [{"hypotheses": list(t.hypotheses), "squares": _items(t.squares)} for t in self.products],
            "equalities": [{"hypothesis": t.hypothesis, "poly": t.poly.format()} for t in self.equalities],
        }

    def latex(self, limit: int = 40) -> str:
        """The right-hand side as LaTeX (the first `limit` squares of each part, then an ellipsis)."""
        parts = [_latex_squares(self.squares, limit)] if self.squares else []
        for term in self.products:
            g = " ".join(f"g_{{{i + 1}}}" for i in term.hypotheses)
            parts.append(f"{g} \\left({_latex_squares(term.squares, limit)}\\right)")
        for eq in self.equalities:
            parts.append(f"h_{{{eq.hypothesis + 1}}} \\left({eq.poly.latex()}\\right)")
        return " + ".join(parts) or "0"


def _latex_squares(squares: Sequence[WeightedSquare], limit: int) -> str:
    parts = []
    for sq in squares[:limit]:
        coeff = "" if sq.coeff == 1 else latex_fraction(sq.coeff) + " "
        parts.append(f"{coeff}\\left({sq.poly.latex()}\\right)^{{2}}")
    if len(squares) > limit:
        parts.append(f"\\cdots\\ (+{len(squares) - limit}\\ \\text{{more}})")
    return " + ".join(parts) or "0"


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
