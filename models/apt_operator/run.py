"""Run: per seed, draw and solve test media, load (or retrain) the models, measure the claims on the chosen mesh."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from models.apt_operator.claims import CLAIMS, measure
from models.apt_operator.data import (
    TEST_STREAM,
    TRAIN_STREAM,
    MeshSample,
    SampleSet,
    leaves_on_grid,
    make_set,
)
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
    SCALE,
    VARIANTS,
    Batch,
    Trained,
    apt_predict,
    evaluate,
    fno_grid,
    fno_predict,
    gino_predict,
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

FIELDS = ("pressure", "saturation")


def _round(a: np.ndarray | list[float], digits: int = 4) -> list[float]:
    return [float(v) for v in np.round(np.asarray(a, dtype=float), digits)]


def _nulls(test: SampleSet) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    """Per-medium, per-field relative L2 (M, 2) of the uniform-k solve on the 32 x 32 grid, the adaptive leaves
    and 64 x 64; and the guess of the first medium (32 x 32 and on its leaves)."""
    out: dict[str, list[np.ndarray]] = {"regular": [], "adaptive": [], "fine": []}
    first: list[np.ndarray] = []
    for grid, leaves, fine in zip(test.regular32, test.adaptive, test.regular64, strict=True):
        guess = uniform_k_guess(grid)
        out["regular"].append(relative_l2(guess, grid))
        out["adaptive"].append(relative_l2(on_leaves(guess, leaves), leaves))
        out["fine"].append(relative_l2(uniform_k_guess(fine), fine))
        first = first or [guess, on_leaves(guess, leaves)]
    return {k: np.stack(v) for k, v in out.items()}, first


def _fno_on(trained: Trained, mesh: str, samples: list[MeshSample], device: torch.device) -> torch.Tensor:
    """FNO prediction at the points of `samples`: on adaptive meshes it reads the leaves (piecewise constant on
    the 32 x 32 grid) and its output is averaged back onto them."""
    grids = [leaves_on_grid(s) for s in samples] if mesh == "adaptive" else samples
    fno = fno_predict(trained.fno, fno_grid(grids).to(device))
    if mesh != "adaptive":
        return fno
    cells = torch.tensor(np.stack([s.cells for s in samples if s.cells is not None]), device=device)
    b, q, c = cells.shape
    flat = cells.reshape(b, q * c, 1).expand(-1, -1, fno.shape[-1])
    return torch.gather(fno, 1, flat).reshape(b, q, c, -1).mean(2)


def _mesh_errors(trained: Trained, mesh: str, samples: list[MeshSample],
                 device: torch.device) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Per-medium, per-field relative L2 (M, 2) of every model on `samples`, and the predictions (unscaled)."""
    batch = make_batch(samples).to(device)
    preds: dict[str, torch.Tensor] = {name: apt_predict(trained.apt[name], batch) for name in VARIANTS}
    preds["gino"] = gino_predict(trained.gino, batch)
    preds["fno"] = _fno_on(trained, mesh, samples, device)
    errors = {name: evaluate(pred, batch) for name, pred in preds.items()}
    return errors, {k: v.cpu().numpy() * SCALE for k, v in preds.items()}


def _errors(predict: Callable[[Batch], torch.Tensor], inputs: list[MeshSample], device: torch.device) -> np.ndarray:
    batch = make_batch(inputs).to(device)
    return evaluate(predict(batch), batch)


def _tables(mesh: str, errors: dict[str, np.ndarray], null: np.ndarray) -> dict[str, MeshErrors]:
    """Mean over media of each model's error: per field and the mean of the two."""
    out = {}
    for f, name in ((None, "mean"), (0, "pressure"), (1, "saturation")):
        pick = (lambda a: a.mean(1)) if f is None else (lambda a, f=f: a[:, f])  # type: ignore[misc]
        out[name] = MeshErrors(mesh=mesh, field=name, **{k: float(np.mean(pick(v))) for k, v in errors.items()},
                               uniform_k=float(np.mean(pick(null))))
    return out


@dataclass
class _SeedRun:
    test: SampleSet
    trained: Trained
    tables: dict[str, dict[str, MeshErrors]]
    predictions: dict[str, dict[str, np.ndarray]]
    null_first: list[np.ndarray]
    high_fused: np.ndarray
    summary: SeedSummary


