"""GRPO on a bandit over reasoning modes with a noisy verifier: mean field, rate law, diffusion at J = 0, bandit.

Model (after Rad et al. 2026): a prompt has m correct and m incorrect reasoning modes; the policy is
a softmax over 2m logits. The verifier rewards a correct sample with probability TPR = 1 - FNR and
an incorrect one with probability FPR. GRPO draws a group of G samples, standardises the rewards
inside the group, A_i = (r_i - mean) / std (A = 0 when all rewards agree), and takes the
policy-gradient step theta += lr * (1/G) sum_i A_i (e_{a_i} - pi).

Mean field: the expected step with the population reward standard deviation is
lr * pi_k (r_k - rbar) / sigma, sigma = sqrt(q(1-q)) at success rate q. With the modes of a class
equally likely (true at step 0 and preserved by the expected step) the incorrect mass x = sigmoid(z)
of the logit gap z = theta_bad - theta_good obeys the discrete map

    z <- z - 2 lr J x (1-x) / (m sigma(x)),   q(x) = (1-x) TPR + x FPR,   J = TPR - FPR,

whose continuous limit is dx/dt = -2 lr J x^2 (1-x)^2 / (m sigma(x)). Rate law: the time from x0 down
to a threshold is t = (m / 2 lr J) * integral of sigma(x) / (x^2 (1-x)^2) dx, proportional to sigma / J.

Unequal masses inside a class (the within-correct-mode competition). The expected step moves logit k by
lr pi_k (r_k - q) / sigma, so (i) inside the correct class log(s_i / s_j) grows by lr J x (1-x)(s_i - s_j) / sigma
per step: a replicator whose fitness is the share itself, and the favoured mode takes the class; (ii) the
incorrect mass obeys dx/dt = -lr J x^2 (1-x)^2 (H_bad + H_good) / sigma(x), H the Herfindahl index sum s_k^2
of the shares inside each class. With equal shares H = 1/m and this is the law above; with unequal ones it is
the same one-dimensional law run on the clock tau = sum over steps of (m/2)(H_bad + H_good): the outer flow
sees the inner competition only through that clock (`concentration_clock`).

Diffusion at J = 0: rewards do not depend on the mode, so E[d theta] = 0 and, exactly for one step,
Cov[d theta] = (lr^2 kappa / G) (diag pi - pi pi^T), kappa = 1 - p^G - (1-p)^G the chance that a group's
rewards differ (p = TPR = FPR). The mass then moves with per-step variance D = grad(x)^T Cov grad(x)
and second-order drift b = tr(Hess(x) Cov) / 2: Var[x_t] ~ t D, E[x_t] ~ x0 + t b while t D is small.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import quad

from models.common.contract import Progress, no_progress

__all__ = [
    "Diffusion",
    "Verifier",
    "bandit_grpo",
    "concentration_clock",
    "full_logit_drift",
    "logits_from_shares",
    "mean_field_policy",
    "mean_field_drift",
    "mean_field_path",
    "neutral_diffusion",
    "rate_law_time",
]

_SIGMA_FLOOR = 1e-12
_DRAWS_PER_CHUNK = 2_000_000  # uniforms held at once (16 MB)


@dataclass(frozen=True)
class Verifier:
    """A noisy binary verifier: P(reward | correct) = TPR, P(reward | incorrect) = FPR."""

    fpr: float
    fnr: float

    @property
    def tpr(self) -> float:
        return 1.0 - self.fnr

    @property
    def youden_j(self) -> float:
        return self.tpr - self.fpr

    @classmethod
    def from_j(cls, j: float, fpr: float) -> Verifier:
        return cls(fpr=fpr, fnr=1.0 - fpr - j)


def _sigma(x: np.ndarray, tpr: np.ndarray, fpr: np.ndarray) -> np.ndarray:
    q = (1.0 - x) * tpr + x * fpr
    return np.sqrt(np.maximum(q * (1.0 - q), 0.0))


def mean_field_drift(x: np.ndarray, tpr: np.ndarray, fpr: np.ndarray, lr: float, modes: int) -> np.ndarray:
    """dx/dt of the incorrect mass under the continuous mean-field GRPO flow (vectorised over cells)."""
    x = np.clip(x, 0.0, 1.0)
    sigma = np.maximum(_sigma(x, tpr, fpr), _SIGMA_FLOOR)
    return -2.0 * lr * (tpr - fpr) * x**2 * (1.0 - x) ** 2 / (modes * sigma)


def full_logit_drift(theta: np.ndarray, tpr: float, fpr: float, lr: float, modes: int) -> np.ndarray:
    """Expected GRPO step of all 2m logits (population std), without the symmetry reduction."""
    pi = np.exp(theta - theta.max())
    pi /= pi.sum()
    rate = np.concatenate([np.full(modes, tpr), np.full(modes, fpr)])
    mean = float(pi @ rate)
    sigma = max(np.sqrt(max(mean * (1.0 - mean), 0.0)), _SIGMA_FLOOR)
    return lr * pi * (rate - mean) / sigma


def mean_field_path(tpr: np.ndarray, fpr: np.ndarray, x0: float, steps: int, lr: float, modes: int) -> np.ndarray:
    """Incorrect mass at steps 0..steps under the expected GRPO step (discrete map), shape (cells, steps + 1)."""
    tpr, fpr = np.atleast_1d(np.asarray(tpr, float)), np.atleast_1d(np.asarray(fpr, float))
    z = np.full(tpr.shape, np.log(x0 / (1.0 - x0)))
    out = np.empty((tpr.size, steps + 1))
    for t in range(steps + 1):
        x = 1.0 / (1.0 + np.exp(-z))
        out[:, t] = x
        sigma = np.maximum(_sigma(x, tpr, fpr), _SIGMA_FLOOR)
        z = z - 2.0 * lr * (tpr - fpr) * x * (1.0 - x) / (modes * sigma)
    return out


def rate_law_time(verifier: Verifier, lr: float, modes: int, x0: float, threshold: float) -> float | None:
    """The rate law's time from x0 down to `threshold`: (m / 2 lr J) * int sigma / (x^2 (1-x)^2) dx (None if J <= 0)."""
    j = verifier.youden_j
    if j <= 1e-9 or x0 <= threshold:
        return None

    def integrand(x: float) -> float:
        return float(_sigma(np.array(x), np.array(verifier.tpr), np.array(verifier.fpr))) / (x**2 * (1.0 - x) ** 2)

    value, _ = quad(integrand, threshold, x0, limit=200)
    return modes * value / (2.0 * lr * j)


