"""Run: draw and solve test media, load (or retrain) the models, measure errors, super-resolution and timings."""

from __future__ import annotations

import time

import numpy as np
import torch

from models.apt_operator.data import TEST_STREAM, TRAIN_STREAM, MeshSample, make_set
from models.apt_operator.params import Params
from models.apt_operator.result import (
    LossCurves,
    MeshErrors,
    ParameterCounts,
    Result,
    SampleView,
    SuperResolution,
)
from models.apt_operator.train import (
    PRESSURE_SCALE,
    VARIANTS,
    Trained,
    apt_predict,
    evaluate,
    fno_grid,
    fno_predict,
    load_checkpoint,
    make_batch,
    train_all,
)
from models.common import torch_device
from models.common.contract import Progress
from models.common.progress import MonotoneProgress

__all__ = ["run"]


def _round(a: np.ndarray, digits: int = 4) -> list[float]:
    return [float(v) for v in np.round(np.asarray(a, dtype=float), digits)]


def _mesh_errors(trained: Trained, mesh: str, samples: list[MeshSample], grids: list[MeshSample],
                 device: torch.device) -> tuple[MeshErrors, dict[str, np.ndarray]]:
    """Mean relative L2 of every model on `samples`; the FNO sees the 32 x 32 grid (`grids`), restricted."""
    batch = make_batch(samples).to(device)
    preds: dict[str, torch.Tensor] = {name: apt_predict(trained.apt[name], batch) for name in VARIANTS}
    fno = fno_predict(trained.fno, fno_grid(grids).to(device))
    if mesh == "adaptive":
        cells = torch.tensor(np.stack([s.cells for s in samples if s.cells is not None]), device=device)
        fno = torch.gather(fno, 1, cells.reshape(len(samples), -1)).reshape(cells.shape).mean(-1)
    preds["fno"] = fno
    errors = {name: evaluate(pred, batch) for name, pred in preds.items()}
    return MeshErrors(mesh=mesh, **{k: float(v.mean()) for k, v in errors.items()}), {
        k: v.cpu().numpy() * PRESSURE_SCALE for k, v in preds.items()}


def run(params: Params, progress: Progress) -> Result:
    progress = MonotoneProgress(progress)
    device = torch.device(torch_device())
    progress(0.0, "solving the test media")
    test = make_set(TEST_STREAM + params.seed, 0, params.test_samples, True)
    solver_time = test.solver_time_s / (2 * params.test_samples)  # one 32 x 32 and one 64 x 64 solve each
    if params.retrain:
        progress(0.05, "solving the training media")
        data = make_set(TRAIN_STREAM + params.seed, 0, params.train_samples, False)
        trained = train_all(data.regular32, data.adaptive, params.epochs, params.seed, device,
                            progress.stage(0.1, 0.85))
    else:
        trained = load_checkpoint(device)
    progress(0.86, "evaluating")
    tables = {}
    predictions = {}
    for mesh, samples in (("regular", test.regular32), ("adaptive", test.adaptive)):
        tables[mesh], predictions[mesh] = _mesh_errors(trained, mesh, samples, test.regular32, device)
    progress(0.92, "super-resolution")
    fused = trained.apt["fused"]
    high_batch = make_batch(test.regular32, test.regular64).to(device)
    high_pred = apt_predict(fused, high_batch)
    same = tables["regular"].fused
    high = float(evaluate(high_pred, high_batch).mean())
    progress(0.96, "timing")
    eval_samples = test.adaptive if params.mesh == "adaptive" else test.regular32
    t0 = time.perf_counter()
    apt_predict(fused, make_batch(eval_samples).to(device))
    inference = (time.perf_counter() - t0) / len(eval_samples)
    first = test.adaptive[0]
    view = SampleView(
        x=_round(first.points[:, 0]), y=_round(first.points[:, 1]), area=_round(first.area, 6),
        log_k=_round(first.log_k), source=_round(first.source, 2), pressure=_round(first.pressure),
        fused=_round(predictions["adaptive"]["fused"][0]), local_only=_round(predictions["adaptive"]["local_only"][0]),
        global_only=_round(predictions["adaptive"]["global_only"][0]),
        high_truth=_round(test.regular64[0].pressure), high_fused=_round(high_pred[0].cpu().numpy() * PRESSURE_SCALE),
    )
    counts = {name: sum(p.numel() for p in m.parameters()) for name, m in trained.apt.items()}
    result = Result(
        mesh=params.mesh, retrain=params.retrain, seed=params.seed, test_samples=params.test_samples,
        train_samples=int(trained.meta["train_samples"]), epochs=int(trained.meta["epochs"]),
        train_time_s=float(trained.meta["train_time_s"]),
        relative_l2=tables[params.mesh], by_mesh=[tables["regular"], tables["adaptive"]],
        super_resolution=SuperResolution(same_resolution=same, higher_resolution=high, ratio=high / same),
        solver_time_s=solver_time, inference_time_s=inference,
        parameters=ParameterCounts(**counts, fno=sum(p.numel() for p in trained.fno.parameters())),
        losses=LossCurves(**trained.losses), sample=view,
    )
    progress(1.0, "done")
    return result
