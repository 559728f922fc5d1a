"""Parameters of the inequality prover (bounded so one job stays small on a shared server)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Params"]


class Params(BaseModel):
    """What to prove and how hard to try."""

    model_config = ConfigDict(extra="forbid")

    problem: str = Field(
        default="x^2 + y^2 >= 2*x*y",
        min_length=1,
        max_length=20000,
        description="A polynomial inequality `lhs >= rhs` or `lhs <= rhs` (or an expression meaning expr >= 0). "
        "Operators + - * / ^ **, integers, decimals, rationals like 3/4, variable names; at most 12 variables "
        "and degree 12.",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Seed of the refuter's random restarts.")
    refute_starts: int = Field(
        default=16, ge=0, le=200, description="Random restarts of the local minimiser that looks for p < 0."
    )
    max_multiplier_power: int = Field(
        default=2,
        ge=0,
        le=3,
        description="Largest k tried in the multiplier D = (1 + |x|^2)^k, or (|x|^2)^k for forms, when p is not SOS.",
    )
    sparsity: bool = Field(default=True, description="Try correlative and term-sparsity blocks before one dense Gram block.")
    facial_reduction: bool = Field(
        default=True, description="On a singular Gram matrix, restrict to its rational kernel's complement and re-solve."
    )
    max_bits: int = Field(
        default=48, ge=8, le=96, description="Finest rounding grid 2^-max_bits tried before giving up."
    )
    max_gram: int = Field(
        default=91,
        ge=4,
        le=100,
        description="Largest Gram block the SDP may use (91 = every monomial of degree <= 2 in 12 variables); "
        "bounds the solver's memory.",
    )
    time_budget_s: float = Field(
        default=60.0,
        ge=1.0,
        le=240.0,
        description="Wall-clock budget of the certificate search (SDP, rounding, exact projection), seconds; "
        "past it the answer is not_proved with the reason, instead of running into the job's time limit.",
    )
    solver: Literal["clarabel", "scs"] = Field(
        default="clarabel", description="SDP solver tried first (the other one is the fallback)."
    )
    use_llm: bool = Field(
        default=False,
        description="Ask the LLM proposer (LLM_BASE_URL / LLM_MODEL on the server) for candidate squares first.",
    )
    lean_check: bool = Field(
        default=True, description="Run Lean on proof.lean when the server has LEAN_PROJECT and lake."
    )
    lean_timeout_s: int = Field(default=120, ge=10, le=280, description="Wall-clock limit of the Lean check, seconds.")
