"""run(params, progress): the problem, the exact reference, an unguided check, then each method's sweep."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.common.claims import Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.grids import GridReport, best_on_grid
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.stein_guidance.claims import CLAIMS, measure
from models.stein_guidance.fidelity import energy_distance
from models.stein_guidance.guidance import METHOD_LABELS, GuidanceSettings
from models.stein_guidance.matching import matched_hit_rate, on_manifold_at
from models.stein_guidance.params import MAX_WORK, Params
from models.stein_guidance.problem import (
    COMPONENT_STD,
    GuidanceProblem,
    build_problem,
    exact_posterior_curve,
    tilted_law,
)
from models.stein_guidance.result import CurvePoint, MatchedComparison, Result, SeedSummary, Trajectories
from models.stein_guidance.sampler import SampleRun, sample

__all__ = ["run"]

_REFERENCE_SCALES = [float(s) for s in np.geomspace(0.25, 500.0, 40)]
_GRID = 81
_EXTENT = 4.5


def _generator(device: str, *key: int) -> torch.Generator:
    seed = int(np.random.SeedSequence(list(key)).generate_state(1, dtype=np.uint64)[0] % (2**63 - 1))
    return torch.Generator(device=device).manual_seed(seed)


def _check_budget(params: Params) -> None:
    work = len(params.guidance_scales) * params.particles**2 * params.steps * len(params.methods)
    if work > MAX_WORK:
        raise MethodInputError(
            f"guidance_scales x particles^2 x steps x methods = {work:,} is above the limit of {MAX_WORK:,}: "
            "use fewer particles, steps or scales"
        )


def _density(problem: GuidanceProblem) -> tuple[list[float], list[list[float]]]:
    axis = torch.linspace(-_EXTENT, _EXTENT, _GRID, dtype=problem.prior.means.dtype, device=problem.prior.means.device)
    grid = torch.stack(torch.meshgrid(axis, axis, indexing="xy"), dim=-1)
    return axis.tolist(), problem.plane_prior().log_prob(grid).tolist()


def _trajectories(run: SampleRun, scales: list[float], index: int) -> Trajectories:
    paths = run.trajectories[index].transpose(0, 1)  # (tracked, points, 2)
    return Trajectories(
        scale=scales[index], times=run.times, paths=paths.tolist(), final=run.final[index, :, :2].tolist(),
    )


REFERENCE_DRAWS = 1000  # exact draws of the tilted law per scale, for the energy distance
TUNING_POINTS = 7  # DPS's own tuning grid: geometric, from a quarter of the smallest target to 4x the largest
MAX_EXTENSIONS = 2  # an optimum on the tuning grid's edge extends the grid (by 4x) at most this often


def tuning_grid(scales: list[float], low: float | None = None, high: float | None = None) -> list[float]:
    """The scales DPS is tuned on for the targets `scales`: a geometric grid that brackets them."""
    lo = low if low is not None else max(min(scales) / 4, 1e-3)
    hi = high if high is not None else max(scales) * 4
    return [float(v) for v in np.geomspace(lo, hi, TUNING_POINTS)]


@dataclass
class _Tuned:
    """DPS at its best scale for each target scale, chosen on the bracketing grid."""

    distance: list[float]
    scale: list[float]
    grids: list[GridReport]


def _tune_dps(problem: GuidanceProblem, params: Params, settings: GuidanceSettings, reference: torch.Tensor,
              device: str, seed: int) -> _Tuned:
    """For each target scale, DPS's energy distance to its exact draws at every scale of the tuning grid;
    a best scale on the grid's edge extends the grid past it (at most MAX_EXTENSIONS times)."""
    grid = tuning_grid(params.guidance_scales)
    for extension in range(MAX_EXTENSIONS + 1):
        run = sample("dps", problem, grid, params.particles, params.steps, settings,
                     _generator(device, seed, 5, extension), lambda k: None)
        table = energy_distance(run.final.unsqueeze(0), reference.unsqueeze(1))  # (target i, grid j)
        reports = [best_on_grid(f"DPS for target lambda = {t:g}", "DPS scale", grid, row.tolist(), lower_is_better=True)
                   for t, row in zip(params.guidance_scales, table, strict=True)]
        low_edge = any(r.at_edge and r.best == min(grid) for r in reports)
        high_edge = any(r.at_edge and r.best == max(grid) for r in reports)
        if not (low_edge or high_edge) or extension == MAX_EXTENSIONS:
            break
        grid = tuning_grid(params.guidance_scales, min(grid) / 4 if low_edge else min(grid),
                           max(grid) * 4 if high_edge else max(grid))
    best = table.min(dim=1)
    return _Tuned(best.values.tolist(), [grid[j] for j in best.indices.tolist()], reports)


def _fidelity(problem: GuidanceProblem, scales: list[float], finals: dict[str, torch.Tensor], particles: int,
              generator: torch.Generator) -> tuple[torch.Tensor, dict[str, list[float]], list[float]]:
    """The exact draws per scale, every method's energy distance to them, and the exact sample's floor; the
    unguided prior's distance is the trivial reference (`finals["unguided"]`, one sample for every scale)."""
    reference = torch.stack([tilted_law(problem, s).sample(REFERENCE_DRAWS, generator) for s in scales])
    own = torch.stack([tilted_law(problem, s).sample(particles, generator) for s in scales])
    ed = {name: energy_distance(x.expand(len(scales), -1, -1), reference).tolist() for name, x in finals.items()}
    return reference, ed, energy_distance(own, reference).tolist()


