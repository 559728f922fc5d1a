"""Batching, training and evaluation of the APT variants and the FNO baseline; the checkpoint format."""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch

from models.apt_operator.data import MeshSample
from models.apt_operator.nets import DECODE_NEIGHBOURS, FNO, NEIGHBOURS, APTOperator, Variant, knn
from models.common.contract import Progress, no_progress
from models.common.paths import static_path

__all__ = ["CHECKPOINT", "VARIANTS", "Batch", "Trained", "apt_predict", "evaluate", "fno_predict",
           "load_checkpoint", "make_batch", "relative_l2", "save_checkpoint", "train_all"]

VARIANTS: tuple[Variant, ...] = ("fused", "local_only", "global_only")
SOURCE_SCALE = 100.0
PRESSURE_SCALE = 5.0
BATCH = 16
CHECKPOINT = ("weights", "apt_operator", "checkpoint.pt")


@dataclass
class Batch:
    """Tensors of samples sharing a mesh size: inputs at the nodes, queries with their decoder nodes, targets."""

    feats: torch.Tensor
    points: torch.Tensor
    nbr: torch.Tensor
    queries: torch.Tensor
    qidx: torch.Tensor
    qweight: torch.Tensor
    target: torch.Tensor
    area: torch.Tensor

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
    feats, pts, nbr, qs, qi, qw, tg, ar = [], [], [], [], [], [], [], []
    for s, t in zip(inputs, targets, strict=True):
        feats.append(np.stack([s.points[:, 0], s.points[:, 1], s.log_k, s.source / SOURCE_SCALE], 1))
        pts.append(s.points)
        nbr.append(knn(s.points, s.points, NEIGHBOURS, skip_self=True)[0])
        idx, w = decoder_weights(s.points, t.points)
        qs.append(t.points)
        qi.append(idx)
        qw.append(w)
        tg.append(t.pressure / PRESSURE_SCALE)
        ar.append(t.area)
    f = lambda a: torch.tensor(np.stack(a), dtype=torch.float32)  # noqa: E731
    return Batch(f(feats), f(pts), torch.tensor(np.stack(nbr)), f(qs), torch.tensor(np.stack(qi)), f(qw), f(tg), f(ar))


def fno_grid(samples: Sequence[MeshSample]) -> torch.Tensor:
    """(B, 4, n, n) FNO inputs of regular-grid samples."""
    n = int(round(np.sqrt(samples[0].points.shape[0])))
    grids = [np.stack([s.points[:, 0], s.points[:, 1], s.log_k, s.source / SOURCE_SCALE], 0).reshape(4, n, n)
             for s in samples]
    return torch.tensor(np.stack(grids), dtype=torch.float32)


def relative_l2(pred: torch.Tensor, target: torch.Tensor, area: torch.Tensor) -> torch.Tensor:
    """Per-sample area-weighted relative L2 error ||pred - target|| / ||target||."""
    return torch.sqrt((area * (pred - target) ** 2).sum(-1) / (area * target**2).sum(-1))


@dataclass
class Trained:
    """The trained models and their training record."""

    apt: dict[Variant, APTOperator]
    fno: FNO
    losses: dict[str, list[float]]
    meta: dict[str, Any]


def _init(seed: int, build: Any) -> Any:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return build()


