"""Exact checker: expands both sides of the certificate identity in rational arithmetic and compares.

It reads the certificate only in its published text form (the CLI/JSON contract), parses each
polynomial with the safe parser, and multiplies out with plain dictionaries of Fractions:

    multiplier * (p - margin) = sum c s^2 + sum_k prod(g_i, i in S_k) * sum c s^2 + sum_j h_j * lambda_j

with every c >= 0, margin >= 0 (> 0 for a strict claim), each S_k a set of inequality hypotheses,
each j an equality hypothesis, and the multiplier 1, a positive constant, (1 + |x|^2)^k, or (|x|^2)^k
for a homogeneous p (positive off the origin, where p vanishes). Then p >= margin on the domain.
A second check that shares nothing with this one lives in `ast_check.py`; both must pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from models.common.contract import MethodInputError

from .budget import check_time
from .orthant import nonnegative_variables, orthant_multiplier_base
from .parser import Limits, Problem, parse_polynomial
from .polynomial import Monomial, Polynomial, sum_polys

__all__ = ["CERT_LIMITS", "MAX_EXPANSION", "CheckReport", "check_certificate", "known_multiplier"]

# certificate polynomials may be larger than user input (squares of degree-6 parts, many terms)
CERT_LIMITS = Limits(
    max_chars=5_000_000, max_terms=100_000, max_degree=24, max_number_digits=100_000,
    max_coefficient_bits=10**6, max_products=10**7,
)
MAX_EXPANSION = 20_000_000  # term products the whole identity may cost (bounded before expanding)


@dataclass(frozen=True)
class CheckReport:
    """Whether the identity holds, and why not when it does not."""

    ok: bool
    reason: str
    n_squares: int


class _Reject(Exception):
    pass


def _square_sum(items: Sequence[tuple[Fraction, Mapping[Monomial, Fraction]]]) -> dict[Monomial, Fraction]:
    total: dict[Monomial, Fraction] = {}
    for coeff, terms in items:
        check_time()
        entries = list(terms.items())
        for a, (m1, c1) in enumerate(entries):
            for m2, c2 in entries[a:]:
                mono = tuple(x + y for x, y in zip(m1, m2, strict=True))
                weight = coeff * c1 * c2 * (1 if m1 == m2 else 2)
                total[mono] = total.get(mono, Fraction(0)) + weight
    return {m: c for m, c in total.items() if c != 0}


def _fraction(text: Any, label: str) -> Fraction:
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError) as exc:
        raise _Reject(f"{label} is not a rational number") from exc


def _poly(text: Any, variables: tuple[str, ...], label: str) -> Polynomial:
    try:
        return parse_polynomial(str(text), variables=variables, field=label, limits=CERT_LIMITS)
    except MethodInputError as exc:
        raise _Reject(str(exc)) from exc


def _squares(items: Any, variables: tuple[str, ...], label: str) -> list[tuple[Fraction, dict[Monomial, Fraction]]]:
    if not isinstance(items, list):
        raise _Reject(f"{label} must be a list")
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, Mapping) or "coeff" not in item or "poly" not in item:
            raise _Reject(f"{label}[{k}] must have coeff and poly")
        coeff = _fraction(item["coeff"], f"{label}[{k}].coeff")
        if coeff < 0:
            raise _Reject(f"{label}[{k}] has a negative coefficient")
        out.append((coeff, _poly(item["poly"], variables, f"{label}[{k}].poly").terms))
    return out


def known_multiplier(
    multiplier: Polynomial, p: Polynomial, margin: Fraction, nonnegative: Sequence[int] = ()
) -> str | None:
    """The kind of `multiplier` when it is one of the accepted forms, positive where it matters:
    'constant' (> 0); 'affine' (1 + |x|^2)^k; 'homogeneous' (|x|^2)^k for a homogeneous p of positive
    degree and margin 0 (zero only at the origin, where p vanishes); with hypotheses x_i >= 0 for the
    indices `nonnegative`, 'orthant-affine' (1 + S)^k and 'orthant-homogeneous' S^k (margin 0 and
    p(0) = 0) with S = sum_{i nonnegative} x_i + sum_{other j} x_j^2 (zero on the domain only at 0)."""
    variables = p.variables
    constant = multiplier.constant_value()
    if constant is not None:
        return "constant" if constant > 0 else None
    one = Polynomial.constant(variables, 1)
    norm = sum_polys((Polynomial.variable(variables, v) ** 2 for v in variables), variables)
    at_origin = p.terms.get((0,) * len(variables), Fraction(0))
    orthant = orthant_multiplier_base(variables, nonnegative) if nonnegative else None
    for k in range(1, 4):
        if multiplier == (one + norm) ** k:
            return "affine"
        if margin == 0 and p.is_homogeneous() and p.degree() > 0 and multiplier == norm**k:
            return "homogeneous"
        if orthant is not None and multiplier == (one + orthant) ** k:
            return "orthant-affine"
        if orthant is not None and margin == 0 and at_origin == 0 and multiplier == orthant**k:
            return "orthant-homogeneous"
    return None


def _cost(parts: Sequence[Sequence[tuple[Fraction, Mapping[Monomial, Fraction]]]]) -> int:
    return sum(len(t) * (len(t) + 1) // 2 for part in parts for _c, t in part)


def check_certificate(problem: Problem, certificate: Mapping[str, Any]) -> CheckReport:
    """Check the identity exactly, with every sign and index condition above."""
    try:
        return _check(problem, certificate)
    except _Reject as exc:
        return CheckReport(False, str(exc), 0)


def _check(problem: Problem, certificate: Mapping[str, Any]) -> CheckReport:
    variables = problem.variables
    p = problem.claim.polynomial
    margin = _fraction(certificate.get("margin", "0"), "margin")
    if margin < 0:
        raise _Reject("the margin is negative")
    if problem.claim.strict and margin <= 0:
        raise _Reject("a strict inequality needs a margin > 0 (p >= 0 alone does not prove p > 0)")
    raw_multiplier = certificate.get("multiplier")
    multiplier = Polynomial.constant(variables, 1)
    if raw_multiplier is not None:
        multiplier = _poly(raw_multiplier, variables, "multiplier")
        if known_multiplier(multiplier, p, margin, sorted(nonnegative_variables(problem))) is None:
            raise _Reject("the multiplier must be a positive constant, (1 + |x|^2)^k or, for a homogeneous p, (|x|^2)^k "
                          "(with hypotheses x_i >= 0: x_i in place of x_i^2)")
    squares = _squares(certificate.get("squares", []), variables, "squares")
    products = certificate.get("products", []) or []
    equalities = certificate.get("equalities", []) or []
    if not isinstance(products, list) or not isinstance(equalities, list):
        raise _Reject("products and equalities must be lists")
    inequality_ids, equality_ids = set(problem.inequalities), set(problem.equalities)
    product_parts: list[tuple[Polynomial, list[tuple[Fraction, dict[Monomial, Fraction]]]]] = []
    for k, term in enumerate(products):
        if not isinstance(term, Mapping):
            raise _Reject(f"products[{k}] must be an object")
        ids = term.get("hypotheses")
        if not isinstance(ids, list) or not ids or any(not isinstance(i, int) or i not in inequality_ids for i in ids):
            raise _Reject(f"products[{k}].hypotheses must list inequality hypotheses by index")
        weight = Polynomial.constant(variables, 1)
        for i in ids:
            weight = weight * problem.hypotheses[i].polynomial
        product_parts.append((weight, _squares(term.get("squares", []), variables, f"products[{k}].squares")))
    lambdas: list[tuple[Polynomial, Polynomial]] = []
    for k, term in enumerate(equalities):
        if not isinstance(term, Mapping) or term.get("hypothesis") not in equality_ids:
            raise _Reject(f"equalities[{k}].hypothesis must be the index of an equality hypothesis")
        lambdas.append((problem.hypotheses[term["hypothesis"]].polynomial, _poly(term.get("poly"), variables, f"equalities[{k}].poly")))
    if _cost([squares, *(part for _w, part in product_parts)]) > MAX_EXPANSION:
        raise _Reject(f"the certificate needs more than {MAX_EXPANSION} term products to expand")
    lhs = multiplier * (p - Polynomial.constant(variables, margin))
    pieces = [Polynomial(variables, _square_sum(squares))]
    pieces += [weight * Polynomial(variables, _square_sum(part)) for weight, part in product_parts]
    pieces += [h * lam for h, lam in lambdas]
    rhs = sum_polys(pieces, variables)
    n_squares = len(squares) + sum(len(part) for _w, part in product_parts)
    if lhs != rhs:
        diff = {m for m in set(lhs.terms) | set(rhs.terms) if lhs.terms.get(m, 0) != rhs.terms.get(m, 0)}
        return CheckReport(False, f"the identity fails on {len(diff)} monomial(s)", n_squares)
    what = "p" if margin == 0 else "p - margin"
    lead = "" if raw_multiplier is None else "multiplier * "
    return CheckReport(True, f"{lead}({what}) equals the certificate exactly", n_squares)
