"""Reading a user-supplied certificate: the typed certificate (multiplier kind and power included) of a
JSON form that already passed both checks, for the Lean export."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .certificate import Certificate, EqualityTerm, ProductTerm, WeightedSquare
from .checker import CERT_LIMITS, known_multiplier
from .orthant import nonnegative_variables, orthant_multiplier_base
from .parser import Problem, parse_polynomial
from .polynomial import Polynomial

__all__ = ["certificate_from_json"]


def certificate_from_json(problem: Problem, data: dict[str, Any]) -> Certificate:
    """The typed certificate of a JSON form that already passed both checks (for the Lean export)."""
    variables = problem.variables

    def poly(text: str) -> Polynomial:
        return parse_polynomial(text, variables=variables, field="certificate", limits=CERT_LIMITS)

    def squares(items: list[dict[str, str]]) -> tuple[WeightedSquare, ...]:
        return tuple(WeightedSquare(Fraction(item["coeff"]), poly(item["poly"])) for item in items)

    margin = Fraction(data.get("margin") or "0")
    multiplier = None if data.get("multiplier") is None else poly(data["multiplier"])
    kind, power = "", 0
    if multiplier is not None:
        nonnegative = sorted(nonnegative_variables(problem))
        kind = known_multiplier(multiplier, problem.claim.polynomial, margin, nonnegative) or ""
        power = _multiplier_power(multiplier, kind, problem, nonnegative)
    return Certificate(
        squares=squares(data.get("squares", [])), multiplier=multiplier, multiplier_kind=kind, multiplier_power=power,
        margin=margin,
        products=tuple(ProductTerm(tuple(t["hypotheses"]), squares(t["squares"])) for t in data.get("products", [])),
        equalities=tuple(EqualityTerm(t["hypothesis"], poly(t["poly"])) for t in data.get("equalities", [])),
    )


def _multiplier_power(multiplier: Polynomial, kind: str, problem: Problem, nonnegative: list[int]) -> int:
    """k in D = base^k for the accepted kinds (the base has degree 2, or degree 1 or 2 on the orthant)."""
    if kind in ("orthant-affine", "orthant-homogeneous"):
        base = orthant_multiplier_base(problem.variables, nonnegative)
        return next(k for k in range(1, 4) if (base + Polynomial.constant(problem.variables, 1)) ** k == multiplier
                    or base**k == multiplier)
    return multiplier.degree() // 2
