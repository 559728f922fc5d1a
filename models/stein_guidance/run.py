"""run(params, progress): per seed, tune every method's strength on a bracketing grid, evaluate all methods
on shared noise at their tuned strengths, then the paired claims."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.common.claims import Standing, evaluate_claims
from models.common.contract import Progress
from models.common.device import torch_device
from models.common.grids import GridReport, best_on_grid
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.stein_guidance.claims import CLAIMS, measure
from models.stein_guidance.fidelity import energy_units
from models.stein_guidance.guidance import BASELINES, METHOD_LABELS, GuidanceSettings, MethodName
from models.stein_guidance.params import Params
from models.stein_guidance.problem import (
    COMPONENT_STD,
    GuidanceProblem,
    annealed_tilted_sample,
    build_problem,
    exact_posterior_curve,
)
from models.stein_guidance.result import CurvePoint, Result, SeedSummary, Trajectories
from models.stein_guidance.sampler import SampleRun, sample

__all__ = ["GRID", "run", "tuning_grid"]

GRID = [float(v) for v in np.geomspace(0.5, 128.0, 9)]  # strengths lambda (baselines) and beta (SDG)
MAX_EXTENSIONS = 2  # an optimum on the grid's edge adds 2 points past it, at most this often
REFERENCE_DRAWS = 2000  # exact draws of SDG's target law, for the energy distance
_REFERENCE_SCALES = [float(s) for s in np.geomspace(0.25, 500.0, 40)]
_GRID_POINTS = 81
_EXTENT = 4.5


def _generator(device: str, *key: int) -> torch.Generator:
    seed = int(np.random.SeedSequence(list(key)).generate_state(1, dtype=np.uint64)[0] % (2**63 - 1))
    return torch.Generator(device=device).manual_seed(seed)


def tuning_grid(report: GridReport) -> list[float]:
    """The grid extended by two geometric points past the edge where its best value sits."""
    values = sorted(report.values)
    ratio = values[1] / values[0]
    if report.best == values[0]:
        return [values[0] / ratio**2, values[0] / ratio, *values]
    return [*values, values[-1] * ratio, values[-1] * ratio**2]


@dataclass
class _Tuned:
    report: GridReport
    curve: list[CurvePoint]


def _tune(method: MethodName, problem: GuidanceProblem, params: Params, settings: GuidanceSettings, device: str,
          seed: int) -> _Tuned:
    """Success rate at every strength of the grid, on its own noise and half the particles; extended past an edge."""
    values, scores, points = list(GRID), {}, {}
    report = None
    for extension in range(MAX_EXTENSIONS + 1):
        todo = [v for v in values if v not in scores]
        run = sample(method, problem, todo, max(params.particles // 2, 16), params.steps, settings,
                     _generator(device, seed, 5, extension), lambda k: None, aux=_generator(device, seed, 6, extension))
        for value, final in zip(todo, run.final, strict=True):
            scores[value] = float(problem.successes(final).float().mean())
            points[value] = (float(problem.hits(final).float().mean()), float(problem.on_manifold(final).float().mean()))
        param = "beta" if method == "sdg" else "lambda"
        report = best_on_grid(METHOD_LABELS[method], param, values, [scores[v] for v in values], lower_is_better=False)
        if not report.at_edge or extension == MAX_EXTENSIONS:
            break
        values = tuning_grid(report)
    assert report is not None
    curve = [CurvePoint(scale=v, hit_rate=points[v][0], on_manifold_fraction=points[v][1], success_rate=scores[v])
             for v in sorted(values)]
    return _Tuned(report, curve)


def _trajectories(run: SampleRun) -> Trajectories:
    return Trajectories(times=run.times, paths=run.trajectories[0].transpose(0, 1).tolist(),
                        final=run.final[0, :, :2].tolist())


@dataclass
class _SeedRun:
    problem: GuidanceProblem
    summary: SeedSummary
    curves: dict[str, list[CurvePoint]]
    trajectories: dict[str, Trajectories]


def _evaluate(params: Params, problem: GuidanceProblem, settings: GuidanceSettings, strength: dict[str, float],
              device: str, seed: int, monotone: MonotoneProgress) -> tuple[dict[str, SampleRun], SampleRun]:
    """Every method at its strength on the same start and Brownian increments (paired particles)."""
    runs: dict[str, SampleRun] = {}
    for index, name in enumerate(params.methods):
        stage = monotone.stage(0.55 + 0.4 * index / len(params.methods), 0.55 + 0.4 * (index + 1) / len(params.methods))

        def tick(k: int, stage: Progress = stage, label: str = METHOD_LABELS[name]) -> None:
            stage((k + 1) / params.steps, f"evaluating {label}")

        runs[name] = sample(name, problem, [strength[name]], params.particles, params.steps, settings,
                            _generator(device, seed, 3), tick, aux=_generator(device, seed, 4))
    unguided = sample(None, problem, [0.0], params.particles, params.steps, settings, _generator(device, seed, 3),
                      lambda k: None)
    return runs, unguided


def _one_seed(params: Params, seed: int, device: str, progress: Progress) -> _SeedRun:
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the prior")
    problem = build_problem(params.dimension, device, _generator(device, seed, 0))
    settings = GuidanceSettings(params.alpha, params.stein_step, COMPONENT_STD**2)
    tuned: dict[str, _Tuned] = {}
    to_tune = [m for m in params.methods if m in BASELINES or m == "sdg"]
    for index, name in enumerate(to_tune):
        monotone(0.5 * index / len(to_tune), f"tuning {METHOD_LABELS[name]} on its grid")
        tuned[name] = _tune(name, problem, params, settings, device, seed)
    beta = tuned["sdg"].report.best
    strength: dict[str, float] = {m: tuned[m].report.best if m in tuned else beta for m in params.methods}
    runs, unguided = _evaluate(params, problem, settings, strength, device, seed, monotone)
    monotone(0.96, "energy distances to exact draws of SDG's target law")
    generator = _generator(device, seed, 7)
    reference = annealed_tilted_sample(problem, params.alpha, beta, REFERENCE_DRAWS, generator)
    exact = annealed_tilted_sample(problem, params.alpha, beta, params.particles, generator)
    sdg_family = [m for m in params.methods if m in ("sdg", "sdg_no_stein", "sdg_langevin")]
    finals: dict[str, torch.Tensor] = {m: runs[m].final[0] for m in params.methods}
    energy: dict[str, list[float]] = {m: energy_units(finals[m], reference).tolist() for m in sdg_family}
    energy["unguided"] = energy_units(unguided.final[0], reference).tolist()
    success: dict[str, list[float]] = {m: problem.successes(x).float().tolist() for m, x in finals.items()}
    success["unguided"] = problem.successes(unguided.final[0]).float().tolist()
    summary = SeedSummary(
        seed=seed, strength=strength, success=success, energy=energy,
        exact_energy=float(np.mean(energy_units(exact, reference).tolist())),
        exact_success=float(problem.successes(exact).float().mean()),
        unguided_on_manifold=problem.on_manifold(unguided.final[0]).float().tolist(),
        grids=[t.report for t in tuned.values()],
    )
    return _SeedRun(problem, summary, {m: t.curve for m, t in tuned.items()},
                    {m: _trajectories(r) for m, r in runs.items()})


def _standing(params: Params, seed_runs: list[_SeedRun]) -> Standing | None:
    """Every method's success rate (hit and on the manifold) per seed, per particle as the paired units."""
    if len(params.methods) < 2:
        return None
    units = {n: [r.summary.success[n] for r in seed_runs] for n in params.methods}
    return Standing(metric="hit ratio (hit the target and stay on the data manifold), mean over seeds",
                    lower_is_better=False, method="sdg",
                    seed_scores={n: [float(np.mean(u)) for u in seeds] for n, seeds in units.items()},
                    unit_scores=units, labels={n: METHOD_LABELS[n] for n in params.methods})


