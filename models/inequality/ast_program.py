"""The independent check's programs: the user's text read by Python's `ast` through a node whitelist
(numbers, names, + - * /, unary -, ** with a small integer exponent, one comparison), compiled to a
postfix program whose degree and number sizes are bounded, and evaluated in exact `Fraction` arithmetic.
Shares nothing with the parser, the polynomial class or the exact checker."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

__all__ = ["MAX_EXPONENT", "Program", "Reject", "compile_comparison", "compile_expression", "evaluate", "names_of"]

MAX_TEXT = 5_000_000
MAX_NODES = 2_000_000
MAX_EXPONENT = 24
MAX_DEPTH = 200
MAX_DEGREE = 64  # of any sub-expression (certificates reach twice the problem's degree 12 plus multipliers)
POINT_BITS = 42  # numerator and denominator of a sample coordinate: |a| <= 10^9, b <= 10^3
MAX_BITS = 4_000_000  # of a value at a sample point (a sum doubles it at most: a generous bound)

_EQUALS = re.compile(r"(?<![<>=!])=(?!=)")

Program = list[tuple[str, Any]]


class Reject(Exception):
    """The text or the certificate is outside what the evaluator accepts."""


def _python_text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise Reject(f"text longer than {MAX_TEXT} characters")
    text = text.replace("^", "**").replace("\u2265", ">=").replace("\u2264", "<=")
    text = _EQUALS.sub("==", text)
    depth = top = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        top = max(top, depth)
    if top > MAX_DEPTH:
        raise Reject(f"nesting deeper than {MAX_DEPTH}")
    return text


def _parse(text: str) -> ast.expr:
    try:
        tree = ast.parse(_python_text(text), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise Reject(f"not a Python expression ({type(exc).__name__})") from exc
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
            raise Reject(f"more than {MAX_NODES} nodes")
        if isinstance(current, ast.Constant):
            value = current.value
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise Reject(f"constant {type(value).__name__} is not allowed")
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
                raise Reject(f"** needs an integer exponent between 0 and {MAX_EXPONENT}")
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
            raise Reject(f"{type(current).__name__} is not allowed")
    return program


def names_of(program: Program) -> set[str]:
    return {arg for op, arg in program if op == "var"}


def evaluate(program: Program, point: Mapping[str, Fraction]) -> Fraction:
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


def compile_expression(text: Any, label: str) -> Program:
    node = _parse(str(text))
    if isinstance(node, ast.Compare):
        raise Reject(f"{label}: expected an expression, found a comparison")
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
                raise Reject(f"{label}: the numbers are too large for the evaluator ({MAX_BITS} bits)")
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
                raise Reject(f"{label}: division by an expression with variables")
            if op in ("add", "sub"):
                stack.append((l_named or r_named, max(l_degree, r_degree), max(l_bits, r_bits) + 1))
            else:
                stack.append((l_named or r_named, l_degree + r_degree, l_bits + r_bits))
        if stack and (stack[-1][1] > MAX_DEGREE or stack[-1][2] > MAX_BITS):
            raise Reject(f"{label}: degree or number size above the evaluator's limits ({MAX_DEGREE}, {MAX_BITS} bits)")
    return program


def compile_comparison(text: str, label: str, allow_equality: bool) -> tuple[Program, Program, str]:
    node = _parse(text)
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        raise Reject(f"{label}: expected one comparison")
    symbols = {ast.GtE: ">=", ast.LtE: "<=", ast.Gt: ">", ast.Lt: "<", ast.Eq: "="}
    relation = symbols.get(type(node.ops[0]))
    if relation is None or (relation == "=" and not allow_equality):
        raise Reject(f"{label}: comparison not allowed")
    return _checked(_compile(node.left), label), _checked(_compile(node.comparators[0]), label), relation