@dataclass(frozen=True)
class Diffusion:
    """The J = 0 diffusion limit at the start: per-step variance and drift of the incorrect mass."""

    variance_per_step: float
    drift_per_step: float


def neutral_diffusion(p: float, x0: float, lr: float, modes: int, group: int) -> Diffusion:
    """D and b of the incorrect mass at J = 0 (TPR = FPR = p) from the exact one-step covariance of theta."""
    pi = np.concatenate([np.full(modes, (1.0 - x0) / modes), np.full(modes, x0 / modes)])
    bad = np.concatenate([np.zeros(modes), np.ones(modes)])
    kappa = 1.0 - p**group - (1.0 - p) ** group
    cov = lr**2 * kappa / group * (np.diag(pi) - np.outer(pi, pi))
    centred = bad - x0
    grad = pi * centred
    hessian = np.diag(grad) - np.outer(grad, pi) - np.outer(pi, grad)
    return Diffusion(variance_per_step=float(grad @ cov @ grad), drift_per_step=float(0.5 * (hessian * cov).sum()))


def _initial_logits(paths: int, modes: int, x0: float) -> np.ndarray:
    theta = np.zeros((paths, 2 * modes))
    theta[:, modes:] = np.log(x0 / (1.0 - x0))  # each incorrect mode gets x0/m, each correct (1-x0)/m
    return theta


def logits_from_shares(x0: float, correct_shares: np.ndarray) -> np.ndarray:
    """Logits of the policy with incorrect mass x0 spread evenly and the correct mass (1 - x0) split by
    `correct_shares` (normalised); the first half of the arms are the correct modes."""
    shares = np.asarray(correct_shares, float) / float(np.sum(correct_shares))
    modes = shares.size
    return np.log(np.concatenate([(1.0 - x0) * shares, np.full(modes, x0 / modes)]))


def mean_field_policy(theta0: np.ndarray, tpr: float, fpr: float, steps: int, lr: float) -> np.ndarray:
    """The policy (steps + 1, 2m) under the expected GRPO step of every logit (no symmetry reduction)."""
    modes = theta0.size // 2
    theta = np.array(theta0, dtype=float)
    out = np.empty((steps + 1, theta.size))
    for t in range(steps + 1):
        pi = np.exp(theta - theta.max())
        out[t] = pi / pi.sum()
        theta = theta + full_logit_drift(theta, tpr, fpr, lr, modes)
    return out


