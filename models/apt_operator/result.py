"""Result of an APT-operator run: relative L2 of each model, field and mesh, super-resolution, timings."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from pydantic import BaseModel, Field

from models.common.contract import Artifact, Cell, Column, MethodResult, Table

__all__ = ["FIELD_NAMES", "LossCurves", "MediumErrors", "MeshErrors", "ParameterCounts", "Result", "SampleView", "SeedSummary", "SuperResolution",
           "Transfer"]

LEARNED = ("fused", "local_only", "global_only", "gino", "fno")
MODELS = (*LEARNED, "uniform_k")
FIELD_NAMES = {"mean": "mean of both fields", "pressure": "pressure", "saturation": "saturation"}
LABELS = {"uniform_k": "Null: FV solve with uniform k (no learning)", "fused": "APT fused (radius GNO + global attention, gated)", "local_only": "Local only (radius GNO)",
          "global_only": "Global only (latent attention)", "gino": "GINO (graph kernel + latent FNO)",
          "fno": "FNO (regular grid)", "fused_regular": "APT fused, trained on regular grids only"}


class MeshErrors(BaseModel):
    """Mean relative L2 error on the test media, per model, on one mesh, for one field (or their mean)."""

    mesh: str
    field: str = Field(description="pressure, saturation, or mean (the mean of the two: what the claims judge).")
    fused: float
    local_only: float
    global_only: float
    gino: float
    fno: float
    uniform_k: float = Field(description="The null: the FV solve and transport with k = exp(mean ln k), true wells.")


class SuperResolution(BaseModel):
    """Models trained at 32 x 32, fed the 32 x 32 input and the genuinely finer 64 x 64 input (decoded there)."""

    same_resolution: float
    higher_resolution: float
    fno_same: float
    fno_higher: float
    gino_same: float
    gino_higher: float
    uniform_k_same: float
    uniform_k_higher: float


class Transfer(BaseModel):
    """The fused model trained on regular 32 x 32 grids only, evaluated on grids, adaptive meshes and 64 x 64."""

    regular: float
    adaptive: float
    finer: float


class MediumErrors(BaseModel):
    """Per-test-medium relative L2 (one entry per medium, same order everywhere): the claims' units."""

    fused: list[float] = Field(description="On the evaluation mesh (likewise the next four).")
    local_only: list[float]
    global_only: list[float]
    gino: list[float]
    fno: list[float]
    uniform_k: list[float]
    fused_32: list[float] = Field(description="Fused model, regular 32 x 32 input.")
    fused_64: list[float] = Field(description="Fused model, 64 x 64 input.")
    uniform_k_32: list[float]
    uniform_k_64: list[float]
    uniform_k_adaptive: list[float]
    transfer_regular: list[float] = Field(description="Grid-trained fused model on 32 x 32 grids.")
    transfer_adaptive: list[float]
    transfer_finer: list[float]


class SeedSummary(BaseModel):
    """What the claims need from one seed (its test draw, and its training when retraining)."""

    seed: int
    errors: MeshErrors
    fields: list[MeshErrors] = Field(description="Pressure and saturation separately, on the evaluation mesh.")
    super_resolution: SuperResolution
    transfer: Transfer
    gate: float = Field(description="Mean gate of the fused model (1: all local branch, 0: all global).")
    media: MediumErrors


class ParameterCounts(BaseModel):
    fused: int
    local_only: int
    global_only: int
    fused_regular: int
    gino: int
    fno: int


class LossCurves(BaseModel):
    """Mean training loss (relative L2) per epoch of each model."""

    fused: list[float]
    local_only: list[float]
    global_only: list[float]
    fused_regular: list[float]
    gino: list[float]
    fno: list[float]


class SampleView(BaseModel):
    """The first test medium on the evaluation mesh: truth and predictions of both fields, and its 64 x 64
    pressure with the fused model's prediction from the 64 x 64 input."""

    mesh: str
    x: list[float]
    y: list[float]
    area: list[float]
    log_k: list[float]
    source: list[float]
    pressure: list[float]
    fused: list[float] = Field(description="Pressure predictions (likewise the next four).")
    local_only: list[float]
    global_only: list[float]
    gino: list[float]
    fno: list[float]
    saturation: list[float]
    saturation_fused: list[float]
    saturation_gino: list[float]
    saturation_fno: list[float]
    saturation_null: list[float]
    high_truth: list[float] = Field(description="64 x 64 FV pressure, flattened with x as the slow index.")
    high_fused: list[float]


def _csv(header: list[str], rows: Sequence[Sequence[object]]) -> Artifact:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return Artifact.csv(out.getvalue())


