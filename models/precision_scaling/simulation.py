"""Sketched linear regression trained by one-pass SGD on quantised features, and its risk.

Model (after Lin et al. 2024 and Zhang et al. 2026): x ~ N(0, H) in R^d with H = diag(i^-a),
y = <w*, x> + noise, w* ~ N(0, I); the model of size M predicts <v, S x> with a Gaussian sketch
S in R^(M x d), S_ij ~ N(0, 1/M). Low precision: every feature vector is quantised before use,
x~ = Q(x), with Q multiplicative or additive (see quantise.py); labels stay exact. SGD makes one
pass, v <- v - gamma (<v, S x~> - y) S x~, with gamma = 0.5 / E||S x~||^2, and the estimate after n
samples is the average of the iterates n/2..n. The excess risk of v is
(S^T v - w*)^T H (S^T v - w*), computed exactly.

All model sizes share one sketch (the first M rows of the largest one, rescaled), and all sizes,
seeds and steps of a scheme run in one vectorised loop over the samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.contract import Progress, no_progress
from models.precision_scaling.quantise import Scheme, quantise

__all__ = ["ADDITIVE_RANGE", "Problem", "SgdRun", "make_problem", "record_points", "sgd_risk"]

ADDITIVE_RANGE = 4.0  # R of the int-like grid: 4 standard deviations of the largest feature (lambda_1 = 1)
STEP_SCALE = 0.5


@dataclass(frozen=True)
class Problem:
    """One random instance: spectrum, target, sketch and the stream of samples."""

    spectrum: np.ndarray  # (d,) eigenvalues of H
    target: np.ndarray  # (d,) w*
    sketch: np.ndarray  # (M_max, d), entries N(0, 1/M_max)
    features: np.ndarray  # (N, d)
    labels: np.ndarray  # (N,)
    label_noise: float

    def sketch_of(self, m: int) -> np.ndarray:
        """S for model size m: the first m rows rescaled so that S_ij ~ N(0, 1/m)."""
        return self.sketch[:m] * np.sqrt(self.sketch.shape[0] / m)


def make_problem(rng: np.random.Generator, *, dimension: int, exponent: float, max_size: int, samples: int,
                 label_noise: float) -> Problem:
    spectrum = np.arange(1, dimension + 1, dtype=float) ** -exponent
    target = rng.normal(size=dimension)
    sketch = rng.normal(size=(max_size, dimension)) / np.sqrt(max_size)
    features = rng.normal(size=(samples, dimension)) * np.sqrt(spectrum)
    labels = features @ target + label_noise * rng.normal(size=samples)
    return Problem(spectrum, target, sketch, features, labels, label_noise)


def record_points(samples: int, points: int = 8) -> list[int]:
    """Sample counts n at which the risk is recorded: a geometric grid ending at N."""
    low = min(64, samples)
    return sorted({int(round(v)) for v in np.geomspace(low, samples, points)})


@dataclass(frozen=True)
class SgdRun:
    """risk[s, k, i]: excess risk of seed s, model size sizes[k], after record[i] samples."""

    sizes: list[int]
    record: list[int]
    risk: np.ndarray
    noise_variance: np.ndarray  # (seeds, d): measured per-coordinate variance of Q(x) - x
    step_sizes: np.ndarray  # (seeds, K)


def sgd_risk(problems: list[Problem], sizes: list[int], scheme: Scheme, bits: int, rngs: list[np.random.Generator],
             progress: Progress = no_progress, noise_level: float = 0.0) -> SgdRun:
    """One pass of SGD for every problem and size at once; risks of the tail-averaged iterates.

    noise_level > 0: the paper's noise model instead of rounding, multiplicative with relative second
    moment `noise_level`, additive with the matched constant variance noise_level * mean(spectrum)."""
    seeds, m_max = len(problems), problems[0].sketch.shape[0]
    n = problems[0].features.shape[0]
    noise_variance = np.empty((seeds, problems[0].features.shape[1]))
    z_all = np.empty((seeds, n, m_max))
    for s, (p, rng) in enumerate(zip(problems, rngs, strict=True)):  # one quantised copy at a time
        quantised = quantise(p.features, scheme, bits, ADDITIVE_RANGE, rng, noise_level,
                             noise_level * float(p.spectrum.mean()))
        noise_variance[s] = ((quantised - p.features) ** 2).mean(axis=0)
        z_all[s] = quantised @ p.sketch.T
    labels = np.stack([p.labels for p in problems])
    sizes_arr = np.asarray(sizes)
    mask = (np.arange(m_max)[None, :] < sizes_arr[:, None]).astype(float)  # (K, M_max)
    scale = np.sqrt(m_max / sizes_arr)[:, None] * mask  # the first m coordinates, rescaled
    warm = min(n, 200)
    norms = np.einsum("snm,km->snk", z_all[:, :warm] ** 2, scale**2).mean(axis=1)  # E||S_m x~||^2 per (s, k)
    gamma = STEP_SCALE / norms
    record = record_points(n)
    marks = sorted({r // 2 for r in record} | set(record))
    cumulative = np.zeros((seeds, len(sizes), m_max))
    saved: dict[int, np.ndarray] = {0: cumulative.copy()}
    v = np.zeros_like(cumulative)
    report_every = max(n // 20, 1)
    for t in range(n):
        zk = z_all[:, t, None, :] * scale[None]  # (S, K, M_max)
        error = (v * zk).sum(axis=2) - labels[:, t, None]
        v -= (gamma * error)[:, :, None] * zk
        cumulative += v
        if t + 1 in marks:
            saved[t + 1] = cumulative.copy()
        if (t + 1) % report_every == 0:
            progress((t + 1) / n, f"{scheme}: sample {t + 1}/{n}")
    risk = np.empty((seeds, len(sizes), len(record)))
    for i, r in enumerate(record):
        average = (saved[r] - saved[r // 2]) / (r - r // 2)
        for s, p in enumerate(problems):
            residual = (average[s] * scale) @ p.sketch - p.target  # S_m^T v - w*, all sizes at once
            risk[s, :, i] = (residual**2 * p.spectrum).sum(axis=1)
    return SgdRun(list(sizes), record, risk, noise_variance, gamma)
