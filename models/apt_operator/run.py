"""Run: per seed, draw and solve test media, load (or retrain) the models, measure the claims on the chosen mesh."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch

from models.apt_operator.claims import CLAIMS, measure
from models.apt_operator.data import TEST_STREAM, TRAIN_STREAM, MeshSample, SampleSet, make_set
from models.apt_operator.nulls import on_leaves, relative_l2, uniform_k_guess
from models.apt_operator.params import Params
from models.apt_operator.result import (
    LABELS,
    LossCurves,
    MediumErrors,
    MeshErrors,
    ParameterCounts,
    Result,
    SampleView,
    SeedSummary,
    SuperResolution,
    Transfer,
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
from models.common.claims import Standing, evaluate_claims
from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values

__all__ = ["run"]


def _round(a: np.ndarray | list[float], digits: int = 4) -> list[float]:
    return [float(v) for v in np.round(np.asarray(a, dtype=float), digits)]


def _nulls(test: SampleSet) -> dict[str, list[float]]:
    """Per-medium relative L2 of the uniform-k FV solve on the 32 x 32 grid, the adaptive leaves and 64 x 64."""
    out: dict[str, list[float]] = {"regular": [], "adaptive": [], "fine": []}
    for grid, leaves, fine in zip(test.regular32, test.adaptive, test.regular64, strict=True):
        guess = uniform_k_guess(grid)
        out["regular"].append(relative_l2(guess, grid))
        out["adaptive"].append(relative_l2(on_leaves(guess, leaves), leaves))
        out["fine"].append(relative_l2(uniform_k_guess(fine), fine))
    return out


def _mesh_errors(trained: Trained, mesh: str, samples: list[MeshSample], grids: list[MeshSample],
                 device: torch.device) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Per-medium relative L2 of every model on `samples`; the FNO sees the 32 x 32 grid (`grids`), restricted."""
    batch = make_batch(samples).to(device)
    preds: dict[str, torch.Tensor] = {name: apt_predict(trained.apt[name], batch) for name in VARIANTS}
    fno = fno_predict(trained.fno, fno_grid(grids).to(device))
    if mesh == "adaptive":
        cells = torch.tensor(np.stack([s.cells for s in samples if s.cells is not None]), device=device)
        fno = torch.gather(fno, 1, cells.reshape(len(samples), -1)).reshape(cells.shape).mean(-1)
    preds["fno"] = fno
    errors = {name: evaluate(pred, batch) for name, pred in preds.items()}
    return errors, {k: v.cpu().numpy() * PRESSURE_SCALE for k, v in preds.items()}


def _errors(model: torch.nn.Module, inputs: list[MeshSample], device: torch.device) -> np.ndarray:
    batch = make_batch(inputs).to(device)
    return evaluate(apt_predict(model, batch), batch)  # type: ignore[arg-type]


def _table(mesh: str, errors: dict[str, np.ndarray], null: list[float]) -> MeshErrors:
    return MeshErrors(mesh=mesh, **{k: float(np.mean(v)) for k, v in errors.items()}, uniform_k=float(np.mean(null)))


@dataclass
class _SeedRun:
    test: SampleSet
    trained: Trained
    tables: dict[str, MeshErrors]
    predictions: dict[str, dict[str, np.ndarray]]
    high_fused: np.ndarray
    summary: SeedSummary


