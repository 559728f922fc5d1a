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

import ast
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["IndependentReport", "check_independently"]

MAX_TEXT = 5_000_000
MAX_NODES = 2_000_000
MAX_EXPONENT = 24
MAX_DEPTH = 200
POINTS = 6
MAX_DEGREE = 64  # of any sub-expression (certificates reach twice the problem's degree 12 plus multipliers)
POINT_BITS = 42  # numerator and denominator of a sample coordinate: |a| <= 10^9, b <= 10^3
MAX_BITS = 4_000_000  # of a value at a sample point (a sum doubles it at most: a generous bound)

_EQUALS = re.compile(r"(?<![<>=!])=(?!=)")

Program = list[tuple[str, Any]]


@dataclass(frozen=True)
class IndependentReport:
    """Whether the identity held at every sampled point, and why not."""

    ok: bool
    reason: str
    points: int = 0


class _Reject(Exception):
    pass


def _python_text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise _Reject(f"text longer than {MAX_TEXT} characters")
    text = text.replace("^", "**").replace("\u2265", ">=").replace("\u2264", "<=")
    text = _EQUALS.sub("==", text)
    depth = top = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        top = max(top, depth)
    if top > MAX_DEPTH:
        raise _Reject(f"nesting deeper than {MAX_DEPTH}")
    return text


