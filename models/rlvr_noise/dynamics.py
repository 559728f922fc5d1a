"""GRPO on a bandit over reasoning modes with a noisy verifier: the mean-field flow and the finite-sample run.

Model (after Rad et al. 2026): a prompt has m correct and m incorrect reasoning modes; the policy is
a softmax over 2m logits. The verifier rewards a correct sample with probability TPR = 1 - FNR and
an incorrect one with probability FPR. GRPO draws a group of G samples, standardises the rewards
inside the group, A_i = (r_i - mean) / std (A = 0 when all rewards agree), and takes the
policy-gradient step theta += lr * (1/G) sum_i A_i (e_{a_i} - pi).

Mean field: the expected step is lr * pi_k (r_k - rbar) / sigma with r_k the mode's reward rate,
rbar = sum_k pi_k r_k and sigma = sqrt(q(1-q)) the reward standard deviation at success rate q.
With the modes of a class equally likely (true at step 0 and preserved by the flow), the incorrect
mass x obeys a one-dimensional equation whose drift has the sign of -J:

    dx/dt = -2 lr J x^2 (1-x)^2 / (m sigma(x)),   q(x) = (1-x) TPR + x FPR,   J = TPR - FPR.

(The logit gap logit(x) = theta_bad - theta_good moves by -2 lr J x (1-x) / (m sigma) per step.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from models.common.contract import Progress, no_progress

__all__ = [
    "BanditRun",
    "Verifier",
    "bandit_grpo",
    "full_logit_drift",
    "mean_field_drift",
    "mean_field_path",
]

_SIGMA_FLOOR = 1e-12


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


def mean_field_drift(x: np.ndarray, tpr: np.ndarray, fpr: np.ndarray, lr: float, modes: int) -> np.ndarray:
    """dx/dt of the incorrect mass under the mean-field GRPO flow (vectorised over cells)."""
    x = np.clip(x, 0.0, 1.0)
    j = tpr - fpr
    q = (1.0 - x) * tpr + x * fpr
    sigma = np.sqrt(np.maximum(q * (1.0 - q), 0.0))
    return -2.0 * lr * j * x**2 * (1.0 - x) ** 2 / (modes * np.maximum(sigma, _SIGMA_FLOOR))


def full_logit_drift(theta: np.ndarray, tpr: float, fpr: float, lr: float, modes: int) -> np.ndarray:
    """Expected GRPO step of all 2m logits (population std), without the symmetry reduction."""
    pi = np.exp(theta - theta.max())
    pi /= pi.sum()
    rate = np.concatenate([np.full(modes, tpr), np.full(modes, fpr)])
    mean = float(pi @ rate)
    sigma = max(np.sqrt(max(mean * (1.0 - mean), 0.0)), _SIGMA_FLOOR)
    return lr * pi * (rate - mean) / sigma


def mean_field_path(
    tpr: np.ndarray, fpr: np.ndarray, x0: float, steps: int, lr: float, modes: int
) -> np.ndarray:
    """Incorrect mass at steps 0..steps for every (TPR, FPR) cell: one `solve_ivp` over all cells.

    Returns an array of shape (cells, steps + 1). The cells are independent one-dimensional
    equations solved together (RK45, rtol 1e-8), so one adaptive step size serves them all.
    """
    tpr, fpr = np.atleast_1d(np.asarray(tpr, float)), np.atleast_1d(np.asarray(fpr, float))

    def rhs(_t: float, x: np.ndarray) -> np.ndarray:
        return mean_field_drift(x, tpr, fpr, lr, modes)

    times = np.arange(steps + 1, dtype=float)
    solution = solve_ivp(
        rhs, (0.0, float(steps)), np.full(tpr.shape, x0), t_eval=times, rtol=1e-8, atol=1e-11, method="RK45"
    )
    if not solution.success:  # pragma: no cover - RK45 on a bounded smooth drift does not fail
        raise RuntimeError(f"mean-field integration failed: {solution.message}")
    return np.clip(solution.y, 0.0, 1.0)


@dataclass(frozen=True)
class BanditRun:
    """Incorrect mass of every seed at steps 0..steps, shape (seeds, steps + 1)."""

    incorrect_mass: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        return self.incorrect_mass.mean(axis=0)


def _initial_logits(seeds: int, modes: int, x0: float) -> np.ndarray:
    theta = np.zeros((seeds, 2 * modes))
    theta[:, modes:] = np.log(x0 / (1.0 - x0))  # each incorrect mode gets x0/m, each correct (1-x0)/m
    return theta


def bandit_grpo(
    verifier: Verifier,
    *,
    steps: int,
    group_size: int,
    modes: int,
    lr: float,
    x0: float,
    rngs: list[np.random.Generator],
    progress: Progress = no_progress,
    chunk: int = 200,
) -> BanditRun:
    """Finite-sample GRPO on the 2m-armed bandit, one policy per generator, vectorised over seeds.

    Each seed draws its own uniforms (in chunks of `chunk` steps) so its path does not depend on
    how many other seeds run beside it.
    """
    seeds, arms, g = len(rngs), 2 * modes, group_size
    theta = _initial_logits(seeds, modes, x0)
    mass = np.empty((seeds, steps + 1))
    rows = np.arange(seeds)[:, None]
    reward_rate = np.concatenate([np.full(modes, verifier.tpr), np.full(modes, verifier.fpr)])
    for start in range(0, steps, chunk):
        length = min(chunk, steps - start)
        draws = np.stack([rng.random((length, 2, g)) for rng in rngs])  # (seeds, length, 2, G)
        for k in range(length):
            pi = np.exp(theta - theta.max(axis=1, keepdims=True))
            pi /= pi.sum(axis=1, keepdims=True)
            mass[:, start + k] = pi[:, modes:].sum(axis=1)
            cdf = np.cumsum(pi, axis=1)
            cdf[:, -1] = 1.0
            arm = (draws[:, k, 0, :, None] >= cdf[:, None, :]).sum(axis=2)  # inverse-CDF sampling
            arm = np.minimum(arm, arms - 1)
            reward = (draws[:, k, 1, :] < reward_rate[arm]).astype(float)
            std = reward.std(axis=1, keepdims=True)
            advantage = np.where(std > 0, (reward - reward.mean(axis=1, keepdims=True)) / np.where(std > 0, std, 1.0), 0.0)
            counts = np.zeros((seeds, arms))
            np.add.at(counts, (np.broadcast_to(rows, arm.shape), arm), advantage)
            gradient = (counts - advantage.sum(axis=1, keepdims=True) * pi) / g
            theta += lr * gradient
        progress((start + length) / steps, f"step {start + length}/{steps}")
    pi = np.exp(theta - theta.max(axis=1, keepdims=True))
    pi /= pi.sum(axis=1, keepdims=True)
    mass[:, steps] = pi[:, modes:].sum(axis=1)
    return BanditRun(mass)