def _one_seed(params: Params, seed: int, device: torch.device, progress: Progress) -> _SeedRun:
    progress = MonotoneProgress(progress)
    progress(0.0, "solving the test media (pressure and transport)")
    test = make_set(TEST_STREAM + seed, 0, params.test_samples, True)
    if params.retrain:
        progress(0.05, "solving the training media")
        data = make_set(TRAIN_STREAM + seed, 0, params.train_samples, False)
        trained = train_all(data.regular32, data.adaptive, params.epochs, seed, device, progress.stage(0.1, 0.8))
    else:
        trained = load_checkpoint(device)
    progress(0.8, "the null: FV solves and transport with uniform permeability")
    nulls, null_first = _nulls(test)
    progress(0.82, "evaluating on both meshes")
    tables, predictions, per = {}, {}, {}
    for mesh, samples in (("regular", test.regular32), ("adaptive", test.adaptive)):
        per[mesh], predictions[mesh] = _mesh_errors(trained, mesh, samples, device)
        tables[mesh] = _tables(mesh, per[mesh], nulls[mesh])
    progress(0.9, "super-resolution: the 64 x 64 input")
    fused = trained.apt["fused"]
    high_batch = make_batch(test.regular64).to(device)
    high_pred = apt_predict(fused, high_batch)
    high = evaluate(high_pred, high_batch)
    fno_high = evaluate(fno_predict(trained.fno, fno_grid(test.regular64).to(device)), high_batch)
    gino_high = evaluate(gino_predict(trained.gino, high_batch), high_batch)
    same = tables["regular"]["mean"]
    sr = SuperResolution(same_resolution=same.fused, higher_resolution=float(high.mean()), fno_same=same.fno,
                         fno_higher=float(fno_high.mean()), gino_same=same.gino, gino_higher=float(gino_high.mean()),
                         uniform_k_same=same.uniform_k, uniform_k_higher=float(nulls["fine"].mean()))
    progress(0.95, "mesh transfer: the model trained on regular grids only")
    regular_only = trained.apt["fused_regular"]
    moved = {name: _errors(lambda b: apt_predict(regular_only, b), inputs, device).mean(1)
             for name, inputs in (("regular", test.regular32), ("adaptive", test.adaptive), ("finer", test.regular64))}
    transfer = Transfer(**{k: float(v.mean()) for k, v in moved.items()})
    b = make_batch(test.adaptive[:4]).to(device)
    with torch.no_grad():
        gate = fused.mean_gate(b.feats, b.points, b.nbr, b.nweight, b.node_area)
    judged = {k: v.mean(1) for k, v in per[params.mesh].items()}
    null = {k: v.mean(1) for k, v in nulls.items()}
    media = MediumErrors(
        **{k: _round(v, 6) for k, v in judged.items()}, uniform_k=_round(null[params.mesh], 6),
        fused_32=_round(per["regular"]["fused"].mean(1), 6), fused_64=_round(high.mean(1), 6),
        uniform_k_32=_round(null["regular"], 6), uniform_k_64=_round(null["fine"], 6),
        uniform_k_adaptive=_round(null["adaptive"], 6), transfer_regular=_round(moved["regular"], 6),
        transfer_adaptive=_round(moved["adaptive"], 6), transfer_finer=_round(moved["finer"], 6))
    t = tables[params.mesh]
    summary = SeedSummary(seed=seed, errors=t["mean"], fields=[t["pressure"], t["saturation"]], super_resolution=sr,
                          transfer=transfer, gate=gate, media=media)
    return _SeedRun(test, trained, tables, predictions, null_first, high_pred[0, :, 0].cpu().numpy() * SCALE[0],
                    summary)


def _view(first: _SeedRun, mesh: str) -> SampleView:
    sample = (first.test.adaptive if mesh == "adaptive" else first.test.regular32)[0]
    pred = {k: v[0] for k, v in first.predictions[mesh].items()}
    null = first.null_first[1 if mesh == "adaptive" else 0]
    return SampleView(
        mesh=mesh, x=_round(sample.points[:, 0]), y=_round(sample.points[:, 1]), area=_round(sample.area, 6),
        log_k=_round(sample.log_k), source=_round(sample.source, 2), pressure=_round(sample.pressure),
        **{k: _round(pred[k][:, 0]) for k in (*VARIANTS, "gino", "fno")}, saturation=_round(sample.saturation),
        **{f"saturation_{k}": _round(pred[k][:, 1]) for k in ("fused", "gino", "fno")},
        saturation_null=_round(null[:, 1]),
        high_truth=_round(first.test.regular64[0].pressure), high_fused=_round(first.high_fused),
    )


def run(params: Params, progress: Progress) -> Result:
    device = torch.device(torch_device())
    monotone = MonotoneProgress(progress)
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, seed, device, stage), monotone, 0.0, 0.97)
    measured = [measure(r.summary) for r in runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    names = ("fused", "local_only", "global_only", "gino", "fno", "uniform_k")
    standing = Standing(metric=f"relative L2 (mean of pressure and saturation) on the {params.mesh} mesh",
                        lower_is_better=True, method="fused", labels={n: LABELS[n] for n in names},
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
        relative_l2=first.tables[params.mesh]["mean"],
        by_mesh=[t for mesh in ("regular", "adaptive") for t in first.tables[mesh].values()],
        solver_time_s=first.test.solver_time_s / (2 * params.test_samples), inference_time_s=inference,
        parameters=ParameterCounts(**counts, gino=sum(p.numel() for p in trained.gino.parameters()),
                                   fno=sum(p.numel() for p in trained.fno.parameters())),
        losses=LossCurves(**trained.losses), sample=_view(first, params.mesh),
    )
