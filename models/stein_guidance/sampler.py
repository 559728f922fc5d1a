"""Reverse VP SDE sampling with a guided score, for all guidance scales of one method at once."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch

from models.common.sampling import VPSchedule
from models.common.sampling.integrators import standard_normal
from models.stein_guidance.guidance import GuidanceSettings, MethodName, guided_score
from models.stein_guidance.problem import GuidanceProblem

__all__ = ["T_MIN", "SampleRun", "sample"]

T_MIN = 1e-3  # the reverse SDE stops at t = 1e-3 (the score blows up at t = 0)
TRACKED = 24  # particles whose trajectories are kept for the figure
TRACK_POINTS = 26


@dataclass(frozen=True)
class SampleRun:
    """Final particles (S, n, d) and trajectories (S, points, tracked, 2) of the first coordinates."""

    final: torch.Tensor
    trajectories: torch.Tensor
    times: list[float]


def sample(
    method: MethodName | None, problem: GuidanceProblem, scales: list[float], particles: int, steps: int,
    settings: GuidanceSettings, generator: torch.Generator, on_step: Callable[[int], None],
    aux: torch.Generator | None = None,
) -> SampleRun:
    """Euler-Maruyama on dx = [-beta/2 x - beta score] dt + sqrt(beta) dW from t = 1 down to T_MIN.

    `generator` draws only the start and the Brownian increments, so two methods given equally seeded
    generators share them (common random numbers: particle i of one is paired with particle i of the
    other); `aux` draws a method's own noise (LGD, Langevin). `method=None` samples the unguided prior.
    """
    schedule = VPSchedule()
    like = problem.prior.means
    scale_tensor = torch.tensor(scales, dtype=like.dtype, device=like.device)
    x = standard_normal((len(scales), particles, problem.dim), generator, like)
    times = [1.0 - (1.0 - T_MIN) * k / steps for k in range(steps + 1)]
    keep = {round(k * steps / (TRACK_POINTS - 1)) for k in range(TRACK_POINTS)}
    track, track_times = [x[:, :TRACKED, :2].clone()], [times[0]]
    for k in range(steps):
        t, dt = times[k], times[k] - times[k + 1]
        if method is None:
            score = schedule.marginal(problem.prior, t).score(x)
        else:
            score = guided_score(method, problem, schedule, x, t, scale_tensor, settings, aux if aux is not None else generator)
        beta = schedule.beta(t)
        x = x + (0.5 * beta * x + beta * score) * dt + math.sqrt(beta * dt) * standard_normal(x.shape, generator, x)
        if k + 1 in keep:
            track.append(x[:, :TRACKED, :2].clone())
            track_times.append(times[k + 1])
        on_step(k)
    return SampleRun(final=x, trajectories=torch.stack(track, dim=1), times=track_times)
