"""LLM proposer: asks an OpenAI-compatible endpoint for candidate squares (off unless configured).

NSPI's neural proposer suggests an SOS decomposition; here the reply is untrusted text. Each line
`coefficient | polynomial` goes through the same safe parser as user input, the candidate squares
become a Gram matrix over the basis, and the usual exact projection + LDL^T + checker decide.
Settings are read from the environment at call time: LLM_BASE_URL and LLM_MODEL (LLM_API_KEY
optional).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction

import httpx
import numpy as np

from models.common.contract import MethodInputError

from .certificate import WeightedSquare
from .gram import GramSystem
from .parser import Limits, parse_polynomial
from .polynomial import Polynomial
from .sdp import SdpSolution

__all__ = ["LlmProposal", "gram_from_squares", "llm_configured", "parse_reply", "propose_squares"]

_REPLY_LIMITS = Limits(max_chars=50_000, max_terms=2000)
MAX_REPLY_LINES = 200


@dataclass(frozen=True)
class LlmProposal:
    """Parsed candidate squares and the lines that were rejected."""

    squares: list[WeightedSquare]
    rejected: int
    note: str


def llm_configured() -> bool:
    return bool(os.environ.get("LLM_BASE_URL", "").strip() and os.environ.get("LLM_MODEL", "").strip())


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
    """One chat-completion request (temperature 0); network or format errors give an empty proposal."""
    base = os.environ.get("LLM_BASE_URL", "").rstrip("/")
    model = os.environ.get("LLM_MODEL", "")
    headers = {}
    if os.environ.get("LLM_API_KEY"):
        headers["Authorization"] = f"Bearer {os.environ['LLM_API_KEY']}"
    body = {"model": model, "temperature": 0, "messages": [{"role": "user", "content": _prompt(poly)}]}
    try:
        with httpx.Client(timeout=timeout_s, transport=transport) as client:
            response = client.post(f"{base}/chat/completions", json=body, headers=headers)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
    except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
        return LlmProposal([], 0, f"LLM request failed: {type(exc).__name__}")
    if not isinstance(content, str):
        return LlmProposal([], 0, "LLM reply has no text content")
    return parse_reply(content, poly.variables)


def gram_from_squares(system: GramSystem, squares: list[WeightedSquare]) -> SdpSolution | None:
    """Q = sum c v v^T where v are the coordinates of each square in the (single-block, monomial)
    basis; None when a square uses a monomial outside the basis."""
    if len(system.blocks) != 1 or not system.blocks[0].is_monomial or not squares:
        return None
    basis = system.blocks[0].basis
    index = {next(iter(q.terms)): k for k, q in enumerate(basis)}
    gram = np.zeros((len(basis), len(basis)))
    for square in squares:
        vector = np.zeros(len(basis))
        for mono, coeff in square.poly.terms.items():
            if mono not in index:
                return None
            vector[index[mono]] = float(coeff)
        gram += float(square.coeff) * np.outer(vector, vector)
    eigenvalues = np.linalg.eigvalsh(gram)
    scale = max(float(abs(c)) for c in system.rhs) or 1.0
    return SdpSolution([gram], float(eigenvalues[0]) / scale, "llm", "proposed")


def exact_match(poly: Polynomial, squares: list[WeightedSquare]) -> bool:
    """Whether the proposal is already an exact identity (no refinement needed)."""
    total = Polynomial.constant(poly.variables, 0)
    for square in squares:
        total = total + square.expand()
    return total == poly and all(s.coeff >= Fraction(0) for s in squares)
