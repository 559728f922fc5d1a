"""run(params, progress): the problem, the exact reference, an unguided check, then each method's sweep."""

from __future__ import annotations

import numpy as np
import torch

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.stein_guidance.guidance import METHOD_LABELS, GuidanceSettings
from models.stein_guidance.matching import matched_hit_rate, on_manifold_at
from models.stein_guidance.params import MAX_WORK, Params
from models.stein_guidance.problem import COMPONENT_STD, GuidanceProblem, build_problem, exact_posterior_curve
from models.stein_guidance.result import CurvePoint, MatchedComparison, Result, Trajectories
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


def run(params: Params, progress: Progress) -> Result:
    """Sweep the guidance scales for each method; compare on-manifold fractions at one hit rate."""
    _check_budget(params)
    device = torch_device()
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the prior and the exact reference")
    problem = build_problem(params.dimension, device, _generator(device, params.seed, 0))
    exact = exact_posterior_curve(problem, _REFERENCE_SCALES, _generator(device, params.seed, 1))
    settings = GuidanceSettings(params.stein_step, params.running_cost_weight, COMPONENT_STD**2)

    check = monotone.stage(0.03, 0.06)
    unguided = sample(None, problem, [0.0], params.particles, params.steps, settings,
                      _generator(device, params.seed, 2), lambda k: check((k + 1) / params.steps, "unguided sampler"))
    unguided_on = float(problem.on_manifold(unguided.final).float().mean())

    curves: dict[str, list[CurvePoint]] = {}
    runs: dict[str, SampleRun] = {}
    share = 0.94 / len(params.methods)
    for index, name in enumerate(params.methods):
        stage = monotone.stage(0.06 + index * share, 0.06 + (index + 1) * share)
        label = METHOD_LABELS[name]

        def tick(k: int, stage: Progress = stage, label: str = label) -> None:
            stage((k + 1) / params.steps, f"{label}: step {k + 1}/{params.steps}")

        result = sample(name, problem, params.guidance_scales, params.particles, params.steps, settings,
                        _generator(device, params.seed, 3, index), tick)
        hits = problem.hits(result.final).float().mean(-1).tolist()
        on = problem.on_manifold(result.final).float().mean(-1).tolist()
        curves[name] = [
            CurvePoint(scale=s, hit_rate=h, on_manifold_fraction=o)
            for s, h, o in zip(params.guidance_scales, hits, on, strict=True)
        ]
        runs[name] = result

    points = {name: [(p.hit_rate, p.on_manifold_fraction) for p in c] for name, c in curves.items()}
    hit_rate = matched_hit_rate(params.matched_hit_rate, points)
    trajectories = {}
    for shown, sampled in runs.items():
        nearest = int(np.argmin([abs(p.hit_rate - hit_rate) for p in curves[shown]]))
        trajectories[shown] = _trajectories(sampled, params.guidance_scales, nearest)
    axis, grid = _density(problem)
    monotone(1.0, "done")
    return Result(
        dimension=params.dimension,
        particles=params.particles,
        steps=params.steps,
        methods=list(params.methods),
        labels={name: METHOD_LABELS[name] for name in params.methods},
        target=problem.target.tolist(),
        hit_radius=problem.hit_radius,
        log_density_threshold=problem.log_density_threshold,
        unguided_on_manifold=unguided_on,
        curves=curves,
        exact_posterior_curve=[
            CurvePoint(scale=s, hit_rate=h, on_manifold_fraction=o) for s, (h, o) in zip(_REFERENCE_SCALES, exact, strict=True)
        ],
        at_matched_hit_rate=MatchedComparison(
            hit_rate=hit_rate,
            on_manifold={name: on_manifold_at(hit_rate, p) for name, p in points.items()},
            exact_posterior=on_manifold_at(hit_rate, exact) or 0.0,
        ),
        trajectories=trajectories,
        density_axis=axis,
        density_grid=grid,
    )
