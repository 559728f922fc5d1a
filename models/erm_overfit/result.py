"""Result of the best-case-ERM construction: per seed, the bad exact ERM and the solver's unique regularised ERM."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

__all__ = ["Result", "SeedOutcome"]


class SeedOutcome(BaseModel):
    """One training sample: the unseen codewords, the exact bad ERM and the regularised ERM (all exact losses)."""

    seed: int
    unseen: int = Field(description="Codewords in none of the m samples.")
    bad_erm_train_excess: float | None = Field(description="Feldman part of the training loss of an unseen codeword "
                                                           "minus theta (0 = an exact minimiser).")
    bad_erm_excess: float | None = Field(description="Population excess of that codeword (Feldman part).")
    erm_excess: float = Field(description="Population excess of the regularised ERM, Feldman part.")
    erm_excess_total: float = Field(description="Population excess of the regularised ERM, with lambda/2 ||x||^2.")
    erm_norm: float
    erm_max_inner: float = Field(description="max <w, x> over all codewords at the regularised ERM.")
    erm_max_unseen_inner: float | None = Field(description="max <u, x> over the unseen codewords.")
    zero_minus_erm: float = Field(description="Empirical objective at x = 0 minus that at the regularised ERM.")
    solver_gap: float = Field(description="Exact objective minus the certified dual bound.")
    solver_status: str


class Result(MethodResult):
    samples: int
    dimension: int
    code_size: int
    coherence: float
    theta: float
    strong_convexity: float
    noise_scale: float
    guarantee: float = Field(description="(1 - theta) / 2: the excess an unseen codeword is guaranteed.")
    outcomes: list[SeedOutcome]
    inner_products: list[float] = Field(description="First seed: <w, x> at the regularised ERM, every codeword.")
    unseen_mask: list[bool]

    def metrics(self) -> dict[str, float | int | str]:
        first = self.outcomes[0]
        return {
            "Code: codewords x dimension (d = 6m)": f"{self.code_size:,} x {self.dimension}",
            "Coherence max <w, w'> (exact)": round(self.coherence, 4),
            "Feldman threshold theta": round(self.theta, 4),
            "lambda (m^-1.5 scale)": round(self.strong_convexity, 5),
            "Guaranteed excess of an unseen codeword, (1 - theta)/2": round(self.guarantee, 4),
            "Unseen codewords, first seed (expected 2^extra)": first.unseen,
            "Regularised ERM: population excess, first seed": round(first.erm_excess_total, 4),
            "Regularised ERM: norm, first seed": round(first.erm_norm, 4),
            "Solver: certified suboptimality, first seed": f"{first.solver_gap:.1e}",
        }

    def artifacts(self) -> dict[str, Artifact]:
        buffer = io.StringIO()
        fields = list(SeedOutcome.model_fields)
        buffer.write(",".join(fields) + "\n")
        for o in self.outcomes:
            values = [getattr(o, f) for f in fields]
            buffer.write(",".join("" if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))
                                  for v in values) + "\n")
        return {"seeds.csv": Artifact.csv(buffer.getvalue())}
