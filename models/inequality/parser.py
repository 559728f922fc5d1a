"""Safe tokenizer and recursive-descent parser for polynomial expressions and inequalities.

User text is never handed to eval, sympify or any other code-executing parser: it is split into a
small set of tokens (numbers, names, + - * / ^ ** ( ) and the relations >= <= > < = ≥ ≤) and everything
else is rejected with a message that names the position. Every product and power is bounded (terms,
term products, coefficient size) before it is expanded. Tokens come from `tokenizer`, expansion from
`descent`; this module reads claims and hypotheses (`lhs REL rhs`) over one shared variable list.
"""

from __future__ import annotations

from dataclasses import dataclass

from .descent import ExpressionParser
from .polynomial import Polynomial, natural_key
from .tokenizer import LIMITS, RELATIONS, Limits, Token, input_error, tokenize

__all__ = [
    "LIMITS",
    "MAX_HYPOTHESES",
    "RELATIONS",
    "Inequality",
    "Limits",
    "Problem",
    "parse_inequality",
    "parse_polynomial",
    "parse_problem",
    "tokenize",
]


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


def _collect_variables(token_lists: list[tuple[str, list[Token]]], limits: Limits) -> tuple[str, ...]:
    names = sorted({t.text for _field, tokens in token_lists for t in tokens if t.kind == "name"}, key=natural_key)
    if len(names) > limits.max_variables:
        field = token_lists[0][0] if len(token_lists) == 1 else "problem and hypotheses"
        raise input_error(field, f"{len(names)} variables, above the maximum of {limits.max_variables}")
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
        raise input_error(field, "expected an expression, found a relation")
    found = _collect_variables([(field, tokens)], limits)
    if variables is None:
        variables = found
    else:
        unknown = [n for n in found if n not in variables]
        if unknown:
            raise input_error(field, f"unknown variable {unknown[0]!r}")
    parser = ExpressionParser(tokens, variables, field, limits)
    poly = parser.expression()
    if parser.current.kind != "end":
        raise input_error(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    return poly


def _relation(
    tokens: list[Token], variables: tuple[str, ...], field: str, limits: Limits, allow_equality: bool
) -> Inequality:
    """`lhs REL rhs` from one token list; a missing relation is an error, never a silent `>= 0`."""
    relations = [t for t in tokens if t.kind == "op" and t.text in RELATIONS]
    allowed = ">=, <=, >, <" + (" or =" if allow_equality else "")
    if len(tokens) == 1:
        raise input_error(field, "the text is empty")
    if not relations:
        raise input_error(field, f"no relation found; write lhs >= rhs (or {allowed})")
    if len(relations) > 1:
        raise input_error(field, f"more than one relation (second at position {relations[1].pos})")
    if relations[0].text == "=" and not allow_equality:
        raise input_error(field, f"relation '=' at position {relations[0].pos} is not supported here; use {allowed}")
    parser = ExpressionParser(tokens, variables, field, limits)
    lhs = parser.expression()
    if parser.current.kind != "op" or parser.current.text not in RELATIONS:
        raise input_error(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    relation = parser.advance().text
    if parser.current.kind == "end":
        raise input_error(field, f"missing right-hand side after {relation!r}")
    rhs = parser.expression()
    if parser.current.kind != "end":
        raise input_error(field, f"unexpected {parser.current.text!r} at position {parser.current.pos}")
    poly = rhs - lhs if relation in ("<=", "<") else lhs - rhs
    if poly.degree() > limits.max_degree:
        raise input_error(field, f"degree {poly.degree()} is above the maximum of {limits.max_degree}")
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
        raise input_error("hypotheses", f"{len(hypotheses)} hypotheses, above the maximum of {MAX_HYPOTHESES}")
    token_lists = [("problem", tokenize(problem, "problem", limits))]
    token_lists += [(f"hypotheses[{k}]", tokenize(text, f"hypotheses[{k}]", limits)) for k, text in enumerate(hypotheses)]
    variables = _collect_variables(token_lists, limits)
    claim = _relation(token_lists[0][1], variables, "problem", limits, allow_equality=False)
    parsed = tuple(
        _relation(tokens, variables, field, limits, allow_equality=True) for field, tokens in token_lists[1:]
    )
    return Problem(claim=claim, hypotheses=parsed)
