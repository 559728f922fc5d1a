"""Result of a noisy-verifier RLVR run: final incorrect mass, hitting times against the rate law, curves,
the finite-sample phase diagram and the J = 0 diffusion check (all of the first seed; claims over all seeds)."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.numbers import number

__all__ = ["Competition", "Diffusion", "FinalMass", "MassCurve", "PhaseDiagram", "Result", "THRESHOLD", "TimeToThreshold"]

THRESHOLD = 0.05


class FinalMass(BaseModel):
    """Incorrect mass after the last step for one J (bandit: mean, standard error and 10-90% band)."""

    j: float
    fnr: float
    mean_field: float
    bandit_mean: float
    bandit_se: float
    bandit_q10: float
    bandit_q90: float


class TimeToThreshold(BaseModel):
    """Steps until the incorrect mass first reaches <= 0.05 (None if never within the run), and the rate law's."""

    j: float
    rate_law: float | None
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
    """GRPO bandit on an (FPR, FNR) grid: mean incorrect mass after `steps`; mass[i][k] is at fnr[i], fpr[k]."""

    fpr: list[float]
    fnr: list[float]
    steps: int
    runs_per_cell: int
    mass: list[list[float]]
    standard_error: list[list[float]]


class Diffusion(BaseModel):
    """J = 0 (TPR = FPR = p): variance of the incorrect mass over `runs` GRPO runs against t·D of the diffusion limit."""

    p: float
    runs: int
    variance_per_step: float
    drift_per_step: float
    curve_steps: list[int]
    variance: list[float]
    predicted_variance: list[float]
    final_mean: float
    predicted_mean: float
    final_se: float


class Competition(BaseModel):
    """Unequal masses inside the correct class (first seed): the incorrect mass against the 1-D law on the step
    clock and on the concentration clock, and the favoured correct mode's share of its class."""

    j: float
    shares: list[float]
    runs: int
    curve_steps: list[int]
    mass_bandit: list[float] = Field(description="Incorrect mass, mean of the GRPO runs.")
    mass_mean_field: list[float] = Field(description="Incorrect mass, expected step of every logit.")
    mass_equal_law: list[float] = Field(description="The equal-split 1-D map on the step clock.")
    clock_bandit: list[float] = Field(description="Concentration clock tau, mean of the GRPO runs.")
    favoured_bandit: list[float] = Field(description="Favoured mode's share of the correct class, GRPO mean.")
    favoured_mean_field: list[float]
    favoured_neutral: list[float] = Field(description="The same at J = 0 (GRPO mean), the reference.")
    rate_law: float = Field(description="Rate-law time to 0.05 (equal split).")
    hit_steps: float | None = Field(description="Mean over runs of the step at which the mass reaches 0.05.")
    hit_clock: float | None = Field(description="Mean over runs of the concentration clock there.")


