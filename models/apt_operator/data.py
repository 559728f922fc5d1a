"""Darcy-flow samples: log-normal permeability from random Fourier modes, Gaussian wells, three meshes.

Every field is defined in continuous coordinates, so one sample can be sampled on any mesh:
- `regular` n x n: cell centres, the FV solution on that grid;
- `adaptive`: a 16 x 16 base grid whose cells with the largest pressure gradient or well rate are
  split into 2 x 2 children (a quadtree to the 32 x 32 level); each leaf carries the mean of the
  32 x 32 FV solution and source and the geometric mean of permeability over its fine cells.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.apt_operator.solver import cell_centres, solve_darcy

__all__ = ["ADAPTIVE_REFINED", "MODES", "TEST_STREAM", "TRAIN_STREAM", "MeshSample", "SampleField", "adaptive_sample", "draw_field",
           "make_set", "regular_sample"]

TRAIN_STREAM = 0  # training samples come from streams seed, test samples from TEST_STREAM + seed
TEST_STREAM = 1_000_000
MODES = 16  # Fourier modes of log k
WELL_WIDTH = 0.05  # Gaussian well radius
LOG_K_STD = 1.0
ADAPTIVE_BASE = 16
ADAPTIVE_REFINED = 64  # base cells split into 2 x 2, so an adaptive mesh has 256 + 3 * 64 = 448 points


@dataclass(frozen=True)
class SampleField:
    """One random medium: Fourier modes of log k and the wells (position, rate)."""

    wave: np.ndarray  # (MODES, 2) integer wavenumbers
    amp: np.ndarray  # (MODES,)
    phase: np.ndarray  # (MODES,)
    wells: np.ndarray  # (W, 2) positions
    rates: np.ndarray  # (W,) injection (+) / production (-) rates, summing to zero

    def log_k(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        arg = 2 * np.pi * (np.multiply.outer(x, self.wave[:, 0]) + np.multiply.outer(y, self.wave[:, 1])) + self.phase
        return np.asarray(np.cos(arg) @ self.amp)

    def source(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.zeros(np.broadcast(x, y).shape)
        for (wx, wy), rate in zip(self.wells, self.rates, strict=True):
            out += rate * np.exp(-((x - wx) ** 2 + (y - wy) ** 2) / (2 * WELL_WIDTH**2)) / (2 * np.pi * WELL_WIDTH**2)
        return out


def draw_field(rng: np.random.Generator) -> SampleField:
    """A random medium: log k a smooth Gaussian field (std LOG_K_STD), one injector, two producers."""
    wave = rng.integers(-4, 5, size=(MODES, 2))
    wave[np.all(wave == 0, axis=1)] = (1, 0)
    weight = 1.0 / (1.0 + np.sum(wave**2, axis=1))
    amp = rng.normal(size=MODES) * weight
    amp *= LOG_K_STD * np.sqrt(2.0) / np.sqrt(np.sum(amp**2))
    wells = rng.uniform(0.2, 0.8, size=(3, 2))
    rates = np.array([1.0, -0.5, -0.5]) * 10.0
    return SampleField(wave=wave, amp=amp, phase=rng.uniform(0, 2 * np.pi, MODES), wells=wells, rates=rates)


@dataclass(frozen=True)
class MeshSample:
    """One sample on one mesh: point coordinates, cell areas, inputs (log k, q) and the pressure target."""

    points: np.ndarray  # (N, 2)
    area: np.ndarray  # (N,)
    log_k: np.ndarray  # (N,)
    source: np.ndarray  # (N,)
    pressure: np.ndarray  # (N,)
    cells: np.ndarray | None = None  # adaptive only: (N, 4) flat 32 x 32 cells averaged into each point


def _grid_fields(field: SampleField, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    return x, y, field.log_k(x, y)


def regular_sample(field: SampleField, n: int) -> MeshSample:
    """The sample on the n x n grid, with its FV solution."""
    x, y, log_k = _grid_fields(field, n)
    q = field.source(x, y)
    p = solve_darcy(np.exp(log_k), q).pressure
    return MeshSample(points=np.stack([x.ravel(), y.ravel()], 1), area=np.full(n * n, 1.0 / n**2),
                      log_k=log_k.ravel(), source=q.ravel(), pressure=p.ravel())


def adaptive_sample(field: SampleField, fine: MeshSample | None = None) -> MeshSample:
    """The quadtree point set: 16 x 16 base cells, the ADAPTIVE_REFINED most active split in four."""
    fine = fine or regular_sample(field, 2 * ADAPTIVE_BASE)
    n, b = 2 * ADAPTIVE_BASE, ADAPTIVE_BASE
    p = fine.pressure.reshape(n, n)
    q = fine.source.reshape(n, n)
    lk = fine.log_k.reshape(n, n)
    gx, gy = np.gradient(p, 1.0 / n)
    grad = np.sqrt(gx**2 + gy**2)
    blocks = lambda a: a.reshape(b, 2, b, 2).transpose(0, 2, 1, 3).reshape(b, b, 4)  # noqa: E731
    indicator = blocks(grad).mean(-1) / grad.mean() + blocks(np.abs(q)).mean(-1) / np.abs(q).mean()
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
    return MeshSample(points=points, area=area, log_k=mean(lk), source=mean(q), pressure=mean(p), cells=cells)


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
