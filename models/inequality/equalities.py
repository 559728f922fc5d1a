"""Linear equality hypotheses, eliminated by substitution before any SDP, and lifted back exactly.

A linear hypothesis h = a_k x_k + r = 0 lets x_k = phi = -r / a_k be substituted into the claim and
every other hypothesis, so the SDP runs in fewer variables. A certificate found for the substituted
problem is an identity in the remaining variables; read as polynomials in all variables, the
difference R between the two sides vanishes wherever h = 0, so R = h * q exactly, with q from one
synthetic division by (x_k - phi) per eliminated variable. That q is the equality multiplier
lambda of the published certificate, which then holds in the original variables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from models.common.contract import MethodInputError

from .budget import check_time
from .polynomial import Polynomial, sum_polys

__all__ = ["MAX_SUBSTITUTED_TERMS", "Elimination", "eliminate_linear", "lift_residual", "substitute"]

MAX_SUBSTITUTED_TERMS = 20_000


@dataclass(frozen=True)
class Substitution:
    """x_k = phi, from h' = a_k (x_k - phi) where h' = sum_j combo[j] h_j (original equalities h_j)."""

    index: int
    phi: Polynomial
    scale: Fraction  # a_k
    combo: dict[int, Fraction]


@dataclass
class Elimination:
    """The substitutions in order, plus an inconsistency (a nonzero constant combination) if found."""

    substitutions: list[Substitution] = field(default_factory=list)
    inconsistent: tuple[Fraction, dict[int, Fraction]] | None = None  # (c, combo) with sum combo_j h_j = c != 0
    eliminated: list[int] = field(default_factory=list)  # hypothesis indices used up

    def apply(self, poly: Polynomial) -> Polynomial:
        """poly after every substitution; bounded first: the result has at most the monomials of its degree
        in the remaining variables, and substituting into a dense high-degree polynomial can explode."""
        if self.substitutions and not poly.is_zero():
            remaining = len(poly.variables) - len(self.substitutions)
            bound = math.comb(remaining + poly.degree(), poly.degree())
            if bound > MAX_SUBSTITUTED_TERMS:
                raise MethodInputError(
                    f"hypotheses: substituting the linear equalities may expand a polynomial to {bound} terms, above "
                    f"the maximum of {MAX_SUBSTITUTED_TERMS}; use fewer variables or a lower degree"
                )
        for sub in self.substitutions:
            poly = substitute(poly, sub.index, sub.phi)
        return poly

    @property
    def variables_removed(self) -> set[int]:
        return {s.index for s in self.substitutions}


def substitute(poly: Polynomial, index: int, phi: Polynomial) -> Polynomial:
    """poly with x_index replaced by phi (exact)."""
    if not any(m[index] for m in poly.terms):
        return poly
    powers = [Polynomial.constant(poly.variables, 1)]
    pieces = []
    for mono, coeff in poly.terms.items():
        check_time()
        e = mono[index]
        while len(powers) <= e:
            powers.append(powers[-1] * phi)
        rest = tuple(0 if i == index else v for i, v in enumerate(mono))
        pieces.append(powers[e] * Polynomial.monomial(poly.variables, rest, coeff))
    return sum_polys(pieces, poly.variables)


def eliminate_linear(equalities: Sequence[tuple[int, Polynomial]]) -> Elimination:
    """Substitute every linear equality (the last variable with a nonzero coefficient goes)."""
    out = Elimination()
    for j, h in equalities:
        if h.degree() != 1:
            continue
        reduced = out.apply(h)
        combo = {j: Fraction(1)}
        for sub in out.substitutions:  # h' = h - sum (c_k / a_k) h'_k, tracked as a combination
            coefficient = _linear_coefficient(h, sub.index, out, sub)
            if coefficient:
                for key, value in sub.combo.items():
                    combo[key] = combo.get(key, Fraction(0)) - coefficient / sub.scale * value
        out.eliminated.append(j)
        constant = reduced.constant_value()
        if constant is not None:
            if constant != 0 and out.inconsistent is None:
                out.inconsistent = (constant, combo)
            continue
        index = max(i for i in range(len(h.variables)) if any(m[i] for m in reduced.terms))
        unit = tuple(1 if i == index else 0 for i in range(len(h.variables)))
        scale = reduced.terms[unit]
        rest = reduced - Polynomial.monomial(h.variables, unit, scale)
        out.substitutions.append(Substitution(index, rest.scale(-1 / scale), scale, combo))
    return out


def _linear_coefficient(h: Polynomial, index: int, elimination: Elimination, upto: Substitution) -> Fraction:
    """The coefficient of x_index in h after the substitutions before `upto` (h is linear)."""
    partial = h
    for sub in elimination.substitutions:
        if sub is upto:
            break
        partial = substitute(partial, sub.index, sub.phi)
    unit = tuple(1 if i == index else 0 for i in range(len(h.variables)))
    return partial.terms.get(unit, Fraction(0))


def _divide(poly: Polynomial, index: int, phi: Polynomial) -> tuple[Polynomial, Polynomial]:
    """(q, r) with poly = (x_index - phi) q + r and r free of x_index (synthetic division)."""
    variables = poly.variables
    by_power: dict[int, list[Polynomial]] = {}
    for mono, coeff in poly.terms.items():
        rest = tuple(0 if i == index else v for i, v in enumerate(mono))
        by_power.setdefault(mono[index], []).append(Polynomial.monomial(variables, rest, coeff))
    top = max(by_power, default=0)
    coefficients = [sum_polys(by_power.get(e, []), variables) for e in range(top + 1)]
    unit = tuple(1 if i == index else 0 for i in range(len(variables)))
    x = Polynomial.monomial(variables, unit)
    quotient = Polynomial.constant(variables, 0)
    carry = Polynomial.constant(variables, 0)
    for e in range(top, 0, -1):  # b_{e-1} = c_e + phi b_e
        check_time()
        carry = coefficients[e] + phi * carry
        quotient = quotient + carry * x ** (e - 1)
    remainder = coefficients[0] + phi * carry
    return quotient, remainder


def lift_residual(residual: Polynomial, elimination: Elimination) -> tuple[dict[int, Polynomial], Polynomial]:
    """Write residual = sum_j h_j lambda_j + rest; rest is 0 when the residual vanishes on the subspace."""
    lambdas: dict[int, Polynomial] = {}
    current = residual
    for sub in elimination.substitutions:
        quotient, current = _divide(current, sub.index, sub.phi)
        # (x_k - phi) q = h' q / a_k with h' = sum combo_j h_j
        for j, weight in sub.combo.items():
            piece = quotient.scale(weight / sub.scale)
            lambdas[j] = lambdas[j] + piece if j in lambdas else piece
    return lambdas, current
