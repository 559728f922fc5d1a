"""Guided reverse diffusion: DPS, Stein Diffusion Guidance (SDG) and its ablations, as guided scores.

Every method runs the same reverse VP SDE (Euler-Maruyama) on particles x_t; only the score differs.
With s_t the prior's exact score at time t and x0(x_t) = (x_t + (1 - abar) s_t) / sqrt(abar) the
Tweedie estimate:

- DPS (Chung et al. 2023): s_t + lambda grad_{x_t} r(x0(x_t)), through the Jacobian of Tweedie.
- SDG (our reading of the paper; its method section was not available to us, no reference code): the
  Tweedie estimates are the approximate posterior; one Stein variational step (SVGD, RBF kernel, median
  bandwidth) moves them towards the true posterior of x0 given x_t and the reward,
  p(x0 | x_t) exp(lambda r(x0)) with p(x0 | x_t) proportional to N(x_t; sqrt(abar) x0, (1 - abar) I) p_0(x0),
  whose score is sqrt(abar) (x_t - sqrt(abar) x0) / (1 - abar) + grad log p_0(x0) + lambda grad r(x0); the
  step is preconditioned by that posterior's local variance (1/c + abar/(1 - abar))^-1 (c the component
  variance), so the step is measured in that posterior's own scale and shrinks with it as t -> 0. The corrected x0 is re-noised into a score,
  (sqrt(abar) x0_corrected - x_t) / (1 - abar), and the running-cost term w lambda grad_{x_t} r(x0(x_t))
  steers at every time.
- Ablations: no Stein step (running cost only: this is DPS at scale w lambda, so SDG against it isolates
  the Stein step at equal guidance scale), no running cost (Stein step only), a Langevin step
  x0 + eta g + sqrt(2 eta) z in place of the Stein step (no kernel, no interaction), and the previous
  reading whose Stein target is the clean tilted law p_0(x0) exp(lambda r(x0)) (it ignores x_t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import torch

from models.common.sampling import GaussianMixture, VPSchedule, stein_direction, tweedie_mean
from models.common.sampling.integrators import standard_normal
from models.stein_guidance.problem import GuidanceProblem

__all__ = ["METHOD_LABELS", "GuidanceSettings", "MethodName", "guided_score"]

MethodName = Literal["dps", "sdg", "sdg_no_stein", "sdg_no_running_cost", "sdg_langevin", "sdg_clean_target"]
METHOD_LABELS: dict[str, str] = {
    "dps": "DPS (Tweedie gradient)",
    "sdg": "SDG (Stein step + running cost)",
    "sdg_no_stein": "SDG without Stein step (= DPS at w lambda)",
    "sdg_no_running_cost": "SDG without running cost",
    "sdg_langevin": "SDG with Langevin instead of Stein",
    "sdg_clean_target": "SDG, Stein target ignoring x_t",
}


@dataclass(frozen=True)
class GuidanceSettings:
    """Stein/Langevin step size (in units of the component variance) and the running-cost weight."""

    stein_step: float = 0.5
    running_cost_weight: float = 0.5
    component_variance: float = 0.35**2


def _tweedie_with_gradient(
    marginal: GaussianMixture, problem: GuidanceProblem, x: torch.Tensor, abar: float, scales: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Prior score, Tweedie estimate, and lambda grad_{x_t} r(x0(x_t)) by autograd (per particle)."""
    with torch.enable_grad():
        leaf = x.detach().requires_grad_(True)
        score = marginal.score(leaf)
        x0 = tweedie_mean(leaf, score, abar)
        reward = (scales[:, None] * problem.reward(x0)).sum()
        (gradient,) = torch.autograd.grad(reward, leaf)
    return score.detach(), x0.detach(), gradient


def _corrected_x0(
    method: MethodName, problem: GuidanceProblem, x: torch.Tensor, x0: torch.Tensor, abar: float,
    scales: torch.Tensor, settings: GuidanceSettings, generator: torch.Generator,
) -> torch.Tensor:
    """One Stein (or Langevin) step on the Tweedie estimates towards the posterior of x0 (see the module)."""
    posterior_score = problem.prior.score(x0) + scales[:, None, None] * problem.reward_gradient(x0)
    if method == "sdg_clean_target":
        eta = settings.stein_step * settings.component_variance
    else:
        posterior_score = posterior_score + math.sqrt(abar) * (x - math.sqrt(abar) * x0) / (1.0 - abar)
        eta = settings.stein_step / (1.0 / settings.component_variance + abar / (1.0 - abar))
    if method == "sdg_langevin":
        return x0 + eta * posterior_score + math.sqrt(2 * eta) * standard_normal(x0.shape, generator, x0)
    return x0 + eta * stein_direction(x0, posterior_score)


def guided_score(
    method: MethodName, problem: GuidanceProblem, schedule: VPSchedule, x: torch.Tensor, t: float,
    scales: torch.Tensor, settings: GuidanceSettings, generator: torch.Generator,
) -> torch.Tensor:
    """The score the reverse SDE uses at time t for particles x (scales S, particles n, dim d)."""
    abar = schedule.alpha_bar(t)
    marginal = schedule.marginal(problem.prior, t)
    score, x0, reward_gradient = _tweedie_with_gradient(marginal, problem, x, abar, scales)
    if method == "dps":
        return score + reward_gradient
    running = settings.running_cost_weight * reward_gradient
    if method == "sdg_no_stein":
        return score + running
    corrected = _corrected_x0(method, problem, x, x0, abar, scales, settings, generator)
    stein_score = (math.sqrt(abar) * corrected - x) / (1.0 - abar)
    if method == "sdg_no_running_cost":
        return stein_score
    return stein_score + running
