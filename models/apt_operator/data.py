"""Samples: a channelised medium with wells, its FV pressure and injected-fluid saturation, on three meshes.

Every field is defined in continuous coordinates, so one sample can be sampled on any mesh:
- `regular` n x n: cell centres, the FV pressure and the upwind-transported saturation on that grid;
- `adaptive`: a 16 x 16 base grid whose cells with the largest pressure gradient, saturation gradient or well
  rate are split into 2 x 2 children (a quadtree to the 32 x 32 level); each leaf carries the mean of the
  32 x 32 pressure, saturation and source and the mean of ln k over its fine cells.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.apt_operator.channels import ChannelField, draw_channels
from models.apt_operator.solver import cell_centres, solve_darcy
from models.apt_operator.transport import transport

__all__ = ["ADAPTIVE_REFINED", "FIELDS", "TEST_STREAM", "TRAIN_STREAM", "MeshSample", "adaptive_sample", "draw_field", "leaves_on_grid",
           "make_set", "refinement_indicator", "regular_sample"]

TRAIN_STREAM = 0  # training samples come from streams seed, test samples from TEST_STREAM + seed
TEST_STREAM = 1_000_000
ADAPTIVE_BASE = 16
ADAPTIVE_REFINED = 64  # base cells split into 2 x 2, so an adaptive mesh has 256 + 3 * 64 = 448 points
FIELDS = ("pressure", "saturation")
draw_field = draw_channels


@dataclass(frozen=True)
class MeshSample:
    """One sample on one mesh: point coordinates, cell areas, inputs (log k, q), pressure and saturation targets."""

    points: np.ndarray  # (N, 2)
    area: np.ndarray  # (N,)
    log_k: np.ndarray  # (N,)
    source: np.ndarray  # (N,)
    pressure: np.ndarray  # (N,)
    saturation: np.ndarray  # (N,) injected fluid at the final time
    cells: np.ndarray | None = None  # adaptive only: (N, 4) flat 32 x 32 cells averaged into each point

    def targets(self) -> np.ndarray:
        """(N, 2): pressure and saturation."""
        return np.stack([self.pressure, self.saturation], 1)


def _grid_fields(field: ChannelField, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    return x, y, field.log_k(x, y)


def regular_sample(field: ChannelField, n: int) -> MeshSample:
    """The sample on the n x n grid, with its FV solution."""
    x, y, log_k = _grid_fields(field, n)
    q = field.source(x, y)
    k = np.exp(log_k)
    p = solve_darcy(k, q).pressure
    s = transport(k, q, p).saturation
    return MeshSample(points=np.stack([x.ravel(), y.ravel()], 1), area=np.full(n * n, 1.0 / n**2),
                      log_k=log_k.ravel(), source=q.ravel(), pressure=p.ravel(), saturation=s.ravel())


def adaptive_sample(field: ChannelField, fine: MeshSample | None = None) -> MeshSample:
    """The quadtree point set: 16 x 16 base cells, the ADAPTIVE_REFINED with the largest indicator split in four."""
    fine = fine or regular_sample(field, 2 * ADAPTIVE_BASE)
    n, b = 2 * ADAPTIVE_BASE, ADAPTIVE_BASE
    p = fine.pressure.reshape(n, n)
    q = fine.source.reshape(n, n)
    lk = fine.log_k.reshape(n, n)
    sat = fine.saturation.reshape(n, n)
    blocks = lambda a: a.reshape(b, 2, b, 2).transpose(0, 2, 1, 3).reshape(b, b, 4)  # noqa: E731
    indicator = refinement_indicator(p, sat, q)
    chosen = np.zeros(b * b, dtype=bool)
    chosen[np.argsort(-indicator.ravel(), kind="stable")[:ADAPTIVE_REFINED]] = True
    refined = chosen.reshape(b, b)
    c = cell_centres(b)
    bx, by = np.meshgrid(c, c, indexing="ij")
    coarse = ~refined
    fx, fy = (a.reshape(n, n) for a in fine.points.T)
    fine_mask = np.repeat(np.repeat(refined, 2, 0), 2, 1)
    points = np.concatenate([np.stack([bx[coarse], by[coarse]], 1), np.stack([fx[fine_mask], fy[fine_mask]], 1)])
    area = np.concatenate([np.full(coarse.sum(), 1.0 / b**2), np.full(fine_mask.sum(), 1.0 / n**2)])
    mean = lambda a: np.concatenate([blocks(a).mean(-1)[coarse], a[fine_mask]])  # noqa: E731
    flat = np.arange(n * n).reshape(n, n)
    cells = np.concatenate([blocks(flat)[coarse], np.repeat(flat[fine_mask][:, None], 4, 1)])
    return MeshSample(points=points, area=area, log_k=mean(lk), source=mean(q), pressure=mean(p),
                      saturation=mean(sat), cells=cells)


def refinement_indicator(p: np.ndarray, s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per 2 x 2 block of the fine grid: |grad p|, |grad s| and |q|, each relative to its mean over the domain.

    The blocks with the largest values are refined: where the pressure changes fast (near wells and across
    channel edges), along the saturation front, and at the wells."""
    n = p.shape[0]
    b = n // 2
    blocks = lambda a: a.reshape(b, 2, b, 2).transpose(0, 2, 1, 3).reshape(b, b, 4).mean(-1)  # noqa: E731
    out = np.zeros((b, b))
    for field in (p, s):
        gx, gy = np.gradient(field, 1.0 / n)
        grad = np.sqrt(gx**2 + gy**2)
        out += blocks(grad) / max(float(grad.mean()), 1e-12)
    return out + blocks(np.abs(q)) / np.abs(q).mean()


@dataclass(frozen=True)
class SampleSet:
    """Samples of one draw on the meshes the page uses, and the solver's wall time."""

    regular32: list[MeshSample]
    regular64: list[MeshSample]
    adaptive: list[MeshSample]
    solver_time_s: float


@lru_cache(maxsize=8)
def make_set(seed: int, start: int, count: int, fine: bool = True) -> SampleSet:
    """Samples `start .. start + count - 1` of stream `seed` (sample i draws from rng([seed, i]))."""
    r32, r64, ada = [], [], []
    solver = 0.0
    for i in range(start, start + count):
        field = draw_field(np.random.default_rng([seed, i]))
        t0 = time.perf_counter()
        s32 = regular_sample(field, 32)
        solver += time.perf_counter() - t0
        r32.append(s32)
        ada.append(adaptive_sample(field, s32))
        if fine:
            t0 = time.perf_counter()
            r64.append(regular_sample(field, 64))
            solver += time.perf_counter() - t0
    return SampleSet(regular32=r32, regular64=r64, adaptive=ada, solver_time_s=solver)


def leaves_on_grid(leaves: MeshSample) -> MeshSample:
    """The 32 x 32 grid holding only what an adaptive mesh carries: every fine cell takes its leaf's values
    (piecewise constant). This is what a grid-bound model (the FNO) reads on the adaptive mesh."""
    assert leaves.cells is not None
    n = 2 * ADAPTIVE_BASE
    owner = np.zeros(n * n, dtype=np.int64)
    owner[leaves.cells.ravel()] = np.repeat(np.arange(len(leaves.points)), leaves.cells.shape[1])
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    return MeshSample(points=np.stack([x.ravel(), y.ravel()], 1), area=np.full(n * n, 1.0 / n**2),
                      log_k=leaves.log_k[owner], source=leaves.source[owner], pressure=leaves.pressure[owner],
                      saturation=leaves.saturation[owner])
