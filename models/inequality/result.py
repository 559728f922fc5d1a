"""Result of the inequality prover: status, certificate, counterexample, per-stage timings."""

from __future__ import annotations

import csv
import io
import json
from typing import Literal

from pydantic import BaseModel, Field

from models.common.contract import Answer, Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import seconds, words

__all__ = ["CheckOut", "CounterexampleOut", "EqualityOut", "LeanOut", "ProductOut", "Result", "SquareOut", "Stage"]


class SquareOut(BaseModel):
    """coeff * poly^2 with an exact rational coefficient (as text) and a polynomial in the input syntax."""

    coeff: str
    poly: str


class ProductOut(BaseModel):
    """prod(g_i for i in hypotheses) * sum of coeff * poly^2."""

    hypotheses: list[int]
    squares: list[SquareOut] = Field(default_factory=list)


class EqualityOut(BaseModel):
    """h * poly for the equality hypothesis h (left - right = 0)."""

    hypothesis: int
    poly: str


class CertificateOut(BaseModel):
    """multiplier * (p - margin) = sum coeff*poly^2 + sum prod(g) * sum coeff*poly^2 + sum h*poly (exactly)."""

    multiplier: str | None = None
    margin: str = "0"
    squares: list[SquareOut] = Field(default_factory=list)
    products: list[ProductOut] = Field(default_factory=list)
    equalities: list[EqualityOut] = Field(default_factory=list)


class CheckOut(BaseModel):
    """One of the two independent checks: passed, failed (with why) or not_run."""

    status: Literal["passed", "failed", "not_run"] = "not_run"
    detail: str = ""


class LeanOut(BaseModel):
    """Lean's verdict: accepted, rejected (with messages) or not_available (with why)."""

    status: Literal["accepted", "rejected", "not_available", "not_run"] = "not_run"
    file: str | None = None
    messages: str = ""