def _one_seed(params: Params, seed: int, device: torch.device, progress: Progress) -> _SeedRun:
    progress = MonotoneProgress(progress)
    progress(0.0, "solving the test media")
    test = make_set(TEST_STREAM + seed, 0, params.test_samples, True)
    if params.retrain:
        progress(0.05, "solving the training media")
        data = make_set(TRAIN_STREAM + seed, 0, params.train_samples, False)
        trained = train_all(data.regular32, data.adaptive, params.epochs, seed, device, progress.stage(0.1, 0.8))
    else:
        trained = load_checkpoint(device)
    progress(0.8, "the null: FV solves with uniform permeability")
    nulls = _nulls(test)
    progress(0.82, "evaluating on both meshes")
    tables, predictions, per = {}, {}, {}
    for mesh, samples in (("regular", test.regular32), ("adaptive", test.adaptive)):
        per[mesh], predictions[mesh] = _mesh_errors(trained, mesh, samples, test.regular32, device)
        tables[mesh] = _table(mesh, per[mesh], nulls[mesh])
    progress(0.9, "super-resolution: the 64 x 64 input")
    fused = trained.apt["fused"]
    high_batch = make_batch(test.regular64).to(device)
    high_pred = apt_predict(fused, high_batch)
    high = evaluate(high_pred, high_batch)
    fno_high = fno_predict(trained.fno, fno_grid(test.regular64).to(device))
    sr = SuperResolution(
        same_resolution=tables["regular"].fused, higher_resolution=float(high.mean()),
        fno_same=tables["regular"].fno, fno_higher=float(evaluate(fno_high, high_batch).mean()),
        uniform_k_same=float(np.mean(nulls["regular"])), uniform_k_higher=float(np.mean(nulls["fine"])))
    progress(0.95, "mesh transfer: the model trained on regular grids only")
    regular_only = trained.apt["fused_regular"]
    moved = {name: _errors(regular_only, inputs, device)
             for name, inputs in (("regular", test.regular32), ("adaptive", test.adaptive), ("finer", test.regular64))}
    transfer = Transfer(**{k: float(v.mean()) for k, v in moved.items()})
    b = make_batch(test.adaptive[:4]).to(device)
    with torch.no_grad():
        gate = fused.mean_gate(b.feats, b.points, b.nbr, b.nweight, b.node_area)
    judged = per[params.mesh]
    media = MediumErrors(
        **{k: _round(v, 6) for k, v in judged.items()}, uniform_k=_round(nulls[params.mesh], 6),
        fused_32=_round(per["regular"]["fused"], 6), fused_64=_round(high, 6),
        uniform_k_32=_round(nulls["regular"], 6), uniform_k_64=_round(nulls["fine"], 6),
        uniform_k_adaptive=_round(nulls["adaptive"], 6), transfer_regular=_round(moved["regular"], 6),
        transfer_adaptive=_round(moved["adaptive"], 6), transfer_finer=_round(moved["finer"], 6))
    summary = SeedSummary(seed=seed, errors=tables[params.mesh], super_resolution=sr, transfer=transfer, gate=gate,
                          media=media)
    return _SeedRun(test, trained, tables, predictions, high_pred[0].cpu().numpy() * PRESSURE_SCALE, summary)


def _view(first: _SeedRun, mesh: str) -> SampleView:
    sample = (first.test.adaptive if mesh == "adaptive" else first.test.regular32)[0]
    pred = first.predictions[mesh]
    return SampleView(
        mesh=mesh, x=_round(sample.points[:, 0]), y=_round(sample.points[:, 1]), area=_round(sample.area, 6),
        log_k=_round(sample.log_k), source=_round(sample.source, 2), pressure=_round(sample.pressure),
        fused=_round(pred["fused"][0]), local_only=_round(pred["local_only"][0]),
        global_only=_round(pred["global_only"][0]), fno=_round(pred["fno"][0]),
        high_truth=_round(first.test.regular64[0].pressure), high_fused=_round(first.high_fused),
    )


def run(params: Params, progress: Progress) -> Result:
    device = torch.device(torch_device())
    monotone = MonotoneProgress(progress)
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, seed, device, stage), monotone, 0.0, 0.97)
    measured = [measure(r.summary) for r in runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    names = ("fused", "local_only", "global_only", "fno", "uniform_k")
    standing = Standing(metric=f"relative L2 of the pressure on the {params.mesh} mesh", lower_is_better=True,
                        method="fused", labels={n: LABELS[n] for n in names},
                        seed_scores={n: [float(np.mean(getattr(r.summary.media, n))) for r in runs] for n in names},
                        unit_scores={n: [getattr(r.summary.media, n) for r in runs] for n in names})
    first = runs[0]
    trained = first.trained
    inference_t0 = time.perf_counter()
    apt_predict(trained.apt["fused"], make_batch(first.test.adaptive if params.mesh == "adaptive"
                                                 else first.test.regular32).to(device))
    inference = (time.perf_counter() - inference_t0) / params.test_samples
    counts = {name: sum(p.numel() for p in m.parameters()) for name, m in trained.apt.items()}
    monotone(1.0, "done")
    return Result(
        claims=claims, standing=standing, seeds=seeds, per_seed=[r.summary for r in runs],
        mesh=params.mesh, retrain=params.retrain, test_samples=params.test_samples,
        train_samples=int(trained.meta["train_samples"]), epochs=int(trained.meta["epochs"]),
        steps=int(trained.meta.get("steps", 0)), train_time_s=float(trained.meta["train_time_s"]),
        relative_l2=first.tables[params.mesh], by_mesh=[first.tables["regular"], first.tables["adaptive"]],
        solver_time_s=first.test.solver_time_s / (2 * params.test_samples), inference_time_s=inference,
        parameters=ParameterCounts(**counts, fno=sum(p.numel() for p in trained.fno.parameters())),
        losses=LossCurves(**trained.losses), sample=_view(first, params.mesh),
    )
