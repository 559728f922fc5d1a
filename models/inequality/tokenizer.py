"""Tokenizing user text: numbers, names, + - * / ^ ** ( ) and the relations >= <= > < = ≥ ≤, nothing else.

User text is never handed to eval, sympify or any other code-executing parser; anything outside this
small set of tokens is rejected with a message that names the position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.common.contract import MethodInputError

__all__ = ["LIMITS", "RELATIONS", "Limits", "Token", "input_error", "tokenize"]


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



def input_error(field: str, message: str) -> MethodInputError:
    return MethodInputError(f"{field}: {message}")


def tokenize(text: str, field: str = "problem", limits: Limits = LIMITS) -> list[Token]:
    """Split `text` into tokens (`≥`/`≤` read as >=/<=, `==` as =); reject unknown characters."""
    if len(text) > limits.max_chars:
        raise input_error(field, f"input has {len(text)} characters, above the maximum of {limits.max_chars}")
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            ch = text[pos]
            hint = " (attribute access is not allowed)" if ch == "." else ""
            raise input_error(field, f"unknown character {ch!r} at position {pos}{hint}")
        kind = match.lastgroup or ""
        value = match.group()
        if kind == "num":
            if match.end() < len(text) and text[match.end()] == ".":
                raise input_error(field, f"unexpected '.' at position {match.end()} (attribute access is not allowed)")
            if len(value.replace(".", "")) > limits.max_number_digits:
                raise input_error(field, f"number at position {pos} has more than {limits.max_number_digits} digits")
        elif kind == "name":
            if value.startswith("_"):
                raise input_error(field, f"name {value[:30]!r} at position {pos} must start with a letter")
            if len(value) > limits.max_name_length:
                raise input_error(field, f"name at position {pos} is longer than {limits.max_name_length} characters")
            if match.end() < len(text) and text[match.end()] == ".":
                raise input_error(field, f"unexpected '.' at position {match.end()} (attribute access is not allowed)")
        elif kind == "op":
            if value in ("=>", "=<"):
                raise input_error(field, f"relation {value!r} at position {pos} is not supported; use >= or <=")
            value = _UNICODE_RELATIONS.get(value, "=" if value == "==" else value)
        if kind != "space":
            tokens.append(Token(kind, value, pos))
        pos = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens
