"""The paper's LGSSM benchmark: tune every resampler on its reference grid, then score the tuned ones.

Tuning (once per run, on data sets of their own): each resampler with a knob (soft alpha, Gumbel tau, OT
epsilon, diffusion (T, Euler steps)) is run at every point of the reference's grid (`GRIDS`) and the point
with the lowest mean landscape error is kept; `at_edge` says whether that point lies on the grid's border.
Evaluation (per seed, on fresh data sets): every tuned resampler runs the CRN grid filter on the same data
sets and the same random-number streams, so its three metrics are paired with every other's set by set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.common.contract import Progress
from models.common.grids import GridReport
from models.diffusion_resampling.filtering import TRUE_THETA, lgssm
from models.diffusion_resampling.landscape import (
    LandscapeRun,
    crn_filter,
    kalman_grid,
    landscape_metrics,
    theta_grid,
)
from models.diffusion_resampling.resamplers import GRIDS, ResamplerName, ResamplerSettings, resampler
from models.diffusion_resampling.result import Tuning, TuningCell

__all__ = ["AXES", "BenchmarkData", "benchmark_data", "evaluate", "grid_reports", "tune"]

AXES = {"soft": ["alpha"], "gumbel": ["tau"], "ot": ["epsilon"], "diffusion": ["T", "Euler steps"]}


@dataclass(frozen=True)
class BenchmarkData:
    """Data sets (D, K) from the true model, the theta grid, the Kalman grid and a random-stream seed."""

    observations: np.ndarray
    thetas: np.ndarray
    kalman: tuple[np.ndarray, np.ndarray, np.ndarray]
    stream: int


def _seed(*key: int) -> int:
    return int(np.random.SeedSequence(list(key)).generate_state(1, dtype=np.uint64)[0] % (2**62))


def benchmark_data(count: int, length: int, grid_points: int, *key: int) -> BenchmarkData:
    """`count` series of `length` observations simulated at the true theta, seeded by `key`."""
    rows = []
    for d in range(count):
        generator = torch.Generator().manual_seed(_seed(*key, d))
        rows.append(lgssm(TRUE_THETA, "cpu").simulate(length - 1, generator)[1][:, 0].double().numpy())
    observations = np.stack(rows)
    thetas = theta_grid(grid_points)
    return BenchmarkData(observations, thetas, kalman_grid(thetas, observations), _seed(*key, 10**6))


def _run(name: ResamplerName, settings: ResamplerSettings, data: BenchmarkData, particles: int) -> LandscapeRun:
    paths = crn_filter(data.thetas, data.observations, particles, resampler(name, settings), data.stream)
    return landscape_metrics(data.thetas, data.observations, paths, data.kalman)


# one grid step beyond an axis's end, for when the best point lies there (None: the knob's domain ends)
def _beyond(name: str, axis: int, value: float, upward: bool) -> float | None:
    if name == "soft":  # alpha in [0, 1); alpha = 1 is multinomial resampling, which passes no gradient
        step = round(value + (1.0 - value) / 2, 4) if upward else round(value - 0.2, 2)
        return step if 0.0 <= step < 1.0 and step != value else None
    if name == "diffusion" and axis == 1:  # Euler steps, at most 64
        return value * 2 if upward and value < 32 else (value // 2 if not upward and value > 1 else None)
    if name == "diffusion":  # T
        return value + 1.0 if upward else (value / 2 if value > 0.25 else None)
    return value * 2 if upward else value / 2  # tau, epsilon: a factor of 2 as in the reference grids


def _edges(name: str, points: list[tuple[float, ...]], best: tuple[float, ...]) -> list[tuple[float, ...]]:
    """Grid points one step beyond the best point along each axis on which it is the grid's extreme."""
    out = []
    for axis in range(len(best)):
        values = sorted({p[axis] for p in points})
        for upward, end in ((False, values[0]), (True, values[-1])):
            beyond = _beyond(name, axis, end, upward) if best[axis] == end else None
            if beyond is not None:
                out.append(tuple(beyond if i == axis else v for i, v in enumerate(best)))
    return out


MAX_EXTENSIONS = 2  # rounds of grid extension past an edge


def _tune_one(name: ResamplerName, base: ResamplerSettings, data: BenchmarkData, particles: int) -> Tuning:
    """The reference grid, extended past an edge (up to MAX_EXTENSIONS rounds) while the best point lies on it."""
    scores: dict[tuple[float, ...], float] = {}

    def score(points: list[tuple[float, ...]]) -> None:
        for point in points:
            if point not in scores:
                scores[point] = float(_run(name, base.at(name, point), data, particles).landscape.mean())

    score(list(GRIDS[name]))
    for _ in range(MAX_EXTENSIONS):
        best = min(scores, key=scores.__getitem__)
        extra = [p for p in _edges(name, list(scores), best) if p not in scores]
        if not extra:
            break
        score(extra)
    best = min(scores, key=scores.__getitem__)
    at_edge = any(best[a] in (min(p[a] for p in scores), max(p[a] for p in scores))
                  and len({p[a] for p in scores}) > 1 for a in range(len(best)))
    cells = [TuningCell(point=list(p), landscape=v) for p, v in sorted(scores.items())]
    return Tuning(method=name, axes=AXES[name], cells=cells, best=list(best), at_edge=at_edge,
                  extended=len(scores) > len(GRIDS[name]))


def tune(names: list[ResamplerName], base: ResamplerSettings, data: BenchmarkData, particles: int,
         progress: Progress) -> tuple[dict[str, ResamplerSettings], dict[str, Tuning]]:
    """Each resampler's settings at its grid point of lowest mean landscape error on the tuning data."""
    settings: dict[str, ResamplerSettings] = {}
    tunings: dict[str, Tuning] = {}
    for index, name in enumerate(names):
        settings[name] = base
        if name in GRIDS:
            tunings[name] = _tune_one(name, base, data, particles)
            settings[name] = base.at(name, tuple(tunings[name].best))
        progress((index + 1) / len(names), f"tuning {name} on its grid")
    return settings, tunings


def evaluate(names: list[ResamplerName], settings: dict[str, ResamplerSettings], data: BenchmarkData,
             particles: int, progress: Progress) -> dict[str, LandscapeRun]:
    """The tuned resamplers on one seed's data sets (common data, common random numbers)."""
    out: dict[str, LandscapeRun] = {}
    for index, name in enumerate(names):
        out[name] = _run(name, settings[name], data, particles)
        progress((index + 1) / len(names), f"benchmark: {name}")
    return out


def grid_reports(tunings: dict[str, Tuning]) -> list[GridReport]:
    """One report per tuned knob; for diffusion's (T, steps) grid each axis's profile (the best score over the other)."""
    out = []
    for name, tuning in tunings.items():
        for axis, label in enumerate(tuning.axes):
            values = sorted({c.point[axis] for c in tuning.cells})
            scores = [min(c.landscape for c in tuning.cells if c.point[axis] == v) for v in values]
            best = tuning.best[axis]
            out.append(GridReport(tuned=name, param=label, values=values, scores=scores, best=best,
                                  at_edge=len(values) > 1 and best in (values[0], values[-1])))
    return out
