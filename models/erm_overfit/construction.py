"""Feldman's function on a code, its exact population loss, the overfitting ERM and projected GD.

Sample: a subset V of the code W, each code vector included independently with probability 1/2.
Loss (x in the unit ball):  g_V(x) = max{1/2, max_{w in V} <w, x>}  (+ lambda/2 ||x||^2).

* Every x has g_V(x) >= 1/2, so 1/2 is the smallest training and population loss (x = 0 attains both).
* A code vector u that is in none of the m samples has training loss exactly 1/2 when the coherence
  mu < 1/2 (each <w, u> <= mu for w != u), so it is an empirical risk minimiser of the Feldman part;
  but u is in a fresh sample with probability 1/2 and then g_V(u) = 1, so its population loss is at
  least 3/4: an excess of at least 1/4 (the issue's bound 1/4 - mu is weaker).
* Population loss, exactly: sort a_k = <w_(k), x> decreasingly; the largest member of V is the first
  included one, so E g_V(x) = sum_k 2^-k max(1/2, a_(k)) + 2^-K / 2.

For gradient descent the per-sample loss gets a zero-mean linear term <xi_V, x> with
xi_V = (alpha / sqrt K) sum_w s_w(V) w, s_w = +1 if w in V else -1: it vanishes in expectation, so the
population loss is unchanged, but its empirical mean points GD towards the code vectors the sample
missed, the mechanism behind the paper's lower bound for GD (the paper's own terms are different).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.contract import Progress, no_progress

__all__ = ["GdPath", "Sample", "empirical_loss", "population_loss", "projected_gd"]


@dataclass(frozen=True)
class Sample:
    """membership[i, k]: code vector k is in sample i; `noise` is the empirical mean of xi_V."""

    membership: np.ndarray
    noise: np.ndarray

    @classmethod
    def draw(cls, rng: np.random.Generator, samples: int, code: np.ndarray, alpha: float = 1.0) -> Sample:
        membership = rng.random((samples, code.shape[0])) < 0.5
        signs = np.where(membership, 1.0, -1.0).mean(axis=0)
        return cls(membership, alpha * (signs @ code) / np.sqrt(code.shape[0]))

    def unseen(self) -> np.ndarray:
        """Indices of the code vectors in none of the samples."""
        return np.nonzero(~self.membership.any(axis=0))[0]


def empirical_loss(x: np.ndarray, code: np.ndarray, sample: Sample, strong_convexity: float,
                   with_noise: bool = False) -> float:
    """(1/m) sum_i g_{V_i}(x) + lambda/2 ||x||^2 (+ <mean xi, x> for the GD instance)."""
    inner = code @ x
    masked = np.where(sample.membership, inner[None, :], -np.inf).max(axis=1)
    value = float(np.maximum(0.5, masked).mean()) + 0.5 * strong_convexity * float(x @ x)
    return value + (float(sample.noise @ x) if with_noise else 0.0)


def population_loss(x: np.ndarray, code: np.ndarray, strong_convexity: float) -> float:
    """E_V g_V(x) + lambda/2 ||x||^2, exactly (the linear noise term has mean zero)."""
    ordered = np.sort(code @ x)[::-1]
    weights = 0.5 ** np.arange(1, ordered.size + 1)
    expected = float((weights * np.maximum(0.5, ordered)).sum() + 0.5**ordered.size * 0.5)
    return expected + 0.5 * strong_convexity * float(x @ x)


def _subgradient(x: np.ndarray, code: np.ndarray, sample: Sample, strong_convexity: float) -> np.ndarray:
    inner = code @ x
    masked = np.where(sample.membership, inner[None, :], -np.inf)
    best = masked.argmax(axis=1)
    active = masked[np.arange(masked.shape[0]), best] > 0.5
    grad = code[best[active]].sum(axis=0) / masked.shape[0] if active.any() else np.zeros_like(x)
    return grad + sample.noise + strong_convexity * x


@dataclass(frozen=True)
class GdPath:
    """Iterates of projected GD at the requested horizons (rows in the order of `horizons`)."""

    horizons: list[int]
    iterates: np.ndarray


def projected_gd(code: np.ndarray, sample: Sample, strong_convexity: float, eta: float, horizons: list[int],
                 progress: Progress = no_progress) -> GdPath:
    """x_{t+1} = Proj_ball(x_t - eta * subgradient), x_0 = 0; keeps x_T for each T in `horizons`."""
    x = np.zeros(code.shape[1])
    wanted = set(horizons)
    kept: dict[int, np.ndarray] = {}
    last = max(horizons)
    for t in range(1, last + 1):
        x = x - eta * _subgradient(x, code, sample, strong_convexity)
        norm = float(np.linalg.norm(x))
        if norm > 1.0:
            x = x / norm
        if t in wanted:
            kept[t] = x.copy()
        if t % 50 == 0:
            progress(t / last, f"step {t}/{last}")
    return GdPath(list(horizons), np.stack([kept[h] for h in horizons]))
