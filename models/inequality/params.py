"""Parameters of the inequality prover (bounded so one job stays small on a shared server)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["CertificateIn", "EqualityIn", "Params", "ProductIn", "SquareIn"]

Hypothesis = Annotated[str, Field(min_length=1, max_length=2000)]
HypothesisIndex = Annotated[int, Field(ge=0, le=7)]


def _poly() -> Any:
    return Field(min_length=1, max_length=200_000, description="A polynomial in the problem's syntax (`^` for powers).")


def _coeff() -> Any:
    return Field(min_length=1, max_length=2000, description="An exact nonnegative rational such as `3/4`.")


class SquareIn(BaseModel):
    """coeff * poly^2."""

    model_config = ConfigDict(extra="forbid")
    coeff: str = _coeff()
    poly: str = _poly()


class ProductIn(BaseModel):
    """prod(g_i for i in hypotheses) * sum of squares."""

    model_config = ConfigDict(extra="forbid")
    hypotheses: list[HypothesisIndex] = Field(title="Hypotheses, one per line (e.g. x >= 0, x + y + z = 1)", min_length=1, max_length=8, description="Indices (0-based) of inequality hypotheses.")
    squares: list[SquareIn] = Field(default_factory=list, max_length=500, description="The weighted squares.")


class EqualityIn(BaseModel):
    """h_j * poly with h_j = left - right of equality hypothesis j."""

    model_config = ConfigDict(extra="forbid")
    hypothesis: int = Field(ge=0, le=7, description="Index (0-based) of an equality hypothesis.")
    poly: str = _poly()


class CertificateIn(BaseModel):
    """A certificate in the output format: multiplier * (p - margin) = squares + products + equalities."""

    model_config = ConfigDict(extra="forbid")
    multiplier: str | None = Field(default=None, max_length=20_000, description="null (1), or (1 + |x|^2)^k expanded.")
    margin: str = Field(default="0", max_length=2000, description="Rational margin, > 0 for a strict claim.")
    squares: list[SquareIn] = Field(default_factory=list, max_length=2000, description="The s_0 part.")
    products: list[ProductIn] = Field(default_factory=list, max_length=40, description="The hypothesis terms.")
    equalities: list[EqualityIn] = Field(default_factory=list, max_length=8, description="The equality terms.")


class Params(BaseModel):
    """What to prove and how hard to try."""

    model_config = ConfigDict(extra="forbid")

    problem: str = Field(
        title="Inequality (>=, <=, ≥, ≤; > and < are strict)", default="x^2 + y^2 >= 2*x*y",
        min_length=1,
        max_length=20000,
        description="A polynomial inequality `lhs >= rhs`, `lhs <= rhs` (also ≥, ≤) or strict `lhs > rhs`, "
        "`lhs < rhs`, claimed for all real values of its variables that satisfy the hypotheses. Operators "
        "+ - * / ^ **, integers, decimals, rationals like 3/4, variable names; at most 12 variables and degree 12.",
    )
    hypotheses: list[Hypothesis] = Field(
        default_factory=list,
        max_length=8,
        description="Hypotheses, one per entry: `g >= h`, `g <= h`, `g > h`, `g < h` or `g = h` (same syntax and "
        "limits as the problem), e.g. `x >= 0`, `x + y + z = 1`. Empty: the claim is over all reals.",
    )
    certificate: CertificateIn | None = Field(
        default=None,
        description="Optional certificate to verify (the output format): checked exactly by both checks and "
        "exported to Lean, without any search.",
    )
    degree_bound: int = Field(
        title="Degree bound 2d under hypotheses (0 = automatic)", default=0,
        ge=0,
        le=12,
        description="Largest degree 2d of the terms s_k * prod(g) tried under hypotheses (0: the smallest even "
        "degree covering the problem and every hypothesis). Larger allows more certificates and costs more.",
    )
    fast_paths: bool = Field(
        title="Term-wise, DSOS (LP) and SDSOS (SOCP) fast paths first", default=True,
        description="Try a term-wise certificate and a DSOS linear program (Ahmadi-Majumdar) before the SDP.",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Seed of the refuter's random restarts (and of the first seed's checks).")
    seeds: int = seeds_field(default=1, maximum=5)
    refute_starts: int = Field(
        title="Refuter restarts", default=16, ge=0, le=200, description="Random restarts of the local minimiser that looks for p < 0."
    )
    max_multiplier_power: int = Field(
        title="Largest multiplier power k", default=2,
        ge=0,
        le=3,
        description="Largest k tried in the multiplier D = (1 + |x|^2)^k, or (|x|^2)^k for forms, when p is not SOS.",
    )
    sparsity: bool = Field(title="Correlative / term sparsity", default=True, description="Try correlative and term-sparsity blocks before one dense Gram block.")
    facial_reduction: bool = Field(
        title="Facial reduction", default=True, description="On a singular Gram matrix, restrict to its rational kernel's complement and re-solve."
    )
    max_bits: int = Field(
        title="Finest rounding grid (bits)", default=48, ge=8, le=96, description="Finest rounding grid 2^-max_bits tried before giving up."
    )
    max_gram: int = Field(
        title="Largest Gram block", default=91,
        ge=4,
        le=100,
        description="Largest Gram block the SDP may use (91 = every monomial of degree <= 2 in 12 variables); "
        "bounds the solver's memory.",
    )
    time_budget_s: float = Field(
        title="Time budget of the whole search", json_schema_extra={"unit": "s"}, default=60.0,
        ge=1.0,
        le=240.0,
        description="Wall-clock budget of the whole search (refuter, basis, sparsity, LP/SDP, rounding, exact "
        "projection, checks), seconds; past it the answer is not_proved with the reason.",
    )
    solver: Literal["clarabel", "scs"] = Field(
        title="SDP solver", default="clarabel", description="SDP solver tried first (the other one is the fallback)."
    )
    use_llm: bool = Field(
        title="LLM proposes the basis (if the server has one)", default=False,
        description="Ask the LLM proposer (LLM_BASE_URL / LLM_MODEL on the server) for candidate squares; their "
        "monomials restrict the SDP's basis (the pipeline table says whether the proposal was used, repaired or "
        "ignored).",
    )
    lean_check: bool = Field(
        title="Check with Lean (if the server has it)", default=True, description="Run Lean on proof.lean when the server has LEAN_PROJECT and lake."
    )
    lean_timeout_s: int = Field(title="Lean time limit", json_schema_extra={"unit": "s"}, default=120, ge=10, le=280, description="Wall-clock limit of the Lean check, seconds.")
