"""The guidance problem: a Gaussian-mixture prior with a closed-form score, a reward whose target sits
in a low-density gap between two modes, the hit test and the on-manifold test."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from models.common.sampling import GaussianMixture

__all__ = ["GuidanceProblem", "annealed_tilted_sample", "build_problem", "exact_posterior_curve", "tilted_law"]

MODES = 8
RING_RADIUS = 3.0
COMPONENT_STD = 0.35
TARGET_RADIUS = 3.3  # the target lies outside the ring, halfway between two modes
HIT_RADIUS = 0.6
MANIFOLD_MASS = 0.99  # on the manifold = inside the prior's 99% highest-density region
THRESHOLD_SAMPLES = 100_000
DTYPE = torch.float32


@dataclass(frozen=True)
class GuidanceProblem:
    """Prior on R^d (modes on a ring in the first two coordinates), reward r(x) = -|x_12 - c|^2 / 2."""

    prior: GaussianMixture
    target: torch.Tensor  # (2,)
    hit_radius: float
    log_density_threshold: float

    @property
    def dim(self) -> int:
        return self.prior.dim

    def reward(self, x: torch.Tensor) -> torch.Tensor:
        """r(x) = -|(x_1, x_2) - c|^2 / 2: the reward observes the first two coordinates only."""
        return -0.5 * ((x[..., :2] - self.target) ** 2).sum(-1)

    def reward_gradient(self, x: torch.Tensor) -> torch.Tensor:
        grad = torch.zeros_like(x)
        grad[..., :2] = self.target - x[..., :2]
        return grad

    def hits(self, x: torch.Tensor) -> torch.Tensor:
        """Whether (x_1, x_2) lies within the hit radius of the target."""
        return (x[..., :2] - self.target).norm(dim=-1) <= self.hit_radius

    def successes(self, x: torch.Tensor) -> torch.Tensor:
        """The toy's hit ratio test (the paper's docking hit: reward threshold and QED/SA thresholds): a
        sample succeeds when it hits the target and stays on the data manifold."""
        return self.hits(x) & self.on_manifold(x)

    def on_manifold(self, x: torch.Tensor) -> torch.Tensor:
        """Whether the prior's log density at x is above the 99% highest-density threshold."""
        return self.prior.log_prob(x) >= self.log_density_threshold

    def plane_prior(self) -> GaussianMixture:
        """The prior's marginal on the first two coordinates (for the density figure)."""
        return GaussianMixture(
            self.prior.weights, self.prior.means[:, :2], self.prior.covariances[:, :2, :2]
        )


def build_problem(dim: int, device: str, generator: torch.Generator) -> GuidanceProblem:
    """The ring prior in `dim` dimensions; the threshold is the 1% quantile of log p over prior draws."""
    angles = torch.arange(MODES, dtype=DTYPE) * (2 * math.pi / MODES)
    means = torch.zeros(MODES, dim, dtype=DTYPE)
    means[:, 0], means[:, 1] = RING_RADIUS * torch.cos(angles), RING_RADIUS * torch.sin(angles)
    prior = GaussianMixture.isotropic(torch.ones(MODES, dtype=DTYPE, device=device), means.to(device), COMPONENT_STD)
    gap = math.pi / MODES
    target = torch.tensor([TARGET_RADIUS * math.cos(gap), TARGET_RADIUS * math.sin(gap)], dtype=DTYPE, device=device)
    draws = prior.sample(THRESHOLD_SAMPLES, generator)
    threshold = float(torch.quantile(prior.log_prob(draws).double(), 1.0 - MANIFOLD_MASS))
    return GuidanceProblem(prior, target, HIT_RADIUS, threshold)


def exact_posterior_curve(
    problem: GuidanceProblem, scales: list[float], generator: torch.Generator, draws: int = THRESHOLD_SAMPLES
) -> list[tuple[float, float]]:
    """(hit rate, on-manifold fraction) of the exact tilted law p(x) exp(lambda r(x)) for each scale.

    Self-normalised importance sampling from the prior: no sampler, no guidance approximation.
    """
    x = problem.prior.sample(draws, generator)
    hits, on = problem.hits(x).to(DTYPE), problem.on_manifold(x).to(DTYPE)
    out = []
    for scale in scales:
        weights = torch.softmax(scale * problem.reward(x), dim=0)
        out.append((float((weights * hits).sum()), float((weights * on).sum())))
    return out


def tilted_law(problem: GuidanceProblem, scale: float) -> GaussianMixture:
    """The exact posterior p_0(x) exp(lambda r(x)) in closed form: r is quadratic in (x_1, x_2), so the
    tilt is a linear-Gaussian observation c = (x_1, x_2) + N(0, I / lambda) and the law is again a mixture."""
    prior = problem.prior
    if scale <= 0.0:
        return prior
    like = prior.means
    operator = torch.zeros(2, problem.dim, dtype=like.dtype, device=like.device)
    operator[0, 0] = operator[1, 1] = 1.0
    noise = torch.eye(2, dtype=like.dtype, device=like.device) / scale
    return prior.linear_gaussian_posterior(problem.target, operator, noise)


def annealed_tilted_sample(problem: GuidanceProblem, alpha: float, beta: float, n: int,
                           generator: torch.Generator) -> torch.Tensor:
    """n exact draws of SDG's target law p_0(x)^(1 - alpha) exp(beta r(x)) (the paper's Lemma 2.2 at t = 0).

    Rejection sampling. Proposal: sum_k w_k^(1-a) N_k(x)^(1-a) exp(beta r), where N_k^(1-a) is (up to one
    constant shared by the equal isotropic components) N(m_k, C / (1 - a)), so the proposal is a mixture in
    closed form (tilted as in `tilted_law`). Because u -> u^(1-a) is subadditive, (sum_k w_k N_k)^(1-a) <=
    sum_k w_k^(1-a) N_k^(1-a): the target over the proposal is at most 1, the acceptance probability.
    """
    prior = problem.prior
    keep = 1.0 - alpha
    flat = GaussianMixture(prior.weights**keep / (prior.weights**keep).sum(), prior.means, prior.covariances / keep)
    proposal = tilted_law(GuidanceProblem(flat, problem.target, problem.hit_radius, problem.log_density_threshold),
                          beta)
    accepted: list[torch.Tensor] = []
    count = 0
    while count < n:
        x = proposal.sample(2 * n, generator)
        log_joint, _ = prior._component_terms(x)  # log w_k N_k(x)
        log_ratio = keep * torch.logsumexp(log_joint, -1) - torch.logsumexp(keep * log_joint, -1)
        u = torch.rand(x.shape[0], generator=generator, device=generator.device, dtype=x.dtype).to(x.device)
        good = x[torch.log(u) < log_ratio]
        accepted.append(good)
        count += good.shape[0]
    return torch.cat(accepted)[:n]