def train_all(regular: Sequence[MeshSample], adaptive: Sequence[MeshSample], epochs: int, seed: int,
              device: torch.device, progress: Progress = no_progress) -> Trained:
    """Train the three APT variants on regular 32 x 32 and adaptive meshes, and the FNO on the grid."""
    rng = np.random.default_rng(seed)
    sets = [make_batch(regular).to(device), make_batch(adaptive).to(device)]
    grid = fno_grid(regular).to(device)
    jobs: list[Variant | Literal["fno"]] = [*VARIANTS, "fno"]
    apt: dict[Variant, APTOperator] = {}
    losses: dict[str, list[float]] = {}
    fno: FNO | None = None
    t0 = time.perf_counter()
    for m, name in enumerate(jobs):
        model: torch.nn.Module = _init(seed + m, FNO if name == "fno" else partial(APTOperator, name))
        model.to(device)
        steps_per_epoch = sum(-(-len(s) // BATCH) for s in sets) if name != "fno" else -(-len(regular) // BATCH)
        opt = torch.optim.Adam(model.parameters(), lr=3e-3)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, epochs * steps_per_epoch))
        curve: list[float] = []
        for epoch in range(epochs):
            plan = [(k, rng.permutation(len(s))) for k, s in enumerate(sets)] if name != "fno" else \
                [(0, rng.permutation(len(regular)))]
            chunks = [(k, order[i:i + BATCH]) for k, order in plan for i in range(0, len(order), BATCH)]
            total = 0.0
            for c in rng.permutation(len(chunks)):
                k, rows = chunks[c]
                if name == "fno":
                    pred = model(grid[rows]).reshape(len(rows), -1)
                    b = sets[0].take(torch.as_tensor(rows))
                    loss = relative_l2(pred, b.target, b.area).mean()
                else:
                    b = sets[k].take(torch.as_tensor(rows))
                    loss = relative_l2(model(b.feats, b.points, b.nbr, b.queries, b.qidx, b.qweight),
                                       b.target, b.area).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                sched.step()
                total += float(loss.detach()) * len(rows)
            curve.append(total / sum(len(r) for _, r in chunks))
            progress((m + (epoch + 1) / epochs) / len(jobs), f"training {name}: epoch {epoch + 1}/{epochs}")
        losses[name] = curve
        if name == "fno":
            fno = model  # type: ignore[assignment]
        else:
            apt[name] = model  # type: ignore[assignment]
    assert fno is not None
    meta = {"train_samples": len(regular), "epochs": epochs, "seed": seed, "train_time_s": time.perf_counter() - t0}
    return Trained(apt=apt, fno=fno, losses=losses, meta=meta)


def save_checkpoint(trained: Trained, path: Path | None = None) -> Path:
    path = path or static_path(*CHECKPOINT)
    path.parent.mkdir(parents=True, exist_ok=True)
    state: dict[str, dict[str, Any]] = {name: {k: v.cpu() for k, v in m.state_dict().items()} for name, m in trained.apt.items()}
    state["fno"] = {k: v.cpu() for k, v in trained.fno.state_dict().items()}
    buffer = io.BytesIO()
    torch.save({"state": state, "losses": trained.losses, "meta": trained.meta}, buffer)
    path.write_bytes(buffer.getvalue())
    return path


def load_checkpoint(device: torch.device, path: Path | None = None) -> Trained:
    path = path or static_path(*CHECKPOINT)
    blob = torch.load(path, map_location="cpu", weights_only=True)
    apt = {}
    for name in VARIANTS:
        model = APTOperator(name)
        model.load_state_dict(blob["state"][name])
        apt[name] = model.to(device).eval()
    fno = FNO()
    fno.load_state_dict(blob["state"]["fno"])
    return Trained(apt=apt, fno=fno.to(device).eval(), losses=blob["losses"], meta=blob["meta"])


@torch.no_grad()
def apt_predict(model: APTOperator, batch: Batch) -> torch.Tensor:
    model.eval()
    out = [model(b.feats, b.points, b.nbr, b.queries, b.qidx, b.qweight)
           for b in (batch.take(slice(i, i + BATCH)) for i in range(0, len(batch), BATCH))]
    return torch.cat(out)


@torch.no_grad()
def fno_predict(model: FNO, grid: torch.Tensor) -> torch.Tensor:
    model.eval()
    return torch.cat([model(grid[i:i + BATCH]) for i in range(0, grid.shape[0], BATCH)]).reshape(grid.shape[0], -1)


def evaluate(pred: torch.Tensor, batch: Batch) -> np.ndarray:
    """Per-sample relative L2 errors."""
    return relative_l2(pred, batch.target, batch.area).cpu().numpy()