def _density(problem: GuidanceProblem) -> tuple[list[float], list[list[float]]]:
    like = problem.prior.means
    axis = torch.linspace(-_EXTENT, _EXTENT, _GRID_POINTS, dtype=like.dtype, device=like.device)
    grid = torch.stack(torch.meshgrid(axis, axis, indexing="xy"), dim=-1)
    return axis.tolist(), problem.plane_prior().log_prob(grid).tolist()


def run(params: Params, progress: Progress) -> Result:
    """Per seed: tune, evaluate on shared noise, measure; the claims over seeds; figures from the first seed."""
    device = torch_device()
    monotone = MonotoneProgress(progress)
    seeds = seed_values(params.seed, params.seeds)
    seed_runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, seed, device, stage), monotone)
    measured = [measure(r.summary) for r in seed_runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    first = seed_runs[0]
    exact_curve = exact_posterior_curve(first.problem, _REFERENCE_SCALES, _generator(device, seeds[0], 1))
    axis, grid = _density(first.problem)
    monotone(1.0, "done")
    return Result(
        claims=claims, standing=_standing(params, seed_runs), grids=first.summary.grids, seeds=seeds,
        per_seed=[r.summary for r in seed_runs], dimension=params.dimension, particles=params.particles,
        steps=params.steps, alpha=params.alpha, methods=list(params.methods),
        labels={name: METHOD_LABELS[name] for name in params.methods}, target=first.problem.target.tolist(),
        hit_radius=first.problem.hit_radius, log_density_threshold=first.problem.log_density_threshold,
        curves=first.curves,
        exact_posterior_curve=[CurvePoint(scale=s, hit_rate=h, on_manifold_fraction=o, success_rate=None)
                               for s, (h, o) in zip(_REFERENCE_SCALES, exact_curve, strict=True)],
        trajectories=first.trajectories, density_axis=axis, density_grid=grid,
    )
