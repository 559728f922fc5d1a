"""Result of the LIFT comparison: success and return of raw vs augmented learners, curves, 2-D paths."""

from __future__ import annotations

import io
from typing import Literal

from pydantic import BaseModel

from models.common.claims import format_value
from models.common.contract import Artifact, Cell, Column, MethodResult, Table

__all__ = ["VARIANTS", "CurvePoint", "Pair", "PathKind", "Result", "SweepPoint", "VariantScore"]

PathKind = Literal["logged", "logged with the augmentor", "shortcut", "learned (raw)", "learned (augmented)"]

VARIANTS = {
    "raw": "TD3+BC on the raw logs (standard offline RL)",
    "augmented": "TD3+BC on LIFT-SC data (augmented collection + shortcuts)",
    "shortcuts_only": "ablation: raw logs + shortcuts (CQL-SC's data)",
    "lift_only": "ablation: augmented collection, no shortcuts (LIFT's data)",
    "bc_augmented": "behaviour cloning on the LIFT-SC data",
}


class Pair(BaseModel):
    raw: float
    augmented: float


class IntPair(BaseModel):
    raw: int
    augmented: int


class CurvePoint(BaseModel):
    """One evaluation during training: step, data set ('raw' or 'augmented'), success rate and mean return."""

    step: int
    data: str
    success_rate: float
    mean_return: float


class SweepPoint(BaseModel):
    trajectories: int
    success_rate: Pair
    transitions: IntPair


class VariantScore(BaseModel):
    """One learner-and-data variant over the seeds: per-seed success rate, mean steps, return, transitions."""

    variant: str
    label: str
    success_rate: list[float]
    mean_steps: list[float]
    mean_return: list[float]
    transitions: list[int]

    def text(self, values: list[float], scale: float = 1.0) -> str:
        mean = sum(values) / len(values) * scale
        if len(values) == 1:
            return format_value(mean)
        sd = (sum((v * scale - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
        return f"{format_value(mean)} ± {format_value(sd)}"


class Path(BaseModel):
    """A path projected on the first two coordinates (plots only)."""

    kind: PathKind
    x: list[float]
    y: list[float]


class Result(MethodResult):
    dimension: int
    trajectories: int
    partial_observation: bool
    train_steps: int
    success_rate: Pair
    mean_return: Pair
    mean_steps: Pair
    transitions: IntPair
    logging_success_rate: Pair  # share of second-half episodes that reached the target (plain walk, augmentor)
    replaced_actions: int  # actions the augmentor took over in the second half (first seed)
    shortcut_transitions: int  # Algorithm-1 shortcut transitions in the LIFT-SC data (first seed)
    optimal_steps: float  # straight-line steps needed on the evaluation episodes (the best possible mean)
    curves: list[CurvePoint]
    sweep: list[SweepPoint]
    paths: list[Path]  # displacement x - target on coordinates 1 and 2 (the target is the origin)
    seed_list: list[int]
    variants: list[VariantScore]  # every learner over every seed (the fields above are the first seed's)

    def variant(self, name: str) -> VariantScore | None:
        return next((v for v in self.variants if v.variant == name), None)

    def metrics(self) -> dict[str, float | int | str]:
        out: dict[str, float | int | str] = {}
        for v in self.variants:
            out[f"{v.label}: success (%) / mean steps"] = f"{v.text(v.success_rate, 100)} / {v.text(v.mean_steps)}"
        out["Straight-line steps on the evaluation episodes (first seed)"] = round(self.optimal_steps, 1)
        out["Second-half logs reaching the target, plain walk / with the augmentor (%, first seed)"] = (
            f"{self.logging_success_rate.raw:.0%} / {self.logging_success_rate.augmented:.0%}")
        out["Actions taken over by the augmentor; shortcut transitions (first seed)"] = (
            f"{self.replaced_actions}; {self.shortcut_transitions}")
        return out

    def tables(self) -> list[Table]:
        """Every learner over the seeds; success against the number of logs when swept (first seed)."""
        rows: list[dict[str, Cell]] = [
            {"learner": v.label, "success": 100 * sum(v.success_rate) / len(v.success_rate),
             "steps": sum(v.mean_steps) / len(v.mean_steps), "transitions": round(sum(v.transitions) / len(v.transitions)),
             "per_seed": [100 * x for x in v.success_rate]} for v in self.variants]
        caption = (f"Straight-line steps on the first seed's episodes: {format_value(self.optimal_steps)}; actions taken "
                   f"over by the augmentor: {self.replaced_actions}; shortcut transitions: {self.shortcut_transitions} "
                   "(first seed). Success is on test episodes, with the checkpoint chosen on separate validation "
                   "episodes.")
        out = [Table(title="Every learner, mean over the seeds", caption=caption, rows=rows, columns=[
            Column(key="learner", label="learner and data", fmt="text"),
            Column(key="success", label="success rate", unit="%", digits=3),
            Column(key="steps", label="mean steps", digits=3), Column(key="transitions", label="transitions"),
            Column(key="per_seed", label="per seed", unit="%", digits=3)])]
        if len(self.sweep) > 1:
            out.append(Table(title="Success rate against the number of logs (first seed)", rows=[
                {"logs": p.trajectories, "raw": 100 * p.success_rate.raw, "augmented": 100 * p.success_rate.augmented}
                for p in self.sweep], columns=[
                Column(key="logs", label="logged trajectories"), Column(key="raw", label="raw", unit="%", digits=3),
                Column(key="augmented", label="augmented", unit="%", digits=3)]))
        return out

    def artifacts(self) -> dict[str, Artifact]:
        curves = io.StringIO()
        curves.write("step,data,success_rate,mean_return\n")
        for c in self.curves:
            curves.write(f"{c.step},{c.data},{c.success_rate:.4f},{c.mean_return:.4f}\n")
        sweep = io.StringIO()
        sweep.write("trajectories,success_raw,success_augmented,transitions_raw,transitions_augmented\n")
        for s in self.sweep:
            sweep.write(f"{s.trajectories},{s.success_rate.raw:.4f},{s.success_rate.augmented:.4f},"
                        f"{s.transitions.raw},{s.transitions.augmented}\n")
        paths = io.StringIO()
        paths.write("path,kind,point,x0,x1\n")
        for index, p in enumerate(self.paths):
            for k, (x, y) in enumerate(zip(p.x, p.y, strict=True)):
                paths.write(f"{index},{p.kind},{k},{x:.5f},{y:.5f}\n")
        variants = io.StringIO()
        variants.write("variant,seed,success_rate,mean_steps,mean_return,transitions\n")
        for v in self.variants:
            for seed, succ, steps, ret, size in zip(self.seed_list, v.success_rate, v.mean_steps, v.mean_return,
                                                    v.transitions, strict=True):
                variants.write(f"{v.variant},{seed},{succ:.4f},{steps:.3f},{ret:.4f},{size}\n")
        return {"variants_by_seed.csv": Artifact.csv(variants.getvalue()),
                "learning_curves.csv": Artifact.csv(curves.getvalue()),
                "success_vs_trajectories.csv": Artifact.csv(sweep.getvalue()),
                "paths_2d.csv": Artifact.csv(paths.getvalue())}
