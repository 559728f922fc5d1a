"""Safe tokenizer and recursive-descent parser for polynomial expressions and inequalities.

User text is never handed to eval, sympify or any other code-executing parser: it is split into a
small set of tokens (numbers, names, + - * / ^ ** ( ) and the relations >= <= > < = ≥ ≤) and everything
else is rejected with a message that names the position. Every product and power is bounded (terms,
term products, coefficient size) before it is expanded.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from models.common.contract import MethodInputError

from .polynomial import Monomial, Polynomial, natural_key

__all__ = [
    "LIMITS",
    "MAX_HYPOTHESES",
    "RELATIONS",
    "Inequality",
    "Limits",
    "Problem",
    "coefficient_bits",
    "parse_inequality",
    "parse_polynomial",
    "parse_problem",
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
    max_coefficient_bits: int = 1000  # about 300 digits: the float stages (refuter, SDP) need finite values
    max_products: int = 100_000  # term-by-term multiplications one product or power may cost


LIMITS = Limits()

_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<num>\d+(?:\.\d*)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|>=|<=|=>|=<|==|[-+*/^()=<>\u2265\u2264])"
)
_UNICODE_RELATIONS = {"\u2265": ">=", "\u2264": "<="}
RELATIONS = (">=", "<=", ">", "<", "=")


@dataclass(frozen=True)
class Token:
    kind: str  # "num", "name", "op", "end"
    text: str
    pos: int


@dataclass(frozen=True)
class Inequality:
    """A parsed claim `lhs REL rhs`, stored as p (lhs - rhs for >= and >, rhs - lhs for <= and <) with
    p >= 0 to prove (p > 0 when `strict`); `lhs` and `rhs` are kept, expanded, for the Lean statement."""

    polynomial: Polynomial
    variables: tuple[str, ...]
    relation: str  # ">=", "<=", ">", "<" (problems) or "=" (hypotheses only)
    lhs: Polynomial
    rhs: Polynomial

    @property
    def strict(self) -> bool:
        return self.relation in (">", "<")

    @property
    def is_equality(self) -> bool:
        return self.relation == "="


@dataclass(frozen=True)
class Problem:
    """The claim and its hypotheses over one shared variable list (every hypothesis normalised to
    g >= 0 or h = 0 the same way as the claim)."""

    claim: Inequality
    hypotheses: tuple[Inequality, ...]

    @property
    def variables(self) -> tuple[str, ...]:
        return self.claim.variables

    @property
    def inequalities(self) -> list[int]:
        """Indices of the hypotheses g >= 0 (strict ones included: g > 0 implies g >= 0)."""
        return [i for i, h in enumerate(self.hypotheses) if not h.is_equality]

    @property
    def equalities(self) -> list[int]:
        return [i for i, h in enumerate(self.hypotheses) if h.is_equality]


def _fail(field: str, message: str) -> MethodInputError:
    return MethodInputError(f"{field}: {message}")


def tokenize(text: str, field: str = "problem", limits: Limits = LIMITS) -> list[Token]:
    """Split `text` into tokens (`≥`/`≤` read as >=/<=, `==` as =); reject unknown characters."""
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
            if value in ("=>", "=<"):
                raise _fail(field, f"relation {value!r} at position {pos} is not supported; use >= or <=")
            value = _UNICODE_RELATIONS.get(value, "=" if value == "==" else value)
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
        bits = coefficient_bits(poly)
        if bits > self.limits.max_coefficient_bits:
            raise self.error(
                f"a coefficient (near position {pos}) has about {int(bits * 0.30103)} digits, above the maximum of "
                f"{int(self.limits.max_coefficient_bits * 0.30103)}; rescale the inequality"
            )
        return poly

    def expression(self) -> Polynomial:
        # accumulate into one dict: adding n terms one polynomial at a time would copy O(n^2) entries
        first = self.term()
        total: dict[Monomial, Fraction] = dict(first.terms)
        while self.current.kind == "op" and self.current.text in "+-":
            op = self.advance()
            right = self.term()
            sign = 1 if op.text == "+" else -1
            for mono, coeff in right.terms.items():
                value = total.get(mono, Fraction(0)) + sign * coeff
                if value:
                    total[mono] = value
                else:
                    total.pop(mono, None)
            if len(total) > self.limits.max_terms:
                raise self.error(f"more than {self.limits.max_terms} terms (near position {op.pos})")
        return self.check(Polynomial(self.variables, total), first_pos(self.tokens, self.index))

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
                if len(result.terms) * len(right.terms) > self.limits.max_products:
                    raise self.error(
                        f"product at position {op.pos} is too large to expand ({len(result.terms) * len(right.terms)} "
                        f"term products, above the maximum of {self.limits.max_products})"
                    )
                if coefficient_bits(result) + coefficient_bits(right) > self.limits.max_coefficient_bits + 64:
                    raise self.error(f"product at position {op.pos} has coefficients too large to expand")
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
            self.check_power(base, exponent, op.pos)
            result = Polynomial.constant(self.variables, 1)
            for _ in range(exponent):
                result = self.check(result * base, op.pos)
            base = result
            if self.current.kind == "op" and self.current.text in ("^", "**"):
                raise self.error(f"chained powers at position {self.current.pos} are ambiguous; use parentheses")
        if self.current.kind in ("num", "name") or (self.current.kind == "op" and self.current.text == "("):
            raise self.error(f"missing operator before {self.current.text!r} at position {self.current.pos}")
        return base

    def check_power(self, base: Polynomial, exponent: int, pos: int) -> None:
        """Bound base^exponent before expanding it, as `term()` bounds a product: the terms of base^k are
        at most the multisets of k base terms, and at most the monomials of degree <= k deg(base) in the
        variables base uses; expanding costs sum_k |base^k| |base| multiplications; the coefficients
        grow to at most k times their bits plus the log of the number of summands."""
        n_terms = len(base.terms)
        if exponent <= 1 or n_terms == 0:
            return
        used = sum(1 for i in range(len(self.variables)) if any(m[i] for m in base.terms))
        cost = 0
        for k in range(1, exponent):
            bound = min(math.comb(n_terms + k - 1, k), math.comb(used + k * base.degree(), used))
            if bound > self.limits.max_terms:
                raise self.error(
                    f"power at position {pos} may expand to {bound} terms, above the maximum of {self.limits.max_terms}"
                )
            cost += bound * n_terms
        if cost > self.limits.max_products:
            raise self.error(
                f"power at position {pos} is too large to expand ({cost} term products, above the maximum of "
                f"{self.limits.max_products})"
            )
        bits = exponent * (coefficient_bits(base) + math.ceil(math.log2(n_terms + 1)))
        if bits > self.limits.max_coefficient_bits + 64:
            raise self.error(
                f"power at position {pos} gives coefficients of about {int(bits * 0.30103)} digits, above the "
                f"maximum of {int(self.limits.max_coefficient_bits * 0.30103)}; rescale the inequality"
            )

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


def coefficient_bits(poly: Polynomial) -> int:
    """The largest bit length of a numerator or denominator in `poly`."""
    return max((max(c.numerator.bit_length(), c.denominator.bit_length()) for c in poly.terms.values()), default=0)


def first_pos(tokens: list[Token], index: int) -> int:
    return tokens[min(index, len(tokens) - 1)].pos


def _collect_variables(token_lists: list[tuple[str, list[Token]]], limits: Limits) -> tuple[str, ...]:
    names = sorted({t.text for _field, tokens in token_lists for t in tokens if t.kind == "name"}, key=natural_key)
    if len(names) > limits.max_variables:
        field = token_lists[0][0] if len(token_lists) == 1 else "problem and hypotheses"
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
    if any(t.kind == "op" and t.text in RELATIONS for t in tokens):
        raise _fail(field, "expected an expression, found a relation")
    found = _collect_variables([(field, tokens)], limits)
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


def _relation(
    tokens: list[Token], variables: tuple[str, ...], field: str, limits: Limits, allow_equality: bool
) -> Inequality:
    """`lhs REL rhs` from one token list; a missing relation is an error, never a silent `>= 0`."""
    relations = [t for t in tokens if t.kind == "op" and t.text in RELATIONS]
    allowed = ">=, <=, >, <" + (" or =" if allow_equality else "")
    if len(tokens) == 1:
        raise _fail(field, "the text is empty")
    if not relations:
        raise _fail(field, f"no relation found; write lhs >= rhs (or {allowed})")
    if len(relations) > 1:
        raise _fail(field, f"more than one relation (second at position {relations[1].pos})")
    if relations[0].text == "=" and not allow_equality:
        raise _fail(field, f"relation '=' at position {relations[0].pos} is not supported here; use {allowed}")
    parser = _Parser(tokens, variables, field, limits)
    lhs = parser.expression()
    if parser.current.kind != "op" or parser.current.text not in RELATIONS:
        raise _fail(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    relation = parser.advance().text
    if parser.current.kind == "end":
        raise _fail(field, f"missing right-hand side after {relation!r}")
    rhs = parser.expression()
    if parser.current.kind != "end":
        raise _fail(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    poly = rhs - lhs if relation in ("<=", "<") else lhs - rhs
    if poly.degree() > limits.max_degree:
        raise _fail(field, f"degree {poly.degree()} is above the maximum of {limits.max_degree}")
    parser.check(poly, 0)
    return Inequality(polynomial=poly, variables=variables, relation=relation, lhs=lhs, rhs=rhs)


def parse_inequality(text: str, field: str = "problem", limits: Limits = LIMITS) -> Inequality:
    """Parse `lhs REL rhs` with REL one of >=, <=, >, < (also written ≥, ≤) into p >= 0 (or p > 0)."""
    tokens = tokenize(text, field, limits)
    variables = _collect_variables([(field, tokens)], limits)
    return _relation(tokens, variables, field, limits, allow_equality=False)


MAX_HYPOTHESES = 8


def parse_problem(problem: str, hypotheses: list[str] | tuple[str, ...] = (), limits: Limits = LIMITS) -> Problem:
    """The claim and its hypotheses (each `g >= h`, `g <= h`, `g > h`, `g < h` or `g = h`) over the union
    of their variables, every text checked against the same limits before anything is expanded."""
    if len(hypotheses) > MAX_HYPOTHESES:
        raise _fail("hypotheses", f"{len(hypotheses)} hypotheses, above the maximum of {MAX_HYPOTHESES}")
    token_lists = [("problem", tokenize(problem, "problem", limits))]
    token_lists += [(f"hypotheses[{k}]", tokenize(text, f"hypotheses[{k}]", limits)) for k, text in enumerate(hypotheses)]
    variables = _collect_variables(token_lists, limits)
    claim = _relation(token_lists[0][1], variables, "problem", limits, allow_equality=False)
    parsed = tuple(
        _relation(tokens, variables, field, limits, allow_equality=True) for field, tokens in token_lists[1:]
    )
    return Problem(claim=claim, hypotheses=parsed)
