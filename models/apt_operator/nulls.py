"""The trivial reference every claim is checked against, and the paired test a learned model must pass first.

The null is a physics guess that ignores the permeability field: the same finite-volume pressure solve and
upwind transport with the true wells but a uniform permeability k = exp(mean ln k) over the input grid (the
outside review's reference). Its error, like every model's, is the mean of the relative L2 of the pressure and
of the saturation. A learned operator "beats the null" on a seed only when
the paired 95% interval of (null - model) over the test media excludes 0 and the improvement in mean
relative L2, 100 (1 - mean(model) / mean(null)), is at least `MIN_GAIN` percent; only then do its robustness ratios count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.apt_operator.data import MeshSample
from models.apt_operator.solver import solve_darcy
from models.apt_operator.transport import transport
from models.common.stats import mean_interval

__all__ = ["MIN_GAIN", "NullCheck", "improvement", "null_check", "on_leaves", "paired_interval", "uniform_k_guess"]

MIN_GAIN = 25.0  # percent: the smallest improvement over the uniform-k solve that we call "learned"


def uniform_k_guess(sample: MeshSample) -> np.ndarray:
    """(N, 2) FV pressure and transported saturation of a regular-grid sample with k replaced by the uniform
    exp(mean ln k), the wells kept."""
    n = int(round(np.sqrt(sample.points.shape[0])))
    if n * n != sample.points.shape[0] or sample.cells is not None:
        raise ValueError("the uniform-k guess is solved on a regular n x n grid sample")
    k = np.full((n, n), float(np.exp(np.mean(sample.log_k))))
    q = sample.source.reshape(n, n)
    p = solve_darcy(k, q).pressure
    return np.stack([p.ravel(), transport(k, q, p).saturation.ravel()], 1)


def on_leaves(grid_values: np.ndarray, adaptive: MeshSample) -> np.ndarray:
    """Average 32 x 32 grid values onto the adaptive leaves, as the leaves' own targets are built."""
    assert adaptive.cells is not None
    return np.asarray(grid_values[adaptive.cells].mean(1))


def relative_l2(pred: np.ndarray, sample: MeshSample) -> np.ndarray:
    """Area-weighted relative L2 of one (N, 2) prediction against the sample's pressure and saturation: (2,)."""
    w, target = sample.area[:, None], sample.targets()
    return np.asarray(np.sqrt(np.sum(w * (pred - target) ** 2, 0) / np.sum(w * target**2, 0)))


def improvement(model: np.ndarray, null: np.ndarray) -> np.ndarray:
    """Per-medium improvement over the null in percent of the null's mean error: 100 (null_i - model_i) /
    mean(null). Its mean is 100 (1 - mean(model) / mean(null)), the improvement in mean relative L2 (dividing
    each medium by its own null error instead would let the few media the null nearly solves dominate)."""
    model, null = np.asarray(model, dtype=float), np.asarray(null, dtype=float)
    return 100.0 * (null - model) / float(null.mean())


def paired_interval(diffs: np.ndarray) -> tuple[float, float]:
    """The 95% interval of the mean of one seed's paired per-medium differences (the claims' bootstrap over
    units, `models.common.stats.mean_interval`); a single medium gives no interval: unbounded, never a pass."""
    diffs = np.asarray(diffs, dtype=float).ravel()
    interval = mean_interval([diffs.tolist()])
    return (-np.inf, np.inf) if interval is None else (interval.lo, interval.hi)


@dataclass(frozen=True)
class NullCheck:
    """Whether a model beats the uniform-k null on one seed's media, and by how much."""

    gain: float  # mean per-medium improvement, percent
    interval: tuple[float, float]  # paired 95% interval of mean(null - model)
    passed: bool

    def text(self) -> str:
        lo, hi = self.interval
        return f"{self.gain:.1f}% below the uniform-k solve (paired interval of the gap {lo:.3f} to {hi:.3f})"


def null_check(model: np.ndarray, null: np.ndarray) -> NullCheck:
    """Beats the null: the paired interval of (null - model) excludes 0 and the mean gain is >= MIN_GAIN %."""
    model, null = np.asarray(model, dtype=float), np.asarray(null, dtype=float)
    lo, hi = paired_interval(null - model)
    gain = float(improvement(model, null).mean())
    return NullCheck(gain=gain, interval=(lo, hi), passed=bool(lo > 0 and gain >= MIN_GAIN))
