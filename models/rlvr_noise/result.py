"""Result of a noisy-verifier RLVR run: final incorrect mass, hitting times, curves and the phase diagram."""

from __future__ import annotations

import io

from pydantic import BaseModel

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["Checks", "FinalMass", "MassCurve", "PhaseDiagram", "RateFit", "Result", "TimeToThreshold"]

THRESHOLD = 0.05


class FinalMass(BaseModel):
    """Incorrect mass after the last step for one J (bandit: mean and 10-90% band over seeds)."""

    j: float
    fnr: float
    mean_field: float
    bandit_mean: float
    bandit_se: float
    bandit_q10: float
    bandit_q90: float


class TimeToThreshold(BaseModel):
    """Steps until the incorrect mass first reaches <= 0.05 (None if never within the run)."""

    j: float
    mean_field: int | None
    bandit_mean: int | None


class MassCurve(BaseModel):
    """Incorrect mass against `Result.curve_steps` for one J."""

    j: float
    mean_field: list[float]
    bandit_mean: list[float]
    bandit_q10: list[float]
    bandit_q90: list[float]


class PhaseDiagram(BaseModel):
    """Mean-field incorrect mass after `steps` on an (FPR, FNR) grid; mass[i][k] is at fnr[i], fpr[k]."""

    fpr: list[float]
    fnr: list[float]
    mass: list[list[float]]


class RateFit(BaseModel):
    """Fit of time-to-threshold ~ c (1/J)^exponent over the J > 0 that reach the threshold."""

    model: str
    exponent: float
    exponent_low: float | None
    exponent_high: float | None
    points: int


class Checks(BaseModel):
    """The paper's three claims in this run (None: not testable with these settings)."""

    boundary: bool
    boundary_detail: str
    neutral: bool | None
    neutral_detail: str
    rate: bool | None
    rate_detail: str


class Result(MethodResult):
    fpr: float
    steps: int
    seeds: int
    initial_incorrect_mass: float
    final_incorrect_mass: list[FinalMass]
    time_to_threshold: list[TimeToThreshold]
    curve_steps: list[int]
    curves: list[MassCurve]
    phase: PhaseDiagram
    rate_fits: list[RateFit]
    checks: Checks

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for row in self.final_incorrect_mass:
            out[f"J = {row.j:+.2f}: final incorrect mass, mean field / bandit"] = (
                f"{row.mean_field:.4f} / {row.bandit_mean:.4f}"
            )
        for fit in self.rate_fits:
            out[f"{fit.model}: exponent of time vs 1/J"] = round(fit.exponent, 3)
        return out

    def verdict(self) -> Verdict:
        c = self.checks
        parts = [c.boundary_detail, c.neutral_detail, c.rate_detail]
        detail = " ".join(p for p in parts if p)
        failed = [name for name, ok in (("boundary", c.boundary), ("neutral drift", c.neutral), ("1/J rate", c.rate)) if ok is False]
        if not failed:
            return Verdict("J = 0 phase transition reproduced", "success", detail)
        return Verdict("Not reproduced: " + ", ".join(failed), "warning", detail)

    def artifacts(self) -> dict[str, Artifact]:
        return {
            "incorrect_mass_curves.csv": Artifact.csv(self.curves_csv()),
            "final_and_hitting_times.csv": Artifact.csv(self.summary_csv()),
            "phase_diagram.csv": Artifact.csv(self.phase_csv()),
        }

    def curves_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("j,step,mean_field,bandit_mean,bandit_q10,bandit_q90\n")
        for curve in self.curves:
            for k, step in enumerate(self.curve_steps):
                buffer.write(
                    f"{curve.j},{step},{curve.mean_field[k]:.6g},{curve.bandit_mean[k]:.6g},"
                    f"{curve.bandit_q10[k]:.6g},{curve.bandit_q90[k]:.6g}\n"
                )
        return buffer.getvalue()

    def summary_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("j,fnr,final_mean_field,final_bandit_mean,final_bandit_se,steps_to_0.05_mean_field,steps_to_0.05_bandit\n")
        for row, hit in zip(self.final_incorrect_mass, self.time_to_threshold, strict=True):
            buffer.write(
                f"{row.j},{row.fnr:.6g},{row.mean_field:.6g},{row.bandit_mean:.6g},{row.bandit_se:.6g},"
                f"{'' if hit.mean_field is None else hit.mean_field},{'' if hit.bandit_mean is None else hit.bandit_mean}\n"
            )
        return buffer.getvalue()

    def phase_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("fpr,fnr,youden_j,final_incorrect_mass_mean_field\n")
        for i, fnr in enumerate(self.phase.fnr):
            for k, fpr in enumerate(self.phase.fpr):
                buffer.write(f"{fpr:.6g},{fnr:.6g},{1 - fnr - fpr:.6g},{self.phase.mass[i][k]:.6g}\n")
        return buffer.getvalue()
