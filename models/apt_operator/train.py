"""Batching, training and evaluation of the APT variants and the FNO baseline; the checkpoint format."""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch

from models.apt_operator.data import MeshSample
from models.apt_operator.gino import GINO, latent_neighbours, query_neighbours
from models.apt_operator.nets import DECODE_NEIGHBOURS, FNO, APTOperator, Variant, ball_neighbours, knn
from models.common.contract import Progress, no_progress
from models.common.device import seeded_init
from models.common.paths import static_path

__all__ = ["CHECKPOINT", "MODELS", "SCALE", "VARIANTS", "Batch", "Trained", "apt_predict", "evaluate", "fno_predict",
           "gino_predict", "load_checkpoint", "make_batch", "relative_l2", "save_checkpoint", "train_all"]

VARIANTS: tuple[Variant, ...] = ("fused", "local_only", "global_only")
# "fused_regular": the fused model trained on regular grids only, for the mesh-transfer claim
MODELS = (*VARIANTS, "fused_regular", "gino", "fno")
MESH_MODELS = (*VARIANTS, "gino")  # trained on both meshes
SOURCE_SCALE = 100.0
SCALE = np.array([5.0, 1.0])  # targets / SCALE: pressure, saturation
BATCH = 16
CHECKPOINT = ("weights", "apt_operator", "channels.pt")


@dataclass
class Batch:
    """Tensors of samples sharing a mesh size: inputs at the nodes, queries with their decoder nodes, targets."""

    feats: torch.Tensor
    points: torch.Tensor
    nbr: torch.Tensor
    nweight: torch.Tensor
    node_area: torch.Tensor
    queries: torch.Tensor
    qidx: torch.Tensor
    qweight: torch.Tensor
    target: torch.Tensor  # (B, Q, 2) scaled pressure and saturation
    area: torch.Tensor
    lidx: torch.Tensor  # GINO: input points per latent node, and their weights
    lweight: torch.Tensor
    gidx: torch.Tensor  # GINO: latent nodes per query, and their weights
    gweight: torch.Tensor

    def take(self, rows: torch.Tensor | np.ndarray | slice) -> Batch:
        return Batch(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))

    def to(self, device: torch.device) -> Batch:
        return Batch(*(getattr(self, f).to(device) for f in self.__dataclass_fields__))

    def __len__(self) -> int:
        return int(self.feats.shape[0])


