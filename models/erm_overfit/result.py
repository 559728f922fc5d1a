"""Result of the derived construction: per training set, the unique ERM, SGD and Feldman's unseen codeword."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

__all__ = ["Instance", "Result", "SeedSummary"]


class Instance(BaseModel):
    """One training set: population excesses (exact) of the unique ERM, of SGD and of an unseen codeword."""

    collisions: int = Field(description="Draws that repeat an earlier coordinate (the paper assumes none).")
    unseen: int = Field(description="Codewords that agree with every sampled sign (in no V_i).")
    closed_form: bool = Field(description="The theorem's conditions held: the unique ERM is h-hat.")
    erm_excess: float = Field(description="Population excess of the unique ERM (Feldman part).")
    erm_train_excess: float = Field(description="Feldman part of the training loss at the ERM minus theta.")
    sgd_excess: float = Field(description="Population excess of one-pass SGD (Feldman part).")
    approx_bound: float = Field(description="Certified lower bound on the excess of every epsilon-approximate ERM.")
    feldman_excess: float | None = Field(description="Population excess of an unseen codeword (Feldman 2016).")


class SeedSummary(BaseModel):
    seed: int
    overfit_rate: float
    overfit_lower: float = Field(description="Clopper-Pearson 95% lower bound of the overfitting rate.")
    approx_rate: float
    approx_lower: float
    no_collision_rate: float | None
    erm_excess: float
    sgd_excess: float
    solver_error: float | None = Field(description="max |closed form - solver| on the checked sets.")


class Result(MethodResult):
    samples: int
    dimension: int
    code_size: int
    coherence: float
    theta: float
    guarantee: float = Field(description="(1 - margin)/sqrt(m d): the excess the theorem guarantees.")
    strong_convexity: float
    noise_scale: float
    epsilon: float
    summaries: list[SeedSummary]
    instances: list[list[Instance]]

    def metrics(self) -> dict[str, float | int | str]:
        pooled = [i for seed in self.instances for i in seed]
        over = sum(i.erm_excess >= self.guarantee for i in pooled)
        return {
            "Code: codewords x dimension (d = 6m)": f"{self.code_size:,} x {self.dimension}",
            "Threshold theta": round(self.theta, 4),
            "Overfitting margin gamma (theorem's guarantee)": round(self.guarantee, 4),
            "lambda = m^-1.5": round(self.strong_convexity, 5),
            "Training sets where the unique ERM overfits": f"{over} of {len(pooled)}",
            "Unique ERM: mean population excess": round(sum(i.erm_excess for i in pooled) / len(pooled), 4),
            "One-pass SGD: mean population excess": round(sum(i.sgd_excess for i in pooled) / len(pooled), 4),
            "Training sets with a repeated coordinate": sum(i.collisions > 0 for i in pooled),
        }

    def artifacts(self) -> dict[str, Artifact]:
        buffer = io.StringIO()
        fields = list(Instance.model_fields)
        writer = csv.writer(buffer)
        writer.writerow(["seed", *fields])
        for summary, rows in zip(self.summaries, self.instances, strict=True):
            for row in rows:
                values = [getattr(row, f) for f in fields]
                writer.writerow([summary.seed, *("" if v is None else (f"{v:.6g}" if isinstance(v, float) else v)
                                                 for v in values)])
        return {"instances.csv": Artifact.csv(buffer.getvalue())}
