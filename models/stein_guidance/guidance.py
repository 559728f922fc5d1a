"""Guided scores: Stein Diffusion Guidance (SDG, the paper's Sec. 2-3), its ablations, and the training-free
baselines it is compared with (DPS, LGD, MPGD, UGD).

Every method runs the same reverse VP SDE on particles x_t; only the score differs. Our time runs from data
(t = 0) to noise (t = 1), the paper's the other way (its x_T is our x_0). With s_t the prior's exact score,
eta = sqrt(abar) and gamma^2 = 1 - abar, Tweedie's estimate is x0(x_t) = (x_t + gamma^2 s_t(x_t)) / eta.

SDG (scores add: s_t + Part I + Part II, the paper's decomposition of its optimal control u*/sigma):
- Part I (training-free guidance term): -alpha s_t(x_t) + beta grad_{x_t} r(x0(x_t)). With the paper's surrogate
  cost (running cost alpha log p_s(x_s) delta(s - t), terminal cost -beta r) the controlled marginal is
  p_t^{1-alpha} exp(beta r) (Lemma 2.2), whose score this is, with the reward read at Tweedie's estimate.
- Part II (Stein correction, -grad KL(q(x0|x_t) || p(x0|x_t))): one SVGD step on the Tweedie estimates,
  x0~^i = x0^i + eps(t) phi(x0^i), phi(x0^i) = 1/N sum_j [k(x0^i, x0^j) g^j + grad_{x0^j} k(x0^i, x0^j)],
  RBF kernel with the bandwidth med|x0^i - x0^j|^2 / log N, over all N particles of the batch, where g^j is the score of
  particle j's OWN posterior p(x0 | x_t^j), approximated as in Lemma 3.3 by s_0(x0^j) - eta s_t(x_t^j) (exact at
  the Tweedie point for an exact score). Neither alpha nor the reward enters the Stein target. The corrected
  estimate is re-noised to time t through Tweedie's relation: Part II = eta (x0~ - x0) / gamma^2.
- eps(t) = stein_step x the local posterior variance (1/c + abar/(1 - abar))^-1 (c the component variance): a
  schedule in the posterior's own scale (the paper's eps(t) is hand-set, App. C.2, not reachable).
Ablations (the paper's): SDG without Stein (Part I only, same alpha and beta), SDG with alpha = 0, and SDG with a
Langevin step x0 + eps g + sqrt(2 eps) z in place of the Stein step (the eps -> 0 limit, Corollary 3.5).

Baselines, each with one strength lambda:
- DPS (Chung et al. 2023): s_t + lambda grad_{x_t} r(x0(x_t)) (autograd through Tweedie).
- LGD-MC (Song et al. 2023): s_t + grad_{x_t} log (1/m sum_i exp(lambda r(x0(x_t) + rho z_i))), rho^2 = 1 - abar.
- MPGD (He et al. 2024): the reward gradient taken on the clean estimate, no Jacobian of the score:
  x0' = x0 + lambda gamma^2 grad r(x0), re-noised: s_t + eta (x0' - x0) / gamma^2.
- UGD (Bansal et al. 2023): forward guidance (= DPS at lambda) plus backward guidance, m gradient steps on
  x0 + delta with step lambda gamma^2 / (1 + lambda gamma^2), re-noised like MPGD (no self-recurrence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import torch

from models.common.sampling import GaussianMixture, VPSchedule, stein_direction, tweedie_mean
from models.common.sampling.integrators import standard_normal
from models.common.sampling.kernels import pairwise_sq_distances
from models.stein_guidance.problem import GuidanceProblem

__all__ = ["ABLATIONS", "BASELINES", "METHOD_LABELS", "GuidanceSettings", "MethodName", "guided_score",
           "median_bandwidth", "stein_target"]

MethodName = Literal["dps", "lgd", "mpgd", "ugd", "sdg", "sdg_no_stein", "sdg_alpha0", "sdg_langevin"]
METHOD_LABELS: dict[str, str] = {
    "dps": "DPS",
    "lgd": "LGD-MC",
    "mpgd": "MPGD",
    "ugd": "UGD",
    "sdg": "SDG (Stein + annealing)",
    "sdg_no_stein": "SDG without Stein",
    "sdg_alpha0": "SDG with alpha = 0",
    "sdg_langevin": "SDG with Langevin",
}
BASELINES: tuple[MethodName, ...] = ("dps", "lgd", "mpgd", "ugd")
ABLATIONS: tuple[MethodName, ...] = ("sdg_no_stein", "sdg_alpha0", "sdg_langevin")
LGD_SAMPLES = 4
UGD_BACKWARD_STEPS = 3


@dataclass(frozen=True)
class GuidanceSettings:
    """SDG's annealing alpha, its Stein step (x local posterior variance), and the prior's component variance."""

    alpha: float = 0.1
    stein_step: float = 4.0
    component_variance: float = 0.35**2


def _tweedie_with_gradient(
    marginal: GaussianMixture, problem: GuidanceProblem, x: torch.Tensor, abar: float, scales: torch.Tensor,
    lgd_noise: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Prior score s_t, Tweedie estimate, and grad_{x_t} of lambda r(x0(x_t)) (or of LGD's log-mean-exp)."""
    with torch.enable_grad():
        leaf = x.detach().requires_grad_(True)
        score = marginal.score(leaf)
        x0 = tweedie_mean(leaf, score, abar)
        if lgd_noise is None:
            objective = (scales[:, None] * problem.reward(x0)).sum()
        else:  # (m, S, n, d) draws around the estimate
            rewards = problem.reward(x0.unsqueeze(0) + math.sqrt(1.0 - abar) * lgd_noise)
            objective = torch.logsumexp(scales[None, :, None] * rewards, dim=0).sum()
        (gradient,) = torch.autograd.grad(objective, leaf)
    return score.detach(), x0.detach(), gradient