def decoder_weights(points: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The DECODE_NEIGHBOURS nodes nearest each query and normalised inverse-square-distance weights."""
    idx, dist = knn(points, queries, DECODE_NEIGHBOURS, skip_self=False)
    w = 1.0 / (dist + 1e-2) ** 2
    return idx, w / w.sum(1, keepdims=True)


def make_batch(inputs: Sequence[MeshSample], targets: Sequence[MeshSample] | None = None) -> Batch:
    """Encode `inputs`, decode at the points of `targets` (default: the input points themselves)."""
    targets = targets or inputs
    balls = [ball_neighbours(s.points, s.area) for s in inputs]
    width = max(idx.shape[1] for idx, _ in balls)
    lat = [latent_neighbours(s.points, s.area) for s in inputs]
    dec = [query_neighbours(t.points) for t in targets]
    pad = lambda pairs: [np.pad(a, ((0, 0), (0, max(x.shape[1] for x, _ in pairs) - a.shape[1])))  # noqa: E731
                         for pair in pairs for a in pair]
    lat_p, dec_p = pad(lat), pad(dec)
    feats, pts, nbr, nw, na, qs, qi, qw, tg, ar = [], [], [], [], [], [], [], [], [], []
    for s, t, (idx, weight) in zip(inputs, targets, balls, strict=True):
        feats.append(np.stack([s.points[:, 0], s.points[:, 1], s.log_k, s.source / SOURCE_SCALE], 1))
        pts.append(s.points)
        pad = width - idx.shape[1]
        nbr.append(np.pad(idx, ((0, 0), (0, pad))))
        nw.append(np.pad(weight, ((0, 0), (0, pad))))
        na.append(s.area / s.area.sum())
        idx_q, w_q = decoder_weights(s.points, t.points)
        qs.append(t.points)
        qi.append(idx_q)
        qw.append(w_q)
        tg.append(t.targets() / SCALE)
        ar.append(t.area)
    f = lambda a: torch.tensor(np.stack(a), dtype=torch.float32)  # noqa: E731
    i = lambda a: torch.tensor(np.stack(a))  # noqa: E731
    return Batch(f(feats), f(pts), i(nbr), f(nw), f(na), f(qs), i(qi), f(qw), f(tg), f(ar),
                 i(lat_p[0::2]), f(lat_p[1::2]), i(dec_p[0::2]), f(dec_p[1::2]))


def fno_grid(samples: Sequence[MeshSample]) -> torch.Tensor:
    """(B, 4, n, n) FNO inputs of regular-grid samples."""
    n = int(round(np.sqrt(samples[0].points.shape[0])))
    grids = [np.stack([s.points[:, 0], s.points[:, 1], s.log_k, s.source / SOURCE_SCALE], 0).reshape(4, n, n)
             for s in samples]
    return torch.tensor(np.stack(grids), dtype=torch.float32)


def relative_l2(pred: torch.Tensor, target: torch.Tensor, area: torch.Tensor) -> torch.Tensor:
    """Per-sample, per-field area-weighted relative L2 error ||pred - target|| / ||target||: (B, Q, C) -> (B, C)."""
    w = area.unsqueeze(-1)
    return torch.sqrt((w * (pred - target) ** 2).sum(1) / (w * target**2).sum(1))


@dataclass
class Trained:
    """The trained models and their training record."""

    apt: dict[str, APTOperator]
    gino: GINO
    fno: FNO
    losses: dict[str, list[float]]
    meta: dict[str, Any]


def _loss(name: str, model: torch.nn.Module, b: Batch, grid: torch.Tensor | None) -> torch.Tensor:
    if name == "fno":
        assert grid is not None
        pred = _grid_to_points(model(grid))
    elif name == "gino":
        pred = model(b.feats, b.points, b.lidx, b.lweight, b.queries, b.gidx, b.gweight)
    else:
        pred = model(b.feats, b.points, b.nbr, b.nweight, b.node_area, b.queries, b.qidx, b.qweight)
    return relative_l2(pred, b.target, b.area).mean()


def _fit(name: str, model: torch.nn.Module, sets: list[Batch], grid: torch.Tensor | None, steps: int,
         rng: np.random.Generator, progress: Progress) -> list[float]:
    """Adam with a one-cycle schedule for exactly `steps` mini-batches drawn epoch by epoch over `sets`."""
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, steps))
    curve: list[float] = []
    done, total, seen = 0, 0.0, 0
    per_epoch = sum(-(-len(s) // BATCH) for s in sets)
    while done < steps:
        chunks = [(k, order[i:i + BATCH]) for k, s in enumerate(sets)
                  for order in [rng.permutation(len(s))] for i in range(0, len(s), BATCH)]
        for c in rng.permutation(len(chunks)):
            if done == steps:
                break
            k, rows = chunks[c]
            index = torch.as_tensor(rows)
            loss = _loss(name, model, sets[k].take(index), None if grid is None else grid[index])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            done += 1
            total += float(loss.detach()) * len(rows)
            seen += len(rows)
            if done % per_epoch == 0 or done == steps:
                curve.append(total / seen)
                total, seen = 0.0, 0
                progress(done / steps, f"training {name}: step {done}/{steps}")
    return curve


def _new_model(name: str, seed: int) -> torch.nn.Module:
    if name == "fno":
        return seeded_init(seed, FNO)  # type: ignore[no-any-return]
    if name == "gino":
        return seeded_init(seed, GINO)  # type: ignore[no-any-return]
    variant: Variant = "fused" if name == "fused_regular" else name  # type: ignore[assignment]
    return seeded_init(seed, partial(APTOperator, variant))  # type: ignore[no-any-return]


def train_all(regular: Sequence[MeshSample], adaptive: Sequence[MeshSample], epochs: int, seed: int,
              device: torch.device, progress: Progress = no_progress) -> Trained:
    """Train every model for the same number of optimiser steps: `epochs` passes over both meshes.

    The three APT variants and GINO see regular 32 x 32 and adaptive meshes; "fused_regular" (the transfer
    model) and the FNO see only the regular grids, so they make twice as many passes over them.
    """
    rng = np.random.default_rng(seed)
    both = [make_batch(regular).to(device), make_batch(adaptive).to(device)]
    grid = fno_grid(regular).to(device)
    steps = epochs * sum(-(-len(s) // BATCH) for s in both)
    models: dict[str, torch.nn.Module] = {}
    losses: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    for m, name in enumerate(MODELS):
        model = _new_model(name, seed + m).to(device)
        sets = both if name in MESH_MODELS else both[:1]
        stage = _stage(progress, m / len(MODELS), (m + 1) / len(MODELS))
        losses[name] = _fit(name, model, sets, grid if name == "fno" else None, steps, rng, stage)
        models[name] = model
    meta = {"train_samples": len(regular), "epochs": epochs, "steps": steps, "seed": seed,
            "train_time_s": time.perf_counter() - t0}
    return Trained(apt={k: v for k, v in models.items() if k in (*VARIANTS, "fused_regular")},  # type: ignore[misc]
                   gino=models["gino"], fno=models["fno"], losses=losses, meta=meta)  # type: ignore[arg-type]


def _stage(progress: Progress, start: float, end: float) -> Progress:
    return lambda fraction, message="": progress(start + (end - start) * fraction, message)


def save_checkpoint(trained: Trained, path: Path | None = None) -> Path:
    path = path or static_path(*CHECKPOINT)
    path.parent.mkdir(parents=True, exist_ok=True)
    models: dict[str, torch.nn.Module] = {**trained.apt, "gino": trained.gino, "fno": trained.fno}
    state = {name: {k: v.cpu() for k, v in m.state_dict().items()} for name, m in models.items()}
    buffer = io.BytesIO()
    torch.save({"state": state, "losses": trained.losses, "meta": trained.meta}, buffer)
    path.write_bytes(buffer.getvalue())
    return path


def load_checkpoint(device: torch.device, path: Path | None = None) -> Trained:
    path = path or static_path(*CHECKPOINT)
    blob = torch.load(path, map_location="cpu", weights_only=True)
    models = {}
    for name in MODELS:
        model = _new_model(name, 0)
        model.load_state_dict(blob["state"][name])
        models[name] = model.to(device).eval()
    return Trained(apt={k: v for k, v in models.items() if k in (*VARIANTS, "fused_regular")},  # type: ignore[misc]
                   gino=models["gino"], fno=models["fno"], losses=blob["losses"], meta=blob["meta"])  # type: ignore[arg-type]


def _grid_to_points(fields: torch.Tensor) -> torch.Tensor:
    """(B, C, n, n) -> (B, n * n, C), x the slow index as in the samples."""
    return fields.flatten(2).transpose(1, 2)


@torch.no_grad()
def apt_predict(model: APTOperator, batch: Batch) -> torch.Tensor:
    """(B, Q, 2) scaled fields at the batch's queries."""
    model.eval()
    size = max(1, BATCH * 1024 // batch.feats.shape[1])  # finer meshes in smaller chunks
    out = [model(b.feats, b.points, b.nbr, b.nweight, b.node_area, b.queries, b.qidx, b.qweight)
           for b in (batch.take(slice(i, i + size)) for i in range(0, len(batch), size))]
    return torch.cat(out)


@torch.no_grad()
def gino_predict(model: GINO, batch: Batch) -> torch.Tensor:
    model.eval()
    size = max(1, BATCH * 1024 // batch.feats.shape[1])
    out = [model(b.feats, b.points, b.lidx, b.lweight, b.queries, b.gidx, b.gweight)
           for b in (batch.take(slice(i, i + size)) for i in range(0, len(batch), size))]
    return torch.cat(out)


@torch.no_grad()
def fno_predict(model: FNO, grid: torch.Tensor) -> torch.Tensor:
    """(B, n * n, 2) scaled fields on the grid."""
    model.eval()
    return torch.cat([_grid_to_points(model(grid[i:i + BATCH])) for i in range(0, grid.shape[0], BATCH)])


def evaluate(pred: torch.Tensor, batch: Batch) -> np.ndarray:
    """Per-sample, per-field relative L2 errors (B, 2)."""
    return relative_l2(pred, batch.target, batch.area).cpu().numpy()
