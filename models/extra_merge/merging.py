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

__all__ = [
    "Extrapolation",
    "block_merges",
    "ema",
    "extrapolation",
    "lag_shift",
    "lawa",
    "pca_share",
    "random_walk_pca_share",
    "top1_share",
]


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


def pca_share(points: np.ndarray) -> float:
    """Share of the variance of the centred points carried by their first principal component.

    The paper's measure ("over 94% of the variance in one component"): 1 for points on a line. A random
    walk in high dimension gives `random_walk_pca_share(len(points))` (about 0.63 for 7 points).
    """
    centred = points - points.mean(axis=0)
    singular = np.linalg.svd(centred, compute_uv=False)
    total = float((singular**2).sum())
    return float(singular[0] ** 2 / total) if total > 0 else 0.0


def random_walk_pca_share(points: int) -> float:
    """pca_share of `points` positions of an isotropic random walk, in the high-dimension limit (exact).

    Positions are X = L Z (L the lower-triangular ones matrix, Z i.i.d. steps); as the dimension grows the
    Gram matrix of the centred positions tends to C L L^T C (C the centring matrix), so the share is the top
    eigenvalue of that matrix over its trace.
    """
    if points < 2:
        raise ValueError("a share needs at least 2 points")
    lower = np.tril(np.ones((points, points)))
    centring = np.eye(points) - 1.0 / points
    gram = centring @ lower @ lower.T @ centring
    eigen = np.linalg.eigvalsh(gram)
    return float(eigen[-1] / eigen.sum())


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


def lag_shift(merges: np.ndarray) -> Extrapolation:
    """The review's diagnostic: theta(gamma) = last merge + gamma * (last merged step), no principal direction.

    A block mean lags its block's last checkpoint by (window - 1) / 2 checkpoints, so gamma = (w - 1) / (2w)
    compensates that lag if the drift is straight; tuned on validation over the same grid as beta.
    """
    if len(merges) < 2:
        raise ValueError("a shift along the last merged step needs at least 2 merges")
    step = merges[-1] - merges[-2]
    norm = float(np.linalg.norm(step))
    direction = step / norm if norm > 0 else step
    return Extrapolation(origin=merges[-1], direction=direction, step=step)
