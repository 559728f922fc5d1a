"""Merged checkpoints, the rank-one test of their trajectory, and extrapolation along its top direction.

Extra-Merge (Wang et al. 2026): late in pre-training, raw checkpoints oscillate across the
high-curvature directions of a "river valley", while averages of consecutive checkpoints (merges)
move along the valley floor, so consecutive merged checkpoints lie close to a line. The method
extrapolates along that line: theta(beta) = merged + beta * d, with d the top principal direction
of the last merges' steps, scaled to the mean merged step (one merge window of progress).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Extrapolation", "block_merges", "ema", "extrapolation", "lawa", "top1_share"]


def block_merges(checkpoints: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """Merged checkpoint k = mean of the k-th block of `window` consecutive checkpoints.

    Blocks are aligned to the end (the oldest `len % window` checkpoints are left out). Returns the
    merges and, for comparison, the raw checkpoints at the block ends (the same times).
    """
    blocks = len(checkpoints) // window
    if blocks < 1:
        raise ValueError(f"window {window} is longer than the {len(checkpoints)} checkpoints")
    kept = checkpoints[len(checkpoints) - blocks * window :]
    return kept.reshape(blocks, window, -1).mean(axis=1), kept[window - 1 :: window]


def ema(checkpoints: np.ndarray, window: int) -> np.ndarray:
    """Exponential moving average over checkpoints with decay 1 - 1/window (same row count)."""
    decay = 1.0 - 1.0 / window
    out = np.empty(checkpoints.shape, dtype=np.float64)
    out[0] = checkpoints[0]
    for k in range(1, len(checkpoints)):
        out[k] = decay * out[k - 1] + (1.0 - decay) * checkpoints[k]
    return out


def lawa(checkpoints: np.ndarray, k: int) -> np.ndarray:
    """LAWA (latest weight averaging): the uniform mean of the last `k` checkpoints."""
    if not 1 <= k <= len(checkpoints):
        raise ValueError(f"LAWA over {k} checkpoints needs 1 <= k <= {len(checkpoints)}")
    return checkpoints[-k:].mean(axis=0)


def top1_share(trajectory: np.ndarray) -> float:
    """Share of the squared norm of the consecutive differences carried by their top singular direction.

    1 means every step points the same way (a straight line); for random directions in high
    dimension it is about 1 / (number of steps).
    """
    steps = np.diff(trajectory, axis=0)
    singular = np.linalg.svd(steps, compute_uv=False)
    total = float((singular**2).sum())
    return float(singular[0] ** 2 / total) if total > 0 else 0.0


@dataclass(frozen=True)
class Extrapolation:
    """theta(beta) = origin + beta * step; `direction` is the unit top principal direction."""

    origin: np.ndarray
    direction: np.ndarray
    step: np.ndarray

    def at(self, beta: float) -> np.ndarray:
        return self.origin + beta * self.step


def extrapolation(merges: np.ndarray, span: int) -> Extrapolation:
    """Direction: top right singular vector of the last `span` merged steps, oriented along their sum;
    step: the mean merged step projected on it (beta = 1 moves one merge further along the line)."""
    recent = merges[-(span + 1) :]
    steps = np.diff(recent, axis=0)
    _, _, vt = np.linalg.svd(steps, full_matrices=False)
    direction = vt[0]
    displacement = recent[-1] - recent[0]
    if displacement @ direction < 0:
        direction = -direction
    mean_step = (displacement @ direction) / len(steps)
    return Extrapolation(origin=merges[-1], direction=direction, step=mean_step * direction)
