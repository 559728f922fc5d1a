"""Safe tokenizer and recursive-descent parser for polynomial expressions and inequalities.

User text is never handed to eval, sympify or any other code-executing parser: it is split into a
small set of tokens (numbers, names, + - * / ^ ** ( ) >= <=) and everything else is rejected with a
message that names the position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from models.common.contract import MethodInputError

from .polynomial import Polynomial, natural_key

__all__ = [
    "LIMITS",
    "Inequality",
    "Limits",
    "parse_inequality",
    "parse_polynomial",
    "tokenize",
]


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a parse (and everything after it) small."""

    max_chars: int = 20000
    max_variables: int = 12
    max_degree: int = 12
    max_terms: int = 2000
    max_name_length: int = 24
    max_number_digits: int = 40
    max_nesting: int = 60


LIMITS = Limits()

_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<num>\d+(?:\.\d*)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|>=|<=|=>|=<|==|[-+*/^()=<>])"
)


@dataclass(frozen=True)
class Token:
    kind: str  # "num", "name", "op", "end"
    text: str
    pos: int


@dataclass(frozen=True)
class Inequality:
    """A parsed claim `lhs >= rhs` stored as the polynomial p = lhs - rhs that must be >= 0."""

    polynomial: Polynomial
    variables: tuple[str, ...]
    relation: str  # ">=", "<=" or "" (a bare expression means expr >= 0)


def _fail(field: str, message: str) -> MethodInputError:
    return MethodInputError(f"{field}: {message}")


def tokenize(text: str, field: str = "problem", limits: Limits = LIMITS) -> list[Token]:
    """Split `text` into tokens; reject unknown characters, strict or equality relations."""
    if len(text) > limits.max_chars:
        raise _fail(field, f"input has {len(text)} characters, above the maximum of {limits.max_chars}")
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            ch = text[pos]
            hint = " (attribute access is not allowed)" if ch == "." else ""
            raise _fail(field, f"unknown character {ch!r} at position {pos}{hint}")
        kind = match.lastgroup or ""
        value = match.group()
        if kind == "num":
            if match.end() < len(text) and text[match.end()] == ".":
                raise _fail(field, f"unexpected '.' at position {match.end()} (attribute access is not allowed)")
            if len(value.replace(".", "")) > limits.max_number_digits:
                raise _fail(field, f"number at position {pos} has more than {limits.max_number_digits} digits")
        elif kind == "name":
            if value.startswith("_"):
                raise _fail(field, f"name {value[:30]!r} at position {pos} must start with a letter")
            if len(value) > limits.max_name_length:
                raise _fail(field, f"name at position {pos} is longer than {limits.max_name_length} characters")
            if match.end() < len(text) and text[match.end()] == ".":
                raise _fail(field, f"unexpected '.' at position {match.end()} (attribute access is not allowed)")
        elif kind == "op":
            if value in ("=>", "=<", "==", "="):
                raise _fail(field, f"relation {value!r} at position {pos} is not supported; use >= or <=")
            if value in ("<", ">"):
                raise _fail(field, f"strict inequality {value!r} at position {pos} is not supported; use >= or <=")
        if kind != "space":
            tokens.append(Token(kind, value, pos))
        pos = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


