"""Second, independent check: Python's `ast` with a node whitelist, evaluated at random rational points.

This module shares nothing with the parser, the polynomial class or the exact checker. It reads the
user's *original* text (claim and hypotheses) and the certificate's text, compiles each into a
postfix program over a whitelist of nodes (numbers, names, + - * /, unary -, ** with a small
integer exponent, one comparison), and evaluates both sides of

    multiplier * (p - margin) = sum c s^2 + sum prod(g) * sum c s^2 + sum h * lambda

in exact `Fraction` arithmetic at random rational points. Two different polynomials of degree d
agree at a uniformly random point of S^n with probability at most d / |S| (Schwartz-Zippel); with
|S| > 10^9 and several points a wrong identity passes with probability far below 10^-30.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .ast_program import (
    MAX_EXPONENT,
    Program,
    Reject,
    compile_comparison,
    compile_expression,
    evaluate,
    names_of,
)

__all__ = ["IndependentReport", "check_independently"]

POINTS = 6


@dataclass(frozen=True)
class IndependentReport:
    """Whether the identity held at every sampled point, and why not."""

    ok: bool
    reason: str
    points: int = 0


def _side(left: Program, right: Program, relation: str) -> Callable[[Mapping[str, Fraction]], Fraction]:
    """The normalised value: left - right for >=, >, =; right - left for <=, <."""
    if relation in ("<=", "<"):
        left, right = right, left
    return lambda x: evaluate(left, x) - evaluate(right, x)


def _constant(text: Any, label: str) -> Fraction:
    program = compile_expression(text, label)
    if names_of(program):
        raise Reject(f"{label} must be a number")
    try:
        return evaluate(program, {})
    except ZeroDivisionError as exc:
        raise Reject(f"{label} divides by zero") from exc


def _squares(items: Any, label: str) -> list[tuple[Fraction, Program]]:
    if not isinstance(items, list):
        raise Reject(f"{label} must be a list")
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise Reject(f"{label}[{k}] must be an object")
        coeff = _constant(item.get("coeff"), f"{label}[{k}].coeff")
        if coeff < 0:
            raise Reject(f"{label}[{k}] has a negative coefficient")
        out.append((coeff, compile_expression(item.get("poly"), f"{label}[{k}].poly")))
    return out


def _sum_squares(items: list[tuple[Fraction, Program]], x: Mapping[str, Fraction]) -> Fraction:
    return sum((c * evaluate(q, x) ** 2 for c, q in items), Fraction(0))


def check_independently(
    problem: str, hypotheses: list[str] | tuple[str, ...], certificate: Mapping[str, Any], seed: int = 0
) -> IndependentReport:
    """Evaluate the user's own text and the certificate at random rational points; all must agree."""
    try:
        return _check(problem, list(hypotheses), certificate, random.Random(seed))
    except Reject as exc:
        return IndependentReport(False, str(exc))
    except (ZeroDivisionError, KeyError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
        return IndependentReport(False, f"evaluation failed ({type(exc).__name__})")


def _check(problem: str, hypotheses: list[str], certificate: Mapping[str, Any], rng: random.Random) -> IndependentReport:
    claim_l, claim_r, relation = compile_comparison(problem, "problem", allow_equality=False)
    p = _side(claim_l, claim_r, relation)
    hyps = [compile_comparison(text, f"hypotheses[{k}]", allow_equality=True) for k, text in enumerate(hypotheses)]
    hyp_value = [_side(left, right, rel) for left, right, rel in hyps]
    names = names_of(claim_l) | names_of(claim_r)
    for left, right, _rel in hyps:
        names |= names_of(left) | names_of(right)
    margin = _constant(certificate.get("margin", "0"), "margin")
    if margin < 0 or (relation in (">", "<") and margin <= 0):
        raise Reject("the margin must be >= 0, and > 0 for a strict claim")
    multiplier = None if certificate.get("multiplier") is None else compile_expression(certificate["multiplier"], "multiplier")
    squares = _squares(certificate.get("squares", []), "squares")
    products = []
    for k, term in enumerate(certificate.get("products", []) or []):
        ids = term.get("hypotheses") if isinstance(term, Mapping) else None
        if not isinstance(ids, list) or not ids or any(
            not isinstance(i, int) or not 0 <= i < len(hyps) or hyps[i][2] == "=" for i in ids
        ):
            raise Reject(f"products[{k}] must name inequality hypotheses")
        products.append((ids, _squares(term.get("squares", []), f"products[{k}].squares")))
    lambdas = []
    for k, term in enumerate(certificate.get("equalities", []) or []):
        j = term.get("hypothesis") if isinstance(term, Mapping) else None
        if not isinstance(j, int) or not 0 <= j < len(hyps) or hyps[j][2] != "=":
            raise Reject(f"equalities[{k}] must name an equality hypothesis")
        lambdas.append((j, compile_expression(term.get("poly"), f"equalities[{k}].poly")))
    used = set().union(*(names_of(q) for _c, q in squares), *(names_of(q) for _i, part in products for _c, q in part),
                       *(names_of(q) for _j, q in lambdas), names_of(multiplier or []))
    if not used <= names:
        raise Reject(f"the certificate uses unknown variable(s) {sorted(used - names)[:3]}")
    points = [{v: Fraction(rng.randint(-10**9, 10**9), rng.randint(1, 10**3)) for v in sorted(names)} for _ in range(POINTS)]
    if multiplier is not None:
        nonnegative = {
            v for v in names for k, (_l, _r, rel) in enumerate(hyps)
            if rel != "=" and all(hyp_value[k](x) == x[v] for x in points)
        }
        _check_multiplier(multiplier, p, margin, points, sorted(names), nonnegative)
    for x in points:
        lhs = (p(x) - margin) * (evaluate(multiplier, x) if multiplier is not None else 1)
        rhs = _sum_squares(squares, x)
        for ids, part in products:
            weight = Fraction(1)
            for i in ids:
                weight *= hyp_value[i](x)
            rhs += weight * _sum_squares(part, x)
        for j, lam in lambdas:
            rhs += hyp_value[j](x) * evaluate(lam, x)
        if lhs != rhs:
            return IndependentReport(False, "the identity fails at a random rational point", len(points))
    return IndependentReport(True, f"identity holds at {len(points)} random rational points (Schwartz-Zippel)", len(points))


def _check_multiplier(
    multiplier: Program, p: Callable[[Mapping[str, Fraction]], Fraction], margin: Fraction,
    points: list[dict[str, Fraction]], names: list[str], nonnegative: set[str],
) -> None:
    """The multiplier must be a positive constant, (1 + |x|^2)^k or, for homogeneous p and margin 0, (|x|^2)^k;
    with hypotheses x_i >= 0, also (1 + S)^k or (S^k with margin 0 and p(0) = 0), S = sum x_i + sum y_j^2."""
    values = [evaluate(multiplier, x) for x in points]
    norms = [sum((x[v] ** 2 for v in names), Fraction(0)) for x in points]
    orthant = [sum((x[v] if v in nonnegative else x[v] ** 2 for v in names), Fraction(0)) for x in points]
    if values[0] > 0 and all(v == values[0] for v in values):
        return
    vanishes_at_origin = p(dict.fromkeys(names, Fraction(0))) == 0
    for k in range(1, 4):
        if all(v == (1 + n) ** k for v, n in zip(values, norms, strict=True)):
            return
        if margin == 0 and all(v == n**k for v, n in zip(values, norms, strict=True)) and _homogeneous(p, points):
            return
        if nonnegative and all(v == (1 + s) ** k for v, s in zip(values, orthant, strict=True)):
            return
        if nonnegative and margin == 0 and vanishes_at_origin and all(
            v == s**k for v, s in zip(values, orthant, strict=True)
        ):
            return
    raise Reject("the multiplier is not a positive constant, (1 + |x|^2)^k or (|x|^2)^k for a homogeneous p")


def _homogeneous(p: Callable[[Mapping[str, Fraction]], Fraction], points: list[dict[str, Fraction]]) -> bool:
    """p(2x) = 2^d p(x) at every point for one d >= 1 (a polynomial identity in x, tested at random points)."""
    for d in range(1, MAX_EXPONENT + 1):
        if all(p({v: 2 * c for v, c in x.items()}) == 2**d * p(x) for x in points):
            return True
    return False
