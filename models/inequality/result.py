"""Result of the inequality prover: status, certificate, counterexample, per-stage timings."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

__all__ = ["CounterexampleOut", "LeanOut", "Result", "SquareOut", "Stage"]


class SquareOut(BaseModel):
    """coeff * poly^2 with an exact rational coefficient (as text) and a polynomial in the input syntax."""

    coeff: str
    poly: str


class CertificateOut(BaseModel):
    """(sum of multiplier squares, or 1 when null) * p = sum of squares."""

    multiplier: list[SquareOut] | None = None
    squares: list[SquareOut] = Field(default_factory=list)


class LeanOut(BaseModel):
    """Lean's verdict: accepted, rejected (with messages) or not_available (with why)."""

    status: Literal["accepted", "rejected", "not_available", "not_run"] = "not_run"
    file: str | None = None
    messages: str = ""


class CounterexampleOut(BaseModel):
    """An exact rational point with p(point) = value < 0."""

    point: dict[str, str]
    value: str


class Stage(BaseModel):
    """One pipeline step as the page shows it."""

    name: str
    seconds: float
    status: str
    detail: str = ""


class Result(MethodResult):
    status: Literal["proved", "refuted", "not_proved"]
    variables: list[str]
    polynomial: str = Field(description="p = lhs - rhs, the polynomial shown to be >= 0 (input syntax)")
    polynomial_latex: str = ""
    degree: int = 0
    n_terms: int = 0
    certificate: CertificateOut | None = None
    certificate_latex: str = ""
    multiplier_latex: str = ""
    checker: str = ""
    lean: LeanOut = Field(default_factory=LeanOut)
    lean_source: str | None = None
    counterexample: CounterexampleOut | None = None
    reason: str | None = None
    stages: list[Stage] = Field(default_factory=list)
    proposer: str = ""
    sparsity: str = ""
    basis_size: int = 0
    full_basis_size: int = 0
    block_sizes: list[int] = Field(default_factory=list)
    margin: float | None = None
    denominator: int = 0
    facial_rounds: int = 0
    multiplier_power: int = 0
    gram_labels: list[str] = Field(default_factory=list)
    gram: list[list[float]] = Field(default_factory=list)
    slice_t: list[float] = Field(default_factory=list)
    slice_values: list[float] = Field(default_factory=list)
    total_seconds: float = 0.0

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            "Status": self.status,
            "Variables": len(self.variables),
            "Degree of p": self.degree,
            "Terms in p": self.n_terms,
            "Total time (s)": round(self.total_seconds, 3),
        }
        if self.status == "proved" and self.certificate is not None:
            out["Squares in certificate"] = len(self.certificate.squares)
            out["Multiplier power k"] = self.multiplier_power
            out["Gram basis size (reduced / full)"] = f"{self.basis_size} / {self.full_basis_size}"
            out["Gram blocks"] = ", ".join(str(b) for b in self.block_sizes) or "-"
            out["Rounding denominator"] = self.denominator
            out["Facial reduction rounds"] = self.facial_rounds
            out["Exact checker"] = self.checker
            out["Lean"] = self.lean.status
        if self.status == "refuted" and self.counterexample is not None:
            out["p at counterexample"] = self.counterexample.value
        if self.reason:
            out["Reason"] = self.reason
        return out

    def artifacts(self) -> dict[str, Artifact]:
        files: dict[str, Artifact] = {}
        if self.certificate is not None:
            payload = {
                "variables": self.variables,
                "polynomial": self.polynomial,
                "statement": "(sum of multiplier squares, or 1) * polynomial = sum of coeff * poly^2",
                **json.loads(self.certificate.model_dump_json()),
            }
            files["certificate.json"] = Artifact.json(payload)
        if self.lean_source:
            files["proof.lean"] = Artifact.text(self.lean_source)
        return files