class _Parser:
    """Recursive descent over the token list, building exact polynomials over known variables."""

    def __init__(self, tokens: list[Token], variables: tuple[str, ...], field: str, limits: Limits) -> None:
        self.tokens = tokens
        self.variables = variables
        self.field = field
        self.limits = limits
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: str) -> MethodInputError:
        return _fail(self.field, message)

    def check(self, poly: Polynomial, pos: int) -> Polynomial:
        if poly.degree() > self.limits.max_degree:
            raise self.error(f"degree {poly.degree()} (near position {pos}) is above the maximum of {self.limits.max_degree}")
        if len(poly.terms) > self.limits.max_terms:
            raise self.error(f"{len(poly.terms)} terms (near position {pos}) is above the maximum of {self.limits.max_terms}")
        return poly

    def expression(self) -> Polynomial:
        result = self.term()
        while self.current.kind == "op" and self.current.text in "+-":
            op = self.advance()
            right = self.term()
            result = self.check(result + right if op.text == "+" else result - right, op.pos)
        return result

    def term(self) -> Polynomial:
        result = self.factor()
        while self.current.kind == "op" and self.current.text in ("*", "/"):
            op = self.advance()
            right = self.factor()
            if op.text == "*":
                if result.degree() + right.degree() > self.limits.max_degree:
                    raise self.error(
                        f"degree {result.degree() + right.degree()} (near position {op.pos}) is above "
                        f"the maximum of {self.limits.max_degree}"
                    )
                if len(result.terms) * len(right.terms) > 50 * self.limits.max_terms:
                    raise self.error(f"product at position {op.pos} is too large to expand")
                result = self.check(result * right, op.pos)
            else:
                divisor = right.constant_value()
                if divisor is None:
                    raise self.error(f"division by a non-constant expression at position {op.pos} is not supported")
                if divisor == 0:
                    raise self.error(f"division by zero at position {op.pos}")
                result = result.scale(1 / divisor)
        return result

    def factor(self) -> Polynomial:
        if self.current.kind == "op" and self.current.text in "+-":
            op = self.advance()
            self.enter(op.pos)
            inner = self.factor()
            self.depth -= 1
            return -inner if op.text == "-" else inner
        return self.power()

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > self.limits.max_nesting:
            raise self.error(f"nesting deeper than {self.limits.max_nesting} levels at position {pos}")

    def power(self) -> Polynomial:
        base = self.atom()
        if self.current.kind == "op" and self.current.text in ("^", "**"):
            op = self.advance()
            exponent = self.exponent(op.pos)
            if base.degree() * exponent > self.limits.max_degree:
                raise self.error(
                    f"degree {base.degree() * exponent} (near position {op.pos}) is above the maximum of "
                    f"{self.limits.max_degree}"
                )
            result = Polynomial.constant(self.variables, 1)
            for _ in range(exponent):
                result = self.check(result * base, op.pos)
            base = result
            if self.current.kind == "op" and self.current.text in ("^", "**"):
                raise self.error(f"chained powers at position {self.current.pos} are ambiguous; use parentheses")
        if self.current.kind in ("num", "name") or (self.current.kind == "op" and self.current.text == "("):
            raise self.error(f"missing operator before {self.current.text!r} at position {self.current.pos}")
        return base

    def exponent(self, pos: int) -> int:
        parens = 0
        while self.current.kind == "op" and self.current.text == "(":
            self.advance()
            parens += 1
        if self.current.kind == "op" and self.current.text == "-":
            raise self.error(f"exponent at position {self.current.pos} must be a non-negative integer")
        token = self.advance()
        if token.kind != "num" or not token.text.isdigit():
            raise self.error(f"exponent at position {token.pos} must be a non-negative integer")
        value = int(token.text)
        if value > self.limits.max_degree:
            raise self.error(f"exponent {value if len(token.text) < 12 else token.text[:12] + '...'} at position "
                             f"{token.pos} is above the maximum of {self.limits.max_degree}")
        for _ in range(parens):
            self.expect(")")
        return value

    def expect(self, text: str) -> None:
        token = self.advance()
        if token.kind != "op" or token.text != text:
            found = "end of input" if token.kind == "end" else repr(token.text)
            raise self.error(f"expected {text!r} at position {token.pos}, found {found}")

    def atom(self) -> Polynomial:
        token = self.advance()
        if token.kind == "num":
            return Polynomial.constant(self.variables, Fraction(token.text))
        if token.kind == "name":
            if self.current.kind == "op" and self.current.text == "(":
                raise self.error(f"function calls are not allowed ({token.text[:30]}( at position {token.pos})")
            return Polynomial.variable(self.variables, token.text)
        if token.kind == "op" and token.text == "(":
            self.enter(token.pos)
            inner = self.expression()
            self.depth -= 1
            self.expect(")")
            return inner
        found = "end of input" if token.kind == "end" else repr(token.text)
        raise self.error(f"expected a number, a variable or '(' at position {token.pos}, found {found}")


def _collect_variables(tokens: list[Token], field: str, limits: Limits) -> tuple[str, ...]:
    names = sorted({t.text for t in tokens if t.kind == "name"}, key=natural_key)
    if len(names) > limits.max_variables:
        raise _fail(field, f"{len(names)} variables, above the maximum of {limits.max_variables}")
    return tuple(names)


def parse_polynomial(
    text: str,
    variables: tuple[str, ...] | None = None,
    field: str = "problem",
    limits: Limits = LIMITS,
) -> Polynomial:
    """Parse one polynomial expression; with `variables`, names outside that list are rejected."""
    tokens = tokenize(text, field, limits)
    if any(t.kind == "op" and t.text in (">=", "<=") for t in tokens):
        raise _fail(field, "expected an expression, found an inequality")
    found = _collect_variables(tokens, field, limits)
    if variables is None:
        variables = found
    else:
        unknown = [n for n in found if n not in variables]
        if unknown:
            raise _fail(field, f"unknown variable {unknown[0]!r}")
    parser = _Parser(tokens, variables, field, limits)
    poly = parser.expression()
    if parser.current.kind != "end":
        raise _fail(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    return poly


def parse_inequality(text: str, field: str = "problem", limits: Limits = LIMITS) -> Inequality:
    """Parse `lhs >= rhs`, `lhs <= rhs` or a bare `expr` (meaning expr >= 0) into p >= 0."""
    tokens = tokenize(text, field, limits)
    relations = [t for t in tokens if t.kind == "op" and t.text in (">=", "<=")]
    if len(relations) > 1:
        raise _fail(field, f"more than one relation (second at position {relations[1].pos})")
    if len(tokens) == 1:
        raise _fail(field, "the problem is empty")
    variables = _collect_variables(tokens, field, limits)
    parser = _Parser(tokens, variables, field, limits)
    lhs = parser.expression()
    relation = ""
    rhs = Polynomial.constant(variables, 0)
    if parser.current.kind == "op" and parser.current.text in (">=", "<="):
        relation = parser.advance().text
        if parser.current.kind == "end":
            raise _fail(field, f"missing right-hand side after {relation!r}")
        rhs = parser.expression()
    if parser.current.kind != "end":
        raise _fail(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    poly = rhs - lhs if relation == "<=" else lhs - rhs
    if poly.degree() > limits.max_degree:
        raise _fail(field, f"degree {poly.degree()} is above the maximum of {limits.max_degree}")
    return Inequality(polynomial=poly, variables=variables, relation=relation)