class Result(MethodResult):
    """Tables and figures show the first seed; the claims and `per_seed` cover every seed."""

    seeds: list[int]
    per_seed: list[SeedSummary]
    mesh: str
    retrain: bool
    test_samples: int
    train_samples: int
    epochs: int
    steps: int
    train_time_s: float
    relative_l2: MeshErrors
    by_mesh: list[MeshErrors] = Field(description="First seed: every mesh x (mean, pressure, saturation).")
    solver_time_s: float = Field(description="Mean wall time of one FV solve and transport (32 x 32 and 64 x 64).")
    inference_time_s: float = Field(description="Mean wall time of the fused model per test medium on the mesh.")
    parameters: ParameterCounts
    losses: LossCurves
    sample: SampleView

    def metrics(self) -> dict[str, float | int | str]:
        e = self.relative_l2
        first = self.per_seed[0]
        return {
            f"Rel. L2, APT fused ({self.mesh}, mean of p and s)": round(e.fused, 4),
            f"Rel. L2, GINO ({self.mesh})": round(e.gino, 4),
            f"Rel. L2, FNO ({self.mesh})": round(e.fno, 4),
            f"Rel. L2, null: uniform-k FV solve ({self.mesh})": round(e.uniform_k, 4),
            "Rel. L2, fused, 64 x 64 input": round(first.super_resolution.higher_resolution, 4),
            "Fused gate (1 = all local)": round(first.gate, 3),
            "FV solve + transport time (ms per medium)": round(1000 * self.solver_time_s, 2),
            "Fused inference time (ms per medium)": round(1000 * self.inference_time_s, 2),
            "Weights": "retrained in this job" if self.retrain else "shipped checkpoint",
        }

    def tables(self) -> list[Table]:
        """Errors per seed with each learned model's margin below the null, per field, finer input and mesh."""
        return [self._error_table(), self._field_table(), self._transfer_table()]

    def _error_table(self) -> Table:
        below = {"fused": "APT fused", "gino": "GINO", "fno": "FNO"}
        rows: list[dict[str, Cell]] = [
            {"seed": s.seed, **{k: getattr(s.errors, k) for k in MODELS},
             **{f"{k}_below": 100 * (1 - getattr(s.errors, k) / s.errors.uniform_k) for k in below}}
            for s in self.per_seed]
        caption = (f"{self.test_samples} channelised test media per seed. The null is the finite-volume solve and "
                   "transport with the true wells and a uniform permeability exp(mean ln k): no learning. A learned "
                   "model's claims count only where it is at least 25% below the null with a paired interval "
                   f"excluding 0. Weights: {'retrained in this job' if self.retrain else 'shipped checkpoint'} "
                   f"({self.train_samples} training media, {self.steps} optimiser steps per model). Parameters: "
                   f"APT {self.parameters.fused:,}, GINO {self.parameters.gino:,}, FNO {self.parameters.fno:,}.")
        return Table(title=f"Relative L2 error (mean of pressure and saturation), judged on the {self.mesh} mesh",
                     caption=caption, rows=rows, columns=[
                         Column(key="seed", label="seed"),
                         *(Column(key=k, label=LABELS[k], digits=3) for k in MODELS),
                         *(Column(key=f"{k}_below", label=f"{name} below the null", unit="%", digits=3)
                           for k, name in below.items())])

    def _field_table(self) -> Table:
        rows: list[dict[str, Cell]] = [{"seed": s.seed, "field": f.field, **{k: getattr(f, k) for k in MODELS}}
                                       for s in self.per_seed for f in s.fields]
        return Table(title="Per field", rows=rows, caption="Relative L2 of the pressure and of the injected-fluid "
                     "saturation separately, on the evaluation mesh.", columns=[
                         Column(key="seed", label="seed"), Column(key="field", label="field", fmt="text"),
                         *(Column(key=k, label=LABELS[k], digits=3) for k in MODELS)])

    def _transfer_table(self) -> Table:
        resolution = {"same_resolution": "fused: 32 x 32 input", "higher_resolution": "fused: 64 x 64 input",
                      "gino_same": "GINO: 32 x 32", "gino_higher": "GINO: 64 x 64", "fno_same": "FNO: 32 x 32",
                      "fno_higher": "FNO: 64 x 64", "uniform_k_same": "null: 32 x 32",
                      "uniform_k_higher": "null: 64 x 64"}
        transfer = {"regular": "grid-trained fused: grids", "adaptive": "grid-trained fused: adaptive",
                    "finer": "grid-trained fused: 64 x 64"}
        rows: list[dict[str, Cell]] = [
            {"seed": s.seed, **{k: getattr(s.super_resolution, k) for k in resolution},
             **{k: getattr(s.transfer, k) for k in transfer}, "gate": s.gate} for s in self.per_seed]
        return Table(title="Finer input and another mesh family", rows=rows, caption=(
            "Relative L2 (mean of both fields). The 64 x 64 runs read the finer input itself (not the 32 x 32 input "
            "decoded at finer points). The grid-trained model never saw an adaptive mesh."), columns=[
                Column(key="seed", label="seed"),
                *(Column(key=k, label=label, digits=3) for k, label in {**resolution, **transfer}.items()),
                Column(key="gate", label="fused gate (1 = local)", digits=3)])

    def artifacts(self) -> dict[str, Artifact]:
        errors = [[m.mesh, m.field, name, getattr(m, name)] for m in self.by_mesh for name in MODELS]
        trained = (*LEARNED, "fused_regular")
        longest = max(len(getattr(self.losses, n)) for n in trained)
        curves = [[i + 1, *(getattr(self.losses, n)[i] if i < len(getattr(self.losses, n)) else "" for n in trained)]
                  for i in range(longest)]
        s = self.sample
        cols = ("x", "y", "area", "log_k", "source", "pressure", "fused", "local_only", "global_only", "gino", "fno",
                "saturation", "saturation_fused", "saturation_gino", "saturation_fno", "saturation_null")
        mesh = [list(row) for row in zip(*(getattr(s, c) for c in cols), strict=True)]
        high = [[i // 64, i % 64, t, f] for i, (t, f) in enumerate(zip(s.high_truth, s.high_fused, strict=True))]
        return {"relative_l2.csv": _csv(["mesh", "field", "model", "relative_l2"], errors),
                "training_loss.csv": _csv(["epoch", *trained], curves),
                f"{s.mesh}_sample.csv": _csv(list(cols), mesh),
                "super_resolution_sample.csv": _csv(["i", "j", "pressure", "fused"], high)}
