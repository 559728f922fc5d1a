"""run(params, progress): the problem, the exact reference, an unguided check, then each method's sweep."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.common.claims import Standing, evaluate_claims, run_seeds, seed_values
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
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


def _fidelity(problem: GuidanceProblem, scales: list[float], finals: dict[str, torch.Tensor], particles: int,
              generator: torch.Generator) -> tuple[dict[str, list[float]], list[float], list[float] | None,
                                                   list[float] | None]:
    """Energy distance of every method at every scale to exact draws; DPS tuned; the exact sample's floor."""
    reference = torch.stack([tilted_law(problem, s).sample(REFERENCE_DRAWS, generator) for s in scales])
    own = torch.stack([tilted_law(problem, s).sample(particles, generator) for s in scales])
    ed = {name: energy_distance(x, reference).tolist() for name, x in finals.items()}
    floor = energy_distance(own, reference).tolist()
    if "dps" not in finals:
        return ed, floor, None, None
    # every DPS run (scale j) against every target scale i: the best j for each i
    grid = energy_distance(finals["dps"].unsqueeze(0), reference.unsqueeze(1))  # (target i, dps j)
    best = grid.min(dim=1)
    return ed, floor, best.values.tolist(), [scales[j] for j in best.indices.tolist()]


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
    monotone(0.98, "energy distances to exact posterior draws")
    ed, floor, tuned, tuned_scale = _fidelity(problem, params.guidance_scales,
                                              {n: r.final for n, r in runs.items()}, params.particles,
                                              _generator(device, seed, 4))
    points = {name: [(p.hit_rate, p.on_manifold_fraction) for p in c] for name, c in curves.items()}
    hit_rate = matched_hit_rate(params.matched_hit_rate, points)
    summary = SeedSummary(
        seed=seed, energy_distance=ed, dps_tuned=tuned, dps_tuned_scale=tuned_scale, exact_floor=floor,
        matched_hit_rate=hit_rate, on_manifold_at_match={n: on_manifold_at(hit_rate, p) for n, p in points.items()},
        exact_at_match=on_manifold_at(hit_rate, exact) or 0.0, unguided_on_manifold=unguided_on,
    )
    return _SeedRun(problem, exact, curves, runs, hit_rate, summary)


def run(params: Params, progress: Progress) -> Result:
    """Per seed: sweep the guidance scales for each method; fidelity at fixed scale; the matched comparison."""
    _check_budget(params)
    device = torch_device()
    monotone = MonotoneProgress(progress)
    seeds = seed_values(params.seed, params.seeds)
    seed_runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, seed, device, stage), monotone)
    measured = [measure(r.summary) for r in seed_runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    standing = None
    if "sdg" in params.methods and len(params.methods) > 1:
        scores: dict[str, float] = {
            n: float(np.mean([np.mean(r.summary.energy_distance[n]) for r in seed_runs])) for n in params.methods}
        if "dps" in params.methods:
            scores["dps_best_scale"] = float(np.mean([np.mean(r.summary.dps_tuned or []) for r in seed_runs]))
        standing = Standing(metric="energy distance to the exact posterior, mean over scales and seeds",
                            lower_is_better=True, method="sdg", scores=scores,
                            labels={**{name: METHOD_LABELS[name] for name in params.methods},
                                    "dps_best_scale": "DPS at its best scale"})
    first = seed_runs[0]
    trajectories = {}
    for shown, sampled in first.runs.items():
        nearest = int(np.argmin([abs(p.hit_rate - first.hit_rate) for p in first.curves[shown]]))
        trajectories[shown] = _trajectories(sampled, params.guidance_scales, nearest)
    axis, grid = _density(first.problem)
    monotone(1.0, "done")
    return Result(
        claims=claims, standing=standing, seeds=seeds, per_seed=[r.summary for r in seed_runs],
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
