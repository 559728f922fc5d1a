"""Result of an APT-operator run: relative L2 of each model on each mesh, super-resolution, timings."""

from __future__ import annotations

import io

from pydantic import BaseModel, Field

from models.common.contract import Artifact, MethodResult, Verdict

__all__ = ["LossCurves", "MeshErrors", "ParameterCounts", "Result", "SampleView", "SuperResolution"]

MODELS = ("fused", "local_only", "global_only", "fno")
LABELS = {"fused": "APT fused (kNN + global attention)", "local_only": "Local only (kNN message passing)",
          "global_only": "Global only (latent attention)", "fno": "FNO (regular grid)"}
MAX_RATIO = 1.5


class MeshErrors(BaseModel):
    """Mean relative L2 error of the pressure on the test media, per model, on one mesh."""

    mesh: str
    fused: float
    local_only: float
    global_only: float
    fno: float


class SuperResolution(BaseModel):
    """The fused model (trained at 32 x 32) at 32 x 32 and decoded at the 64 x 64 cell centres."""

    same_resolution: float
    higher_resolution: float
    ratio: float


class ParameterCounts(BaseModel):
    fused: int
    local_only: int
    global_only: int
    fno: int


class LossCurves(BaseModel):
    """Mean training loss (relative L2) per epoch of each model."""

    fused: list[float]
    local_only: list[float]
    global_only: list[float]
    fno: list[float]


class SampleView(BaseModel):
    """The first test medium: its adaptive mesh with truth and predictions, and its 64 x 64 truth and prediction."""

    x: list[float]
    y: list[float]
    area: list[float]
    log_k: list[float]
    source: list[float]
    pressure: list[float]
    fused: list[float]
    local_only: list[float]
    global_only: list[float]
    high_truth: list[float] = Field(description="64 x 64 FV pressure, flattened with x as the slow index.")
    high_fused: list[float]


class Result(MethodResult):
    mesh: str
    retrain: bool
    seed: int
    test_samples: int
    train_samples: int
    epochs: int
    train_time_s: float
    relative_l2: MeshErrors
    by_mesh: list[MeshErrors]
    super_resolution: SuperResolution
    solver_time_s: float = Field(description="Mean wall time of one sparse FV solve (32 x 32 and 64 x 64 averaged).")
    inference_time_s: float = Field(description="Mean wall time of the fused model per test medium on the mesh.")
    parameters: ParameterCounts
    losses: LossCurves
    sample: SampleView

    def adaptive(self) -> MeshErrors:
        return next(m for m in self.by_mesh if m.mesh == "adaptive")

    def checks(self) -> dict[str, bool]:
        a = self.adaptive()
        return {"fused beats local-only (adaptive)": a.fused < a.local_only,
                "fused beats global-only (adaptive)": a.fused < a.global_only,
                f"64 x 64 error <= {MAX_RATIO} x 32 x 32 error": self.super_resolution.ratio <= MAX_RATIO}

    def metrics(self) -> dict[str, float | int | str]:
        e = self.relative_l2
        s = self.super_resolution
        return {
            f"Rel. L2, APT fused ({self.mesh})": round(e.fused, 4),
            f"Rel. L2, local only ({self.mesh})": round(e.local_only, 4),
            f"Rel. L2, global only ({self.mesh})": round(e.global_only, 4),
            f"Rel. L2, FNO ({self.mesh})": round(e.fno, 4),
            "Rel. L2 at 32 x 32 (fused)": round(s.same_resolution, 4),
            "Rel. L2 at 64 x 64 (fused)": round(s.higher_resolution, 4),
            "Super-resolution ratio (64 / 32)": round(s.ratio, 3),
            "FV solve time (ms per medium)": round(1000 * self.solver_time_s, 2),
            "Fused inference time (ms per medium)": round(1000 * self.inference_time_s, 2),
            "Weights": "retrained in this job" if self.retrain else "shipped checkpoint",
        }

    def verdict(self) -> Verdict:
        a = self.adaptive()
        s = self.super_resolution
        numbers = (f"adaptive mesh rel. L2: fused {a.fused:.4f}, local only {a.local_only:.4f}, "
                   f"global only {a.global_only:.4f}; 64 x 64 / 32 x 32 error ratio {s.ratio:.2f} "
                   f"({s.higher_resolution:.4f} / {s.same_resolution:.4f})")
        failed = [name for name, ok in self.checks().items() if not ok]
        if not failed:
            return Verdict("Reproduced: fused beats both ablations, super-resolution holds", "success", numbers)
        return Verdict(f"Not reproduced here: {'; '.join(failed)} fails", "warning", numbers)

    def artifacts(self) -> dict[str, Artifact]:
        errors = io.StringIO()
        errors.write("mesh,model,relative_l2\n")
        for m in self.by_mesh:
            for name in MODELS:
                errors.write(f"{m.mesh},{name},{getattr(m, name)}\n")
        curves = io.StringIO()
        curves.write("epoch," + ",".join(MODELS) + "\n")
        for i in range(max(len(getattr(self.losses, n)) for n in MODELS)):
            row = [getattr(self.losses, n)[i] if i < len(getattr(self.losses, n)) else "" for n in MODELS]
            curves.write(f"{i + 1}," + ",".join(str(v) for v in row) + "\n")
        s = self.sample
        mesh = io.StringIO()
        mesh.write("x,y,area,log_k,source,pressure,fused,local_only,global_only\n")
        for cols in zip(s.x, s.y, s.area, s.log_k, s.source, s.pressure, s.fused, s.local_only, s.global_only,
                       strict=True):
            mesh.write(",".join(str(v) for v in cols) + "\n")
        high = io.StringIO()
        high.write("i,j,pressure,fused\n")
        for idx, (t, f) in enumerate(zip(s.high_truth, s.high_fused, strict=True)):
            high.write(f"{idx // 64},{idx % 64},{t},{f}\n")
        return {"relative_l2.csv": Artifact.csv(errors.getvalue()), "training_loss.csv": Artifact.csv(curves.getvalue()),
                "adaptive_sample.csv": Artifact.csv(mesh.getvalue()),
                "super_resolution_sample.csv": Artifact.csv(high.getvalue())}