class CounterexampleOut(BaseModel):
    """An exact rational point satisfying every hypothesis, with p(point) = value < 0 (<= 0 for a strict claim)."""

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
    relation: str = ">="
    strict: bool = False
    hypotheses: list[str] = Field(default_factory=list, description="each hypothesis normalised: `g >= 0`, `g > 0` or `h = 0`")
    polynomial: str = Field(description="p (lhs - rhs, or rhs - lhs for <= and <), to be shown >= 0 (> 0 when strict)")
    polynomial_latex: str = ""
    degree: int = 0
    n_terms: int = 0
    certificate: CertificateOut | None = None
    certificate_latex: str = ""
    multiplier_latex: str = ""
    checker: str = ""
    exact_check: CheckOut = Field(default_factory=CheckOut)
    independent_check: CheckOut = Field(default_factory=CheckOut)
    route: str = ""
    llm: str = "not requested"
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
    sdp_margin: float | None = None
    denominator: int = 0
    facial_rounds: int = 0
    multiplier_power: int = 0
    gram_labels: list[str] = Field(default_factory=list)
    gram: list[list[float]] = Field(default_factory=list)
    slice_t: list[float] = Field(default_factory=list)
    slice_values: list[float] = Field(default_factory=list)
    total_seconds: float = 0.0

    def answer(self) -> Answer:
        domain = " under the hypotheses" if self.hypotheses else " over all reals"
        if self.status == "proved":
            margin = self.certificate.margin if self.certificate is not None else "0"
            extra = f", margin {margin}" if self.strict else ""
            return Answer("Proved", "success", f"exact checker and independent evaluation both accept{extra}{domain}")
        if self.status == "refuted" and self.counterexample is not None:
            point = ", ".join(f"{k} = {v}" for k, v in self.counterexample.point.items())
            text = f"p({point}) = {self.counterexample.value}"
            return Answer("Refuted", "error", text if len(text) <= 160 else text[:157] + "...")
        reason = self.reason or "no certificate found"
        return Answer("Not proved", "warning", reason if len(reason) <= 200 else reason[:197] + "...")

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {
            "Status": self.status,
            "Variables": len(self.variables),
            "Hypotheses": len(self.hypotheses),
            "Degree of p": self.degree,
            "Terms in p": self.n_terms,
            "Total time (s)": round(self.total_seconds, 3),
        }
        if self.status == "proved" and self.certificate is not None:
            out["Route"] = self.route
            out["Margin (p - margin >= 0)"] = self.certificate.margin
            out["Squares in s_0"] = len(self.certificate.squares)
            out["Hypothesis terms"] = len(self.certificate.products)
            out["Equality terms"] = len(self.certificate.equalities)
            out["Multiplier power k"] = self.multiplier_power
            out["Gram basis size (reduced / full)"] = f"{self.basis_size} / {self.full_basis_size}"
            out["Gram blocks"] = ", ".join(str(b) for b in self.block_sizes) or "-"
            out["Rounding denominator"] = self.denominator
            out["Facial reduction rounds"] = self.facial_rounds
            out["Exact checker"] = f"{self.exact_check.status}: {self.exact_check.detail}"
            out["Independent evaluation"] = f"{self.independent_check.status}: {self.independent_check.detail}"
            out["Lean"] = self.lean.status
        if self.llm != "not requested":
            out["LLM proposal"] = self.llm
        if self.status == "refuted" and self.counterexample is not None:
            out["p at counterexample"] = self.counterexample.value
        if self.reason:
            out["Reason"] = self.reason
        return out

    def tables(self) -> list[Table]:
        """The pipeline's stages, then the certificate's terms (proved) or the counterexample (refuted)."""
        text = "text"
        tables = [Table(title="Pipeline", rows=[{"step": s.name, "outcome": words(s.status), "time": seconds(s.seconds),
                                                  "detail": words(s.detail)} for s in self.stages],
                        columns=[Column(key="step", label="step", fmt=text), Column(key="outcome", label="outcome", fmt=text),
                                 Column(key="time", label="time", fmt=text),
                                 Column(key="detail", label="detail", fmt=text)])] if self.stages else []
        if self.certificate is not None:
            c = self.certificate
            rows: list[dict[str, Cell]] = [{"part": "s_0", "coeff": s.coeff, "poly": s.poly} for s in c.squares]
            for term in c.products:
                part = " * ".join(f"g{i + 1}" for i in term.hypotheses)
                rows += [{"part": part, "coeff": s.coeff, "poly": s.poly} for s in term.squares]
            rows += [{"part": f"h{e.hypothesis + 1} * lambda", "coeff": "1", "poly": f"lambda = {e.poly} (not squared)"}
                     for e in c.equalities]
            if rows:
                tables.append(Table(title="Certificate", rows=rows, columns=[
                    Column(key="part", label="part", fmt=text), Column(key="coeff", label="coefficient", fmt=text),
                    Column(key="poly", label="polynomial (squared)", fmt=text)],
                    caption="Every coefficient is an exact rational; g_i, h_j are the hypotheses as shown above."))
        if self.counterexample is not None and self.counterexample.point:
            tables.append(Table(title="Counterexample", rows=[
                {"variable": name, "value": value} for name, value in self.counterexample.point.items()],
                columns=[Column(key="variable", label="variable", fmt=text),
                         Column(key="value", label="exact value", fmt=text)]))
        return tables

    def artifacts(self) -> dict[str, Artifact]:
        files: dict[str, Artifact] = {}
        if self.certificate is not None:
            payload = {
                "variables": self.variables,
                "polynomial": self.polynomial,
                "hypotheses": self.hypotheses,
                "statement": "multiplier * (p - margin) = sum coeff*poly^2 + sum prod(g) * sum coeff*poly^2 + sum h*poly",
                **json.loads(self.certificate.model_dump_json()),
            }
            files["certificate.json"] = Artifact.json(payload)
        if self.lean_source:
            files["proof.lean"] = Artifact.text(self.lean_source)
        files["stages.csv"] = Artifact.csv(_csv(["stage", "seconds", "status", "detail"],
                                                [[s.name, s.seconds, s.status, s.detail] for s in self.stages]))
        if self.slice_t:
            files["slice.csv"] = Artifact.csv(_csv(["t", "p(t x*)"], list(zip(self.slice_t, self.slice_values, strict=True))))
        return files


def _csv(header: list[str], rows: list[list[object]] | list[tuple[float, float]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