class Result(MethodResult):
    fpr: float
    steps: int
    seeds: int
    bandit_seeds: int
    group_size: int
    learning_rate: float
    initial_incorrect_mass: float
    final_incorrect_mass: list[FinalMass]
    time_to_threshold: list[TimeToThreshold]
    curve_steps: list[int]
    curves: list[MassCurve]
    phase: PhaseDiagram
    diffusion: Diffusion | None
    competition: Competition

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for row in self.final_incorrect_mass:
            out[f"J = {row.j:+.2f}: final incorrect mass, mean field / bandit"] = (
                f"{row.mean_field:.4f} / {row.bandit_mean:.4f}"
            )
        for t in self.time_to_threshold:
            if t.rate_law is not None:
                out[f"J = {t.j:+.2f}: steps to 0.05, rate law / mean field / bandit"] = (
                    f"{t.rate_law:.0f} / {_steps(t.mean_field)} / {_steps(t.bandit_mean)}"
                )
        if self.diffusion is not None and self.diffusion.variance:
            d = self.diffusion
            out[f"J = 0: Var[x] after {d.curve_steps[-1]} steps, measured / diffusion limit"] = (
                f"{d.variance[-1]:.3g} / {d.predicted_variance[-1]:.3g}"
            )
        return out

    def tables(self) -> list[Table]:
        """The first seed's final masses and hitting times per J, and the unequal-masses competition."""
        hits = {row.j: row for row in self.time_to_threshold}
        finals: list[dict[str, Cell]] = [
            {"j": row.j, "fnr": row.fnr, "mean_field": row.mean_field, "bandit_mean": row.bandit_mean,
             "spread": f"{number(row.bandit_q10, 3)} - {number(row.bandit_q90, 3)}",
             "rate_law": "—" if hits[row.j].rate_law is None else _hit(hits[row.j].rate_law),
             "steps_mean_field": _hit(hits[row.j].mean_field), "steps_bandit": _hit(hits[row.j].bandit_mean)}
            for row in self.final_incorrect_mass]
        c = self.competition
        text = "text"
        return [
            Table(title=f"Incorrect mass after {self.steps} steps (start {self.initial_incorrect_mass:g}), first seed",
                  columns=[Column(key="j", label="J"), Column(key="fnr", label="FNR", digits=3),
                           Column(key="mean_field", label="mean field"), Column(key="bandit_mean", label="bandit mean"),
                           Column(key="spread", label="bandit 10-90%", fmt=text),
                           Column(key="rate_law", label="steps to 0.05: rate law", fmt=text),
                           Column(key="steps_mean_field", label="steps: mean field", fmt=text),
                           Column(key="steps_bandit", label="steps: bandit mean", fmt=text)],
                  rows=finals,
                  caption="'never': the mass did not reach 0.05 within the run; '—': the rate law does not apply (J <= 0)."),
            Table(title="Unequal masses inside the correct class (first seed)",
                  columns=[Column(key="j", label="J"), Column(key="shares", label="initial shares", fmt=text),
                           Column(key="rate_law", label="rate law (steps)"),
                           Column(key="hit_steps", label="GRPO: steps to 0.05", fmt=text),
                           Column(key="hit_clock", label="GRPO: tau at 0.05", fmt=text),
                           Column(key="favoured", label="favoured share at the end", digits=3),
                           Column(key="neutral", label="same at J = 0", digits=3)],
                  rows=[{"j": c.j, "shares": " / ".join(number(share, 2) for share in c.shares), "rate_law": c.rate_law,
                         "hit_steps": _hit(c.hit_steps), "hit_clock": _hit(c.hit_clock),
                         "favoured": c.favoured_bandit[-1], "neutral": c.favoured_neutral[-1]}],
                  caption="tau is the concentration clock: steps weighted by (m/2)(H_bad + H_good), H the Herfindahl "
                  "index of the shares inside each class; with equal shares tau is the step count."),
        ]

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
        buffer.write("j,fnr,final_mean_field,final_bandit_mean,final_bandit_se,steps_to_0.05_rate_law,"
                     "steps_to_0.05_mean_field,steps_to_0.05_bandit\n")
        for row, hit in zip(self.final_incorrect_mass, self.time_to_threshold, strict=True):
            law = "" if hit.rate_law is None else f"{hit.rate_law:.6g}"
            buffer.write(
                f"{row.j},{row.fnr:.6g},{row.mean_field:.6g},{row.bandit_mean:.6g},{row.bandit_se:.6g},{law},"
                f"{'' if hit.mean_field is None else hit.mean_field},{'' if hit.bandit_mean is None else hit.bandit_mean}\n"
            )
        return buffer.getvalue()

    def phase_csv(self) -> str:
        buffer = io.StringIO()
        buffer.write("fpr,fnr,youden_j,final_incorrect_mass_bandit_mean,standard_error\n")
        for i, fnr in enumerate(self.phase.fnr):
            for k, fpr in enumerate(self.phase.fpr):
                buffer.write(f"{fpr:.6g},{fnr:.6g},{1 - fnr - fpr:.6g},{self.phase.mass[i][k]:.6g},"
                             f"{self.phase.standard_error[i][k]:.6g}\n")
        return buffer.getvalue()


def _steps(value: int | None) -> str:
    return "never" if value is None else str(value)


def _hit(value: float | None) -> str:
    """Steps (or clock) to the threshold as people read it; 'never' when it was not reached."""
    return "never" if value is None else number(float(value), 3)
