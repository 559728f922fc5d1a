"""Result of the robust-satisficing comparison: per-method scores over seeds, groups, tuning, the tau sweep, k trace."""

from __future__ import annotations

import csv
import io
import statistics

from pydantic import BaseModel

from models.common.claims import format_value
from models.common.contract import Artifact, Cell, Column, MethodResult, Table
from models.common.tabular import GroupRow

__all__ = ["LABELS", "METHODS", "MethodScore", "Methods", "Result", "SeedScores", "SweepPoint"]

METHODS = ("erm", "group_dro", "tilted_erm", "jtt", "irs")
LABELS = {"erm": "ERM", "group_dro": "group DRO (training groups)", "tilted_erm": "tilted ERM", "jtt": "JTT",
          "irs": "IRS (the paper)"}


class MethodScore(BaseModel):
    """Test scores of one method (accuracy, or MSE in target units^2 for regression), its tuning and passes.

    `in_distribution` and `shifted` are the test groups' scores mixed with the training and the shifted group
    shares; `degradation` = in_distribution - shifted for accuracy (shifted - in_distribution for MSE)."""

    average: float
    worst: float
    in_distribution: float
    shifted: float
    degradation: float
    setting: str  # the hyperparameter chosen on validation (or IRS's tau)
    validation_worst: float
    backward_passes_per_step: float
    forward_passes_per_step: float
    steps: int
    train_loss: float
    groups: list[GroupRow]


class Methods(BaseModel):
    erm: MethodScore
    group_dro: MethodScore
    tilted_erm: MethodScore
    jtt: MethodScore
    irs: MethodScore


class SeedScores(BaseModel):
    """One seed: every method's scores; IRS's last active target, fragility kappa and tilt KL(p* || p0)."""

    seed: int
    methods: Methods
    untrained: MethodScore  # the shared initialisation, untrained: the claims' trivial reference
    tau: float
    fragility: float
    kl: float
    tilted: bool  # the final tilt is active (KL above run.KL_ACTIVE)


class SweepPoint(BaseModel):
    """IRS at tau = max(multiplier x loss, 0.1): the final target, fragility, KL and the test scores (first seed)."""

    tau_multiplier: float
    tau: float
    fragility: float
    kl: float
    average: float
    worst_group: float
    degradation: float
    train_loss: float


