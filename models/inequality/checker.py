"""Independent exact checker: expands D * p and sum c_i s_i^2 in rational arithmetic and compares.

This module shares nothing with the proposers or the Gram machinery: it reads the certificate in
its published text form (the CLI/JSON contract), parses each polynomial with the safe parser, and
multiplies out with plain dictionaries of Fractions. Nothing is reported "proved" unless it passes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from models.common.contract import MethodInputError

from .parser import Limits, parse_polynomial
from .polynomial import Monomial, Polynomial

__all__ = ["CheckReport", "check_certificate"]

# certificate polynomials may be larger than user input (squares of degree-6 parts, many terms)
_CERT_LIMITS = Limits(max_chars=5_000_000, max_terms=100_000, max_degree=24, max_number_digits=100_000)


@dataclass(frozen=True)
class CheckReport:
    """Whether the identity holds, and why not when it does not."""

    ok: bool
    reason: str
    n_squares: int


def _expand_sum(items: Sequence[tuple[Fraction, Mapping[Monomial, Fraction]]]) -> dict[Monomial, Fraction]:
    total: dict[Monomial, Fraction] = {}
    for coeff, terms in items:
        entries = list(terms.items())
        for a, (m1, c1) in enumerate(entries):
            for m2, c2 in entries[a:]:
                mono = tuple(x + y for x, y in zip(m1, m2, strict=True))
                weight = coeff * c1 * c2 * (1 if m1 == m2 else 2)
                total[mono] = total.get(mono, Fraction(0)) + weight
    return {m: c for m, c in total.items() if c != 0}


def _read(items: Any, variables: tuple[str, ...], label: str) -> list[tuple[Fraction, dict[Monomial, Fraction]]]:
    out = []
    for k, item in enumerate(items):
        try:
            coeff = Fraction(str(item["coeff"]))
            poly = parse_polynomial(str(item["poly"]), variables=variables, field=f"{label}[{k}]", limits=_CERT_LIMITS)
        except (KeyError, TypeError, ValueError, ZeroDivisionError, MethodInputError) as exc:
            raise ValueError(f"{label}[{k}] is not a valid weighted square: {exc}") from exc
        out.append((coeff, poly.terms))
    return out


def check_certificate(poly: Polynomial, certificate: Mapping[str, Any]) -> CheckReport:
    """Check D * p == sum c_i s_i^2 exactly, every c_i >= 0, and D a nonzero sum of squares."""
    variables = poly.variables
    try:
        squares = _read(certificate.get("squares", []), variables, "squares")
        raw_multiplier = certificate.get("multiplier")
        multiplier = None if raw_multiplier is None else _read(raw_multiplier, variables, "multiplier")
    except ValueError as exc:
        return CheckReport(False, str(exc), 0)
    if any(c < 0 for c, _ in squares):
        return CheckReport(False, "a square has a negative coefficient", len(squares))
    if multiplier is None:
        d_terms: dict[Monomial, Fraction] = {(0,) * len(variables): Fraction(1)}
    else:
        if any(c < 0 for c, _ in multiplier):
            return CheckReport(False, "a multiplier square has a negative coefficient", len(squares))
        d_terms = _expand_sum(multiplier)
        if not d_terms:
            return CheckReport(False, "the multiplier is the zero polynomial", len(squares))
    lhs: dict[Monomial, Fraction] = {}
    for m1, c1 in d_terms.items():
        for m2, c2 in poly.terms.items():
            mono = tuple(x + y for x, y in zip(m1, m2, strict=True))
            lhs[mono] = lhs.get(mono, Fraction(0)) + c1 * c2
    lhs = {m: c for m, c in lhs.items() if c != 0}
    rhs = _expand_sum(squares)
    if lhs != rhs:
        diff = {m for m in set(lhs) | set(rhs) if lhs.get(m, 0) != rhs.get(m, 0)}
        return CheckReport(False, f"the identity fails on {len(diff)} monomial(s)", len(squares))
    return CheckReport(True, "D * p equals the sum of squares exactly", len(squares))
