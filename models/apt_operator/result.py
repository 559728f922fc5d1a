"""Result of an APT-operator run: relative L2 of each model on each mesh, super-resolution, timings."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult

__all__ = ["LossCurves", "MediumErrors", "MeshErrors", "ParameterCounts", "Result", "SampleView", "SeedSummary", "SuperResolution",
           "Transfer"]

LEARNED = ("fused", "local_only", "global_only", "fno")
MODELS = (*LEARNED, "uniform_k")
LABELS = {"uniform_k": "Null: FV solve with uniform k (no learning)", "fused": "APT fused (radius GNO + global attention, gated)", "local_only": "Local only (radius GNO)",
          "global_only": "Global only (latent attention)", "fno": "FNO (regular grid)",
          "fused_regular": "APT fused, trained on regular grids only"}


class MeshErrors(BaseModel):
    """Mean relative L2 error of the pressure on the test media, per model, on one mesh."""

    mesh: str
    fused: float
    local_only: float
    global_only: float
    fno: float
    uniform_k: float = Field(description="The null: the FV solve with k = exp(mean ln k) and the true wells.")


class SuperResolution(BaseModel):
    """Models trained at 32 x 32, fed the 32 x 32 input and the genuinely finer 64 x 64 input (decoded there)."""

    same_resolution: float
    higher_resolution: float
    fno_same: float
    fno_higher: float
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
    super_resolution: SuperResolution
    transfer: Transfer
    gate: float = Field(description="Mean gate of the fused model (1: all local branch, 0: all global).")
    media: MediumErrors


class ParameterCounts(BaseModel):
    fused: int
    local_only: int
    global_only: int
    fused_regular: int
    fno: int


class LossCurves(BaseModel):
    """Mean training loss (relative L2) per epoch of each model."""

    fused: list[float]
    local_only: list[float]
    global_only: list[float]
    fused_regular: list[float]
    fno: list[float]


class SampleView(BaseModel):
    """The first test medium on the evaluation mesh with truth and predictions, and its 64 x 64 truth and
    the fused model's prediction from the 64 x 64 input."""

    mesh: str
    x: list[float]
    y: list[float]
    area: list[float]
    log_k: list[float]
    source: list[float]
    pressure: list[float]
    fused: list[float]
    local_only: list[float]
    global_only: list[float]
    fno: list[float]
    high_truth: list[float] = Field(description="64 x 64 FV pressure, flattened with x as the slow index.")
    high_fused: list[float]


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
    by_mesh: list[MeshErrors]
    solver_time_s: float = Field(description="Mean wall time of one sparse FV solve (32 x 32 and 64 x 64 averaged).")
    inference_time_s: float = Field(description="Mean wall time of the fused model per test medium on the mesh.")
    parameters: ParameterCounts
    losses: LossCurves
    sample: SampleView

    def metrics(self) -> dict[str, float | int | str]:
        e = self.relative_l2
        first = self.per_seed[0]
        return {
            f"Rel. L2, APT fused ({self.mesh})": round(e.fused, 4),
            f"Rel. L2, FNO ({self.mesh})": round(e.fno, 4),
            f"Rel. L2, null: uniform-k FV solve ({self.mesh})": round(e.uniform_k, 4),
            "Rel. L2, fused, 64 x 64 input": round(first.super_resolution.higher_resolution, 4),
            "Rel. L2, FNO, 64 x 64 input": round(first.super_resolution.fno_higher, 4),
            "Fused gate (1 = all local)": round(first.gate, 3),
            "FV solve time (ms per medium)": round(1000 * self.solver_time_s, 2),
            "Fused inference time (ms per medium)": round(1000 * self.inference_time_s, 2),
            "Weights": "retrained in this job" if self.retrain else "shipped checkpoint",
        }

    def artifacts(self) -> dict[str, Artifact]:
        errors = io.StringIO()
        errors.write("mesh,model,relative_l2\n")
        for m in self.by_mesh:
            for name in MODELS:
                errors.write(f"{m.mesh},{name},{getattr(m, name)}\n")
        curves = io.StringIO()
        trained = (*LEARNED, "fused_regular")
        curves.write("epoch," + ",".join(trained) + "\n")
        for i in range(max(len(getattr(self.losses, n)) for n in trained)):
            row = [getattr(self.losses, n)[i] if i < len(getattr(self.losses, n)) else "" for n in trained]
            curves.write(f"{i + 1}," + ",".join(str(v) for v in row) + "\n")
        s = self.sample
        mesh = io.StringIO()
        mesh.write("x,y,area,log_k,source,pressure,fused,local_only,global_only,fno\n")
        for cols in zip(s.x, s.y, s.area, s.log_k, s.source, s.pressure, s.fused, s.local_only, s.global_only, s.fno,
                       strict=True):
            mesh.write(",".join(str(v) for v in cols) + "\n")
        high = io.StringIO()
        high.write("i,j,pressure,fused\n")
        for idx, (t, f) in enumerate(zip(s.high_truth, s.high_fused, strict=True)):
            high.write(f"{idx // 64},{idx % 64},{t},{f}\n")
        return {"relative_l2.csv": Artifact.csv(errors.getvalue()), "training_loss.csv": Artifact.csv(curves.getvalue()),
                f"{s.mesh}_sample.csv": Artifact.csv(mesh.getvalue()),
                "super_resolution_sample.csv": Artifact.csv(high.getvalue())}