def concentration_clock(policy: np.ndarray) -> np.ndarray:
    """tau_t = sum over steps s < t of (m/2)(H_bad(s) + H_good(s)), H the Herfindahl index of the shares inside
    each class; policy (..., steps + 1, 2m) gives tau (..., steps + 1), tau_0 = 0, tau_t = t for equal shares."""
    modes = policy.shape[-1] // 2
    good, bad = policy[..., :modes], policy[..., modes:]
    herfindahl = ((good / good.sum(axis=-1, keepdims=True)) ** 2).sum(axis=-1) + (
        (bad / bad.sum(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    rate = 0.5 * modes * herfindahl
    tau = np.zeros(policy.shape[:-1])
    tau[..., 1:] = np.cumsum(rate[..., :-1], axis=-1)
    return tau


def _softmax(theta: np.ndarray) -> np.ndarray:
    pi = np.exp(theta - theta.max(axis=1, keepdims=True))
    return pi / pi.sum(axis=1, keepdims=True)


def _grpo_step(theta: np.ndarray, pi: np.ndarray, draws: np.ndarray, tpr: np.ndarray, fpr: np.ndarray,
               lr: float) -> None:
    """One GRPO update of every path in place; draws (paths, 2, G) are the sampling and reward uniforms,
    tpr and fpr (paths, 1) the verifier of each path (the first half of the arms are the correct modes)."""
    paths, arms = theta.shape
    g = draws.shape[2]
    cdf = np.cumsum(pi, axis=1)
    arm = np.zeros((paths, g), dtype=np.intp)
    for k in range(arms - 1):  # inverse-CDF sampling: the number of cdf values <= u
        arm += draws[:, 0, :] >= cdf[:, k, None]
    reward = (draws[:, 1, :] < np.where(arm < arms // 2, tpr, fpr)).astype(float)
    centred = reward - reward.mean(axis=1, keepdims=True)
    std = np.sqrt((centred**2).mean(axis=1, keepdims=True))
    advantage = np.where(std > 0, centred / np.where(std > 0, std, 1.0), 0.0)
    flat = (np.arange(paths)[:, None] * arms + arm).ravel()
    counts = np.bincount(flat, weights=advantage.ravel(), minlength=paths * arms).reshape(paths, arms)
    theta += lr * (counts - advantage.sum(axis=1, keepdims=True) * pi) / g


def bandit_grpo(
    verifiers: Verifier | list[Verifier],
    *,
    steps: int,
    group_size: int,
    modes: int,
    lr: float,
    x0: float,
    rngs: list[np.random.Generator],
    progress: Progress = no_progress,
    chunk: int = 200,
    initial_logits: np.ndarray | None = None,
    policy_out: np.ndarray | None = None,
) -> np.ndarray:
    """Finite-sample GRPO on the 2m-armed bandit, one policy per generator, vectorised over paths.

    `verifiers` is one verifier for every path or one per path (a grid of cells run together).
    Returns the incorrect mass of every path at steps 0..steps, shape (paths, steps + 1). Each path
    draws its own uniforms (in chunks of at most `chunk` steps; consecutive draws of a generator are one
    stream, so the chunking does not change them), and its numbers do not depend on the other paths.
    `initial_logits` (2m,) replaces the equal split inside each class; `policy_out` (paths, steps + 1, 2m),
    when given, receives the policy of every path at every step.
    """
    paths = len(rngs)
    per_path = verifiers if isinstance(verifiers, list) else [verifiers] * paths
    if len(per_path) != paths:
        raise ValueError(f"{len(per_path)} verifiers for {paths} paths")
    tpr = np.array([[v.tpr] for v in per_path])
    fpr = np.array([[v.fpr] for v in per_path])
    theta = _initial_logits(paths, modes, x0) if initial_logits is None else np.tile(initial_logits, (paths, 1))
    mass = np.empty((paths, steps + 1))
    chunk = max(1, min(chunk, _DRAWS_PER_CHUNK // (paths * 2 * group_size)))  # the numbers do not depend on it
    buffer = np.empty((paths, chunk, 2, group_size))
    for start in range(0, steps, chunk):
        length = min(chunk, steps - start)
        draws = buffer[:, :length]
        for path, rng in enumerate(rngs):
            rng.random(out=draws[path])  # (length, 2, G) uniforms of this path, in its own stream
        for k in range(length):
            pi = _softmax(theta)
            mass[:, start + k] = pi[:, modes:].sum(axis=1)
            if policy_out is not None:
                policy_out[:, start + k] = pi
            _grpo_step(theta, pi, draws[:, k], tpr, fpr, lr)
        progress((start + length) / steps, f"step {start + length}/{steps}")
    last = _softmax(theta)
    mass[:, steps] = last[:, modes:].sum(axis=1)
    if policy_out is not None:
        policy_out[:, steps] = last
    return mass