def _parse(text: str) -> ast.expr:
    try:
        tree = ast.parse(_python_text(text), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _Reject(f"not a Python expression ({type(exc).__name__})") from exc
    return tree.body


def _compile(node: ast.expr) -> Program:
    """Postfix program of a whitelisted expression (iterative: long sums nest thousands deep)."""
    program: Program = []
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    count = 0
    while stack:
        current, expanded = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise _Reject(f"more than {MAX_NODES} nodes")
        if isinstance(current, ast.Constant):
            value = current.value
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _Reject(f"constant {type(value).__name__} is not allowed")
            program.append(("num", Fraction(repr(value)) if isinstance(value, float) else Fraction(value)))
        elif isinstance(current, ast.Name):
            program.append(("var", current.id))
        elif isinstance(current, ast.UnaryOp) and isinstance(current.op, ast.USub | ast.UAdd):
            if expanded:
                program.append(("neg" if isinstance(current.op, ast.USub) else "pos", None))
            else:
                stack += [(current, True), (current.operand, False)]
        elif isinstance(current, ast.BinOp) and isinstance(current.op, ast.Pow):
            exponent = current.right
            if not (isinstance(exponent, ast.Constant) and type(exponent.value) is int and 0 <= exponent.value <= MAX_EXPONENT):
                raise _Reject(f"** needs an integer exponent between 0 and {MAX_EXPONENT}")
            if expanded:
                program.append(("pow", exponent.value))
            else:
                stack += [(current, True), (current.left, False)]
        elif isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
            if expanded:
                program.append((type(current.op).__name__.lower(), None))
            else:
                stack += [(current, True), (current.right, False), (current.left, False)]
        else:
            raise _Reject(f"{type(current).__name__} is not allowed")
    return program


def _names(program: Program) -> set[str]:
    return {arg for op, arg in program if op == "var"}


def _evaluate(program: Program, point: Mapping[str, Fraction]) -> Fraction:
    stack: list[Fraction] = []
    for op, arg in program:
        if op == "num":
            stack.append(arg)
        elif op == "var":
            stack.append(point[arg])
        elif op == "neg":
            stack.append(-stack.pop())
        elif op == "pos":
            pass
        elif op == "pow":
            stack.append(stack.pop() ** arg)
        else:
            right, left = stack.pop(), stack.pop()
            if op == "add":
                stack.append(left + right)
            elif op == "sub":
                stack.append(left - right)
            elif op == "mult":
                stack.append(left * right)
            else:
                stack.append(left / right)  # division by a non-constant is refused before evaluation
    return stack[0]


def _expression(text: Any, label: str) -> Program:
    node = _parse(str(text))
    if isinstance(node, ast.Compare):
        raise _Reject(f"{label}: expected an expression, found a comparison")
    return _checked(_compile(node), label)


def _checked(program: Program, label: str) -> Program:
    """Refuse division by anything that depends on a variable, and bound every sub-expression's degree
    and the bit size of its values at the sampled points before anything is evaluated (nested powers
    such as ((x**24)**24)**24 would otherwise produce numbers with billions of digits)."""
    stack: list[tuple[bool, int, int]] = []  # (has a variable, degree, bits of a value at a sample point)
    constant_bits = 0  # sums of fractions with different denominators grow by these at most
    for op, arg in program:
        if op == "num":
            bits = max(arg.numerator.bit_length(), arg.denominator.bit_length()) + 1
            constant_bits += bits
            if constant_bits > MAX_BITS:
                raise _Reject(f"{label}: the numbers are too large for the evaluator ({MAX_BITS} bits)")
            stack.append((False, 0, bits))
        elif op == "var":
            stack.append((True, 1, POINT_BITS))
        elif op in ("neg", "pos"):
            continue
        elif op == "pow":
            named, degree, bits = stack.pop()
            stack.append((named, degree * arg, bits * max(arg, 1)))
        else:
            (r_named, r_degree, r_bits), (l_named, l_degree, l_bits) = stack.pop(), stack.pop()
            if op == "div" and r_named:
                raise _Reject(f"{label}: division by an expression with variables")
            if op in ("add", "sub"):
                stack.append((l_named or r_named, max(l_degree, r_degree), max(l_bits, r_bits) + 1))
            else:
                stack.append((l_named or r_named, l_degree + r_degree, l_bits + r_bits))
        if stack and (stack[-1][1] > MAX_DEGREE or stack[-1][2] > MAX_BITS):
            raise _Reject(f"{label}: degree or number size above the evaluator's limits ({MAX_DEGREE}, {MAX_BITS} bits)")
    return program


def _relation(text: str, label: str, allow_equality: bool) -> tuple[Program, Program, str]:
    node = _parse(text)
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        raise _Reject(f"{label}: expected one comparison")
    symbols = {ast.GtE: ">=", ast.LtE: "<=", ast.Gt: ">", ast.Lt: "<", ast.Eq: "="}
    relation = symbols.get(type(node.ops[0]))
    if relation is None or (relation == "=" and not allow_equality):
        raise _Reject(f"{label}: comparison not allowed")
    return _checked(_compile(node.left), label), _checked(_compile(node.comparators[0]), label), relation


def _side(left: Program, right: Program, relation: str) -> Callable[[Mapping[str, Fraction]], Fraction]:
    """The normalised value: left - right for >=, >, =; right - left for <=, <."""
    if relation in ("<=", "<"):
        left, right = right, left
    return lambda x: _evaluate(left, x) - _evaluate(right, x)


def _constant(text: Any, label: str) -> Fraction:
    program = _expression(text, label)
    if _names(program):
        raise _Reject(f"{label} must be a number")
    try:
        return _evaluate(program, {})
    except ZeroDivisionError as exc:
        raise _Reject(f"{label} divides by zero") from exc


def _squares(items: Any, label: str) -> list[tuple[Fraction, Program]]:
    if not isinstance(items, list):
        raise _Reject(f"{label} must be a list")
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise _Reject(f"{label}[{k}] must be an object")
        coeff = _constant(item.get("coeff"), f"{label}[{k}].coeff")
        if coeff < 0:
            raise _Reject(f"{label}[{k}] has a negative coefficient")
        out.append((coeff, _expression(item.get("poly"), f"{label}[{k}].poly")))
    return out


def _sum_squares(items: list[tuple[Fraction, Program]], x: Mapping[str, Fraction]) -> Fraction:
    return sum((c * _evaluate(q, x) ** 2 for c, q in items), Fraction(0))


def check_independently(
    problem: str, hypotheses: list[str] | tuple[str, ...], certificate: Mapping[str, Any], seed: int = 0
) -> IndependentReport:
    """Evaluate the user's own text and the certificate at random rational points; all must agree."""
    try:
        return _check(problem, list(hypotheses), certificate, random.Random(seed))
    except _Reject as exc:
        return IndependentReport(False, str(exc))
    except (ZeroDivisionError, KeyError, TypeError, OverflowError, RecursionError, MemoryError) as exc:
        return IndependentReport(False, f"evaluation failed ({type(exc).__name__})")


def _check(problem: str, hypotheses: list[str], certificate: Mapping[str, Any], rng: random.Random) -> IndependentReport:
    claim_l, claim_r, relation = _relation(problem, "problem", allow_equality=False)
    p = _side(claim_l, claim_r, relation)
    hyps = [_relation(text, f"hypotheses[{k}]", allow_equality=True) for k, text in enumerate(hypotheses)]
    hyp_value = [_side(left, right, rel) for left, right, rel in hyps]
    names = _names(claim_l) | _names(claim_r)
    for left, right, _rel in hyps:
        names |= _names(left) | _names(right)
    margin = _constant(certificate.get("margin", "0"), "margin")
    if margin < 0 or (relation in (">", "<") and margin <= 0):
        raise _Reject("the margin must be >= 0, and > 0 for a strict claim")
    multiplier = None if certificate.get("multiplier") is None else _expression(certificate["multiplier"], "multiplier")
    squares = _squares(certificate.get("squares", []), "squares")
    products = []
    for k, term in enumerate(certificate.get("products", []) or []):
        ids = term.get("hypotheses") if isinstance(term, Mapping) else None
        if not isinstance(ids, list) or not ids or any(
            not isinstance(i, int) or not 0 <= i < len(hyps) or hyps[i][2] == "=" for i in ids
        ):
            raise _Reject(f"products[{k}] must name inequality hypotheses")
        products.append((ids, _squares(term.get("squares", []), f"products[{k}].squares")))
    lambdas = []
    for k, term in enumerate(certificate.get("equalities", []) or []):
        j = term.get("hypothesis") if isinstance(term, Mapping) else None
        if not isinstance(j, int) or not 0 <= j < len(hyps) or hyps[j][2] != "=":
            raise _Reject(f"equalities[{k}] must name an equality hypothesis")
        lambdas.append((j, _expression(term.get("poly"), f"equalities[{k}].poly")))
    used = set().union(*(_names(q) for _c, q in squares), *(_names(q) for _i, part in products for _c, q in part),
                       *(_names(q) for _j, q in lambdas), _names(multiplier or []))
    if not used <= names:
        raise _Reject(f"the certificate uses unknown variable(s) {sorted(used - names)[:3]}")
    points = [{v: Fraction(rng.randint(-10**9, 10**9), rng.randint(1, 10**3)) for v in sorted(names)} for _ in range(POINTS)]
    if multiplier is not None:
        nonnegative = {
            v for v in names for k, (_l, _r, rel) in enumerate(hyps)
            if rel != "=" and all(hyp_value[k](x) == x[v] for x in points)
        }
        _check_multiplier(multiplier, p, margin, points, sorted(names), nonnegative)
    for x in points:
        lhs = (p(x) - margin) * (_evaluate(multiplier, x) if multiplier is not None else 1)
        rhs = _sum_squares(squares, x)
        for ids, part in products:
            weight = Fraction(1)
            for i in ids:
                weight *= hyp_value[i](x)
            rhs += weight * _sum_squares(part, x)
        for j, lam in lambdas:
            rhs += hyp_value[j](x) * _evaluate(lam, x)
        if lhs != rhs:
            return IndependentReport(False, "the identity fails at a random rational point", len(points))
    return IndependentReport(True, f"identity holds at {len(points)} random rational points (Schwartz-Zippel)", len(points))


def _check_multiplier(
    multiplier: Program, p: Callable[[Mapping[str, Fraction]], Fraction], margin: Fraction,
    points: list[dict[str, Fraction]], names: list[str], nonnegative: set[str],
) -> None:
    """The multiplier must be a positive constant, (1 + |x|^2)^k or, for homogeneous p and margin 0, (|x|^2)^k;
    with hypotheses x_i >= 0, also (1 + S)^k or (S^k with margin 0 and p(0) = 0), S = sum x_i + sum y_j^2."""
    values = [_evaluate(multiplier, x) for x in points]
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
    raise _Reject("the multiplier is not a positive constant, (1 + |x|^2)^k or (|x|^2)^k for a homogeneous p")


def _homogeneous(p: Callable[[Mapping[str, Fraction]], Fraction], points: list[dict[str, Fraction]]) -> bool:
    """p(2x) = 2^d p(x) at every point for one d >= 1 (a polynomial identity in x, tested at random points)."""
    for d in range(1, MAX_EXPONENT + 1):
        if all(p({v: 2 * c for v, c in x.items()}) == 2**d * p(x) for x in points):
            return True
    return False