def stein_target(problem: GuidanceProblem, x0: torch.Tensor, score_t: torch.Tensor, abar: float) -> torch.Tensor:
    """Lemma 3.3: grad_{x0} log p(x0 | x_t) ~ s_0(x0) - eta s_t(x_t), particle by particle (its own x_t)."""
    return problem.prior.score(x0) - math.sqrt(abar) * score_t


def median_bandwidth(x: torch.Tensor) -> torch.Tensor:
    """The paper's bandwidth h = med_{i<j} |x_i - x_j|^2 / log N per batch, shape (...), floored above 0.

    The median of the N(N-1)/2 pairs is taken by `kthvalue` (the lower median, as torch.median).
    """
    n = x.shape[-2]
    upper = torch.triu_indices(n, n, offset=1, device=x.device)
    pairs = pairwise_sq_distances(x, x)[..., upper[0], upper[1]]
    median = pairs.kthvalue((pairs.shape[-1] + 1) // 2, dim=-1).values
    return torch.clamp(median / math.log(n), min=1e-8)


def _posterior_step(settings: GuidanceSettings, abar: float) -> float:
    return settings.stein_step / (1.0 / settings.component_variance + abar / (1.0 - abar))


def _part_two(method: MethodName, problem: GuidanceProblem, x0: torch.Tensor, score_t: torch.Tensor, abar: float,
              settings: GuidanceSettings, aux: torch.Generator) -> torch.Tensor:
    """The Stein (or Langevin) move of the Tweedie estimates, re-noised: eta (x0~ - x0) / gamma^2."""
    target = stein_target(problem, x0, score_t, abar)
    eps = _posterior_step(settings, abar)
    if method == "sdg_langevin":
        move = eps * target + math.sqrt(2 * eps) * standard_normal(x0.shape, aux, x0)
    else:
        move = eps * stein_direction(x0, target, median_bandwidth(x0))  # kernel over all particles of each batch (scale)
    return math.sqrt(abar) * move / (1.0 - abar)


def _backward(problem: GuidanceProblem, x0: torch.Tensor, scales: torch.Tensor, gamma2: float) -> torch.Tensor:
    """UGD's backward guidance: a few gradient steps on delta for r(x0 + delta)."""
    lr = (scales * gamma2 / (1.0 + scales * gamma2))[:, None, None]
    delta = torch.zeros_like(x0)
    for _ in range(UGD_BACKWARD_STEPS):
        delta = delta + lr * problem.reward_gradient(x0 + delta)
    return delta


def guided_score(
    method: MethodName, problem: GuidanceProblem, schedule: VPSchedule, x: torch.Tensor, t: float,
    scales: torch.Tensor, settings: GuidanceSettings, aux: torch.Generator,
) -> torch.Tensor:
    """The score the reverse SDE uses at time t for particles x (S strengths, n particles, d); `scales` is
    lambda for a baseline, beta for SDG and its ablations; `aux` draws LGD's and Langevin's noise."""
    abar = schedule.alpha_bar(t)
    gamma2, eta = 1.0 - abar, math.sqrt(abar)
    marginal = schedule.marginal(problem.prior, t)
    lgd_noise = standard_normal((LGD_SAMPLES, *x.shape), aux, x) if method == "lgd" else None
    score, x0, reward_gradient = _tweedie_with_gradient(marginal, problem, x, abar, scales, lgd_noise)
    if method in ("dps", "lgd"):
        return score + reward_gradient
    if method == "mpgd":
        return score + eta * scales[:, None, None] * problem.reward_gradient(x0)
    if method == "ugd":
        return score + reward_gradient + eta * _backward(problem, x0, scales, gamma2) / gamma2
    alpha = 0.0 if method == "sdg_alpha0" else settings.alpha
    guided = (1.0 - alpha) * score + reward_gradient  # s_t + Part I
    if method == "sdg_no_stein":
        return guided
    return guided + _part_two(method, problem, x0, score, abar, settings, aux)