@dataclass
class _SeedRun:
    problem: GuidanceProblem
    exact: list[tuple[float, float]]
    curves: dict[str, list[CurvePoint]]
    runs: dict[str, SampleRun]
    hit_rate: float
    summary: SeedSummary


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> _SeedRun:
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the prior and the exact reference")
    problem = build_problem(params.dimension, device, _generator(device, seed, 0))
    exact = exact_posterior_curve(problem, _REFERENCE_SCALES, _generator(device, seed, 1))
    settings = GuidanceSettings(params.stein_step, params.running_cost_weight, COMPONENT_STD**2)
    check = monotone.stage(0.03, 0.06)
    unguided = sample(None, problem, [0.0], params.particles, params.steps, settings,
                      _generator(device, seed, 2), lambda k: check((k + 1) / params.steps, "unguided sampler"))
    unguided_on = float(problem.on_manifold(unguided.final).float().mean())
    curves: dict[str, list[CurvePoint]] = {}
    runs: dict[str, SampleRun] = {}
    share = 0.92 / len(params.methods)
    for index, name in enumerate(params.methods):
        stage = monotone.stage(0.06 + index * share, 0.06 + (index + 1) * share)
        label = METHOD_LABELS[name]

        def tick(k: int, stage: Progress = stage, label: str = label) -> None:
            stage((k + 1) / params.steps, f"{label}: step {k + 1}/{params.steps}")

        runs[name] = sample(name, problem, params.guidance_scales, params.particles, params.steps, settings,
                            _generator(device, seed, 3, index), tick)
        hits = problem.hits(runs[name].final).float().mean(-1).tolist()
        on = problem.on_manifold(runs[name].final).float().mean(-1).tolist()
        curves[name] = [CurvePoint(scale=s, hit_rate=h, on_manifold_fraction=o)
                        for s, h, o in zip(params.guidance_scales, hits, on, strict=True)]
    monotone(0.97, "energy distances to exact posterior draws")
    finals = {n: r.final for n, r in runs.items()} | {"unguided": unguided.final[:1]}
    reference, ed, floor = _fidelity(problem, params.guidance_scales, finals, params.particles,
                                     _generator(device, seed, 4))
    monotone(0.98, "tuning DPS's scale on a grid that brackets every target")
    tuned = _tune_dps(problem, params, settings, reference, device, seed) if "dps" in params.methods else None
    points = {name: [(p.hit_rate, p.on_manifold_fraction) for p in c] for name, c in curves.items()}
    hit_rate = matched_hit_rate(params.matched_hit_rate, points)
    summary = SeedSummary(
        seed=seed, energy_distance=ed, dps_tuned=tuned.distance if tuned else None,
        dps_tuned_scale=tuned.scale if tuned else None, dps_grids=tuned.grids if tuned else [], exact_floor=floor,
        matched_hit_rate=hit_rate, on_manifold_at_match={n: on_manifold_at(hit_rate, p) for n, p in points.items()},
        exact_at_match=on_manifold_at(hit_rate, exact) or 0.0, unguided_on_manifold=unguided_on,
    )
    return _SeedRun(problem, exact, curves, runs, hit_rate, summary)


def _standing(params: Params, seed_runs: list[_SeedRun]) -> Standing | None:
    """Every method's energy distance per seed (mean over scales) and per scale (the paired units)."""
    if "sdg" not in params.methods or len(params.methods) < 2:
        return None
    per_scale: dict[str, list[list[float]]] = {n: [r.summary.energy_distance[n] for r in seed_runs] for n in params.methods}
    if "dps" in params.methods:
        per_scale["dps_best_scale"] = [r.summary.dps_tuned or [] for r in seed_runs]
    return Standing(metric="energy distance to the exact posterior, mean over scales and seeds", lower_is_better=True,
                    method="sdg", seed_scores={n: [float(np.mean(v)) for v in seeds] for n, seeds in per_scale.items()},
                    unit_scores=per_scale,
                    labels={**{name: METHOD_LABELS[name] for name in params.methods},
                            "dps_best_scale": "DPS at its best scale"})


def run(params: Params, progress: Progress) -> Result:
    """Per seed: sweep the guidance scales for each method; fidelity at fixed scale; the matched comparison."""
    _check_budget(params)
    device = torch_device()
    monotone = MonotoneProgress(progress)
    seeds = seed_values(params.seed, params.seeds)
    seed_runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, seed, device, stage), monotone)
    measured = [measure(r.summary) for r in seed_runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    standing = _standing(params, seed_runs)
    first = seed_runs[0]
    trajectories = {}
    for shown, sampled in first.runs.items():
        nearest = int(np.argmin([abs(p.hit_rate - first.hit_rate) for p in first.curves[shown]]))
        trajectories[shown] = _trajectories(sampled, params.guidance_scales, nearest)
    axis, grid = _density(first.problem)
    monotone(1.0, "done")
    return Result(
        claims=claims, standing=standing, grids=first.summary.dps_grids, seeds=seeds, per_seed=[r.summary for r in seed_runs],
        guidance_scales=params.guidance_scales, dimension=params.dimension, particles=params.particles,
        steps=params.steps, methods=list(params.methods), labels={name: METHOD_LABELS[name] for name in params.methods},
        target=first.problem.target.tolist(), hit_radius=first.problem.hit_radius,
        log_density_threshold=first.problem.log_density_threshold,
        unguided_on_manifold=first.summary.unguided_on_manifold, curves=first.curves,
        exact_posterior_curve=[CurvePoint(scale=s, hit_rate=h, on_manifold_fraction=o)
                               for s, (h, o) in zip(_REFERENCE_SCALES, first.exact, strict=True)],
        at_matched_hit_rate=MatchedComparison(hit_rate=first.hit_rate,
                                              on_manifold=first.summary.on_manifold_at_match,
                                              exact_posterior=first.summary.exact_at_match),
        trajectories=trajectories, density_axis=axis, density_grid=grid,
    )