class Result(MethodResult):
    dataset: str
    regression: bool
    group_names: list[str]
    shift_name: str
    train_group_sizes: list[int]
    test_group_sizes: list[int]
    tau_multiplier: float
    tau: float  # IRS's active target at the last step of the first seed
    fragility: float  # IRS's kappa at the last step of the first seed
    kl: float
    tilted: bool
    seeds_run: list[SeedScores]
    sweep: list[SweepPoint]
    warmup_steps: int
    trace_steps: list[int]
    trace_fragility: list[float]
    trace_tau: list[float]
    trace_kl: list[float]
    trace_irs_loss: list[float]
    trace_erm_loss: list[float]

    @property
    def methods(self) -> Methods:
        """The first seed's scores (groups and figures)."""
        return self.seeds_run[0].methods

    @property
    def score_name(self) -> str:
        return "MSE" if self.regression else "accuracy"

    def over_seeds(self, key: str, field: str) -> list[float]:
        return [float(getattr(getattr(s.methods, key), field)) for s in self.seeds_run]

    def spread(self, key: str, field: str, scale: float = 1.0) -> str:
        values = [v * scale for v in self.over_seeds(key, field)]
        if len(values) == 1:
            return format_value(values[0])
        return f"{format_value(statistics.fmean(values))} ± {format_value(statistics.stdev(values))}"

    def metrics(self) -> dict[str, float | int | str]:
        scale, unit = (1.0, " (target units^2)") if self.regression else (100.0, " (%)")
        values: dict[str, float | int | str] = {
            "IRS target tau at the last step (first seed)": f"{format_value(self.tau)} (max({self.tau_multiplier:g} x loss, 0.1))",
            "IRS fragility kappa at the last step (first seed)": format_value(self.fragility),
            "IRS tilt KL(p* || p0) at the last step, nats (first seed)": format_value(self.kl),
            "Backward passes per IRS step": self.methods.irs.backward_passes_per_step,
        }
        for key in METHODS:
            values[f"{LABELS[key]}: average / worst-group {self.score_name}{unit}"] = (
                f"{self.spread(key, 'average', scale)} / {self.spread(key, 'worst', scale)}")
        return values

    def tables(self) -> list[Table]:
        """Every method on the test set over the seeds (mean ± sd)."""
        scale, unit = (1.0, "MSE") if self.regression else (100.0, "%")
        rows: list[dict[str, Cell]] = [
            {"method": LABELS[key], "average": self.spread(key, "average", scale),
             "worst": self.spread(key, "worst", scale), "drop": self.spread(key, "degradation", scale),
             "chosen": ", ".join(dict.fromkeys(getattr(s.methods, key).setting for s in self.seeds_run)),
             "passes": self.methods.model_dump()[key]["backward_passes_per_step"]} for key in METHODS]
        caption = (f"IRS's target tau = max({self.tau_multiplier:g} x loss, 0.1) (first seed, last step: tau = "
                   f"{format_value(self.tau)}, fragility kappa = {format_value(self.fragility)}, tilt KL = "
                   f"{format_value(self.kl)} nats). Shift: {self.shift_name}.")
        n = len(self.seeds_run)
        return [Table(title=f"Methods on the test set, mean ± sd over {n} seed{'s' if n > 1 else ''}", caption=caption,
                      rows=rows, columns=[
                          Column(key="method", label="method", fmt="text"),
                          Column(key="average", label=f"average {self.score_name}", unit=unit, fmt="text"),
                          Column(key="worst", label=f"worst-group {self.score_name}", unit=unit, fmt="text"),
                          Column(key="drop", label="drop under shift", unit=unit, fmt="text"),
                          Column(key="chosen", label="chosen on validation", fmt="text"),
                          Column(key="passes", label="backward passes / step")])]

    def artifacts(self) -> dict[str, Artifact]:
        """CSV files written with the csv module (settings such as 'tau = max(1.01 x loss, 0.1)' hold commas)."""
        methods, groups, sweep, trace = io.StringIO(), io.StringIO(), io.StringIO(), io.StringIO()
        m_out, g_out, s_out, t_out = (csv.writer(f, lineterminator="\n") for f in (methods, groups, sweep, trace))
        m_out.writerow(["seed", "method", "setting", "average", "worst_group", "in_distribution", "shifted", "degradation",
                        "validation_worst_group", "backward_passes_per_step", "train_loss"])
        g_out.writerow(["seed", "method", "group", "name", "size", self.score_name.lower()])
        for s in self.seeds_run:
            for key in METHODS:
                m: MethodScore = getattr(s.methods, key)
                m_out.writerow([s.seed, key, m.setting, f"{m.average:.6f}", f"{m.worst:.6f}", f"{m.in_distribution:.6f}",
                                f"{m.shifted:.6f}", f"{m.degradation:.6f}", f"{m.validation_worst:.6f}",
                                f"{m.backward_passes_per_step:g}", f"{m.train_loss:.6f}"])
                for row in m.groups:
                    g_out.writerow([s.seed, key, row.group, row.name, row.size, f"{row.score:.6f}"])
        s_out.writerow(["tau_multiplier", "tau", "fragility_kappa", "kl", "average", "worst_group", "degradation",
                        "train_loss"])
        for p in self.sweep:
            s_out.writerow([f"{p.tau_multiplier:g}", f"{p.tau:.6f}", f"{p.fragility:.6g}", f"{p.kl:.6g}",
                            f"{p.average:.6f}", f"{p.worst_group:.6f}", f"{p.degradation:.6f}", f"{p.train_loss:.6f}"])
        t_out.writerow(["step", "irs_fragility_kappa", "irs_tau", "irs_kl", "irs_train_loss", "erm_train_loss"])
        for point in zip(self.trace_steps, self.trace_fragility, self.trace_tau, self.trace_kl, self.trace_irs_loss,
                       self.trace_erm_loss, strict=True):
            t_out.writerow([point[0], *(f"{v:.6g}" for v in point[1:])])
        return {"methods_by_seed.csv": Artifact.csv(methods.getvalue()), "groups.csv": Artifact.csv(groups.getvalue()),
                "tau_sweep.csv": Artifact.csv(sweep.getvalue()), "irs_trace.csv": Artifact.csv(trace.getvalue())}
