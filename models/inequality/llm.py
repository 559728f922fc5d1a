"""LLM proposer: asks an OpenAI-compatible endpoint for candidate squares (off unless configured).

NSPI's neural proposer suggests an SOS decomposition; here the reply is untrusted text. Each line
`coefficient | polynomial` goes through the same safe parser as user input; an exact proposal is
used as is, otherwise the monomials of the proposed squares restrict the SDP's basis, and the usual
exact projection + LDL^T + both checks decide.
The request goes through the shared client `models.common.llm` (settings LLM_BASE_URL, LLM_MODEL,
LLM_API_KEY; timeouts, retries and error messages live there).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import httpx

from models.common.contract import MethodInputError
from models.common.llm import LlmError, chat, llm_config

from .certificate import WeightedSquare
from .parser import Limits, parse_polynomial
from .polynomial import Monomial, Polynomial

__all__ = ["LlmProposal", "exact_match", "llm_configured", "parse_reply", "propose_squares", "restricted_basis"]

_REPLY_LIMITS = Limits(max_chars=50_000, max_terms=2000)
MAX_REPLY_LINES = 200


@dataclass(frozen=True)
class LlmProposal:
    """Parsed candidate squares and the lines that were rejected."""

    squares: list[WeightedSquare]
    rejected: int
    note: str


def llm_configured() -> bool:
    return llm_config().configured


def _prompt(poly: Polynomial) -> str:
    return (
        "Write the polynomial below as a sum of squares with nonnegative rational weights.\n"
        "Answer with one square per line, in the form `weight | polynomial`, meaning weight*(polynomial)^2.\n"
        "Use only the operators + - * / ^, integers and the variables "
        f"{', '.join(poly.variables)}. No other text.\n\n"
        f"p = {poly.format()}"
    )


def parse_reply(text: str, variables: tuple[str, ...]) -> LlmProposal:
    """Keep the lines that parse as `c | q` with c a nonnegative rational and q a polynomial."""
    squares: list[WeightedSquare] = []
    rejected = 0
    for line in text.strip().splitlines()[:MAX_REPLY_LINES]:
        line = line.strip().strip("`").strip()
        if not line:
            continue
        if "|" not in line:
            rejected += 1
            continue
        weight_text, poly_text = line.split("|", 1)
        try:
            weight = parse_polynomial(weight_text, variables=variables, field="llm", limits=_REPLY_LIMITS)
            poly = parse_polynomial(poly_text, variables=variables, field="llm", limits=_REPLY_LIMITS)
        except MethodInputError:
            rejected += 1
            continue
        coeff = weight.constant_value()
        if coeff is None or coeff < 0 or poly.is_zero():
            rejected += 1
            continue
        squares.append(WeightedSquare(coeff, poly))
    return LlmProposal(squares, rejected, f"{len(squares)} square(s) parsed, {rejected} line(s) rejected")


def propose_squares(
    poly: Polynomial, timeout_s: float = 60.0, transport: httpx.BaseTransport | None = None
) -> LlmProposal:
    """One chat request through the shared client; an LlmError gives an empty proposal with its message."""
    try:
        content = chat([{"role": "user", "content": _prompt(poly)}], timeout_s=timeout_s, transport=transport)
    except LlmError as exc:
        return LlmProposal([], 0, f"LLM request failed: {exc}")
    return parse_reply(content, poly.variables)


def restricted_basis(
    squares: list[WeightedSquare], allowed: list[Monomial]
) -> tuple[list[Monomial], int]:
    """The monomials the proposed squares use, kept only where the Newton polytope allows them
    (NSPI's source of scalability: the SDP runs over the LLM's basis, not the full one), and how many
    proposed monomials had to be dropped (a nonzero count means the proposal was repaired)."""
    allowed_set = set(allowed)
    proposed = {mono for square in squares for mono in square.poly.terms}
    kept = sorted(proposed & allowed_set, key=lambda m: (sum(m), tuple(-e for e in m)))
    return kept, len(proposed - allowed_set)


def exact_match(poly: Polynomial, squares: list[WeightedSquare]) -> bool:
    """Whether the proposal is already an exact identity (no refinement needed)."""
    total = Polynomial.constant(poly.variables, 0)
    for square in squares:
        total = total + square.expand()
    return total == poly and all(s.coeff >= Fraction(0) for s in squares)
