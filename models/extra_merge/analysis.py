"""One analysis point of a training run: Extra-Merge and the paper's baselines on the checkpoints up to a step.

Every method's free choice is made on the validation split from the same kind of grid and reported
on the test split: Extra-Merge's beta, EMA's decay (1 - 1/k) and LAWA's number of averaged checkpoints.
The plain merge is the mean of the last `merge_window` checkpoints (the last merged checkpoint).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from models.extra_merge.merging import Extrapolation, block_merges, ema, extrapolation, lawa, top1_share
from models.extra_merge.result import BetaPoint, CutSummary

__all__ = ["AVERAGING_GRID", "FALLING_TOLERANCE", "MAX_PCA_STEPS", "CutAnalysis", "analyse_cut"]

MAX_PCA_STEPS = 6  # merged steps (and raw steps at the same times) in the rank-one test and the direction
FALLING_TOLERANCE = 0.002  # "still falling": the last merge's validation loss is 0.2% below the one before
AVERAGING_GRID = (2, 4, 8, 16, 32)  # EMA horizons k (decay 1 - 1/k) and LAWA sizes, each chosen on validation

Scorer = Callable[[np.ndarray, str], float]


@dataclass(frozen=True)
class CutAnalysis:
    """The summary and what the figures of the first seed need (merges, the line, the raw window)."""

    summary: CutSummary
    betas: list[BetaPoint]
    raw_window: np.ndarray
    raw_steps: list[int]
    merges: np.ndarray
    merge_steps: list[int]
    line: Extrapolation


def _best(candidates: Sequence[tuple[float, np.ndarray]], score: Scorer) -> tuple[float, float, float]:
    """(choice, validation loss, test loss) of the candidate with the lowest validation loss."""
    scored = [(choice, score(theta, "val"), theta) for choice, theta in candidates]
    choice, val, theta = min(scored, key=lambda item: item[1])
    return choice, val, score(theta, "test")


def analyse_cut(checkpoints: np.ndarray, steps: list[int], window: int, betas: Sequence[float], score: Scorer,
                floor: float, phase: str) -> CutAnalysis:
    """Extra-Merge, merge, EMA, LAWA and the last checkpoint on `checkpoints` (all saved up to the cut)."""
    ckpt = checkpoints.astype(np.float64)
    merges, raw_at_ends = block_merges(ckpt, window)
    span = min(len(merges) - 1, MAX_PCA_STEPS)
    line = extrapolation(merges, span)
    sweep = [BetaPoint(beta=b, val_loss=score(line.at(b), "val"), test_loss=score(line.at(b), "test")) for b in betas]
    chosen = min(sweep, key=lambda p: p.val_loss)
    grid = [k for k in AVERAGING_GRID if k <= len(ckpt)]
    ema_k, _, ema_test = _best([(float(k), ema(ckpt, k)[-1]) for k in grid], score)
    lawa_k, _, lawa_test = _best([(float(k), lawa(ckpt, k)) for k in grid], score)
    merged_val = [score(m, "val") for m in merges[-2:]]
    offset = len(ckpt) - len(merges) * window
    merge_steps = [steps[offset + (k + 1) * window - 1] for k in range(len(merges))]
    first_raw = len(ckpt) - (span + 1) * window
    merge_test = score(merges[-1], "test")
    best = min(merge_test, ema_test, lawa_test)
    gap = best - floor
    summary = CutSummary(
        phase=phase, step=steps[-1], still_falling=merged_val[-1] < merged_val[-2] * (1.0 - FALLING_TOLERANCE),
        loss_last=score(ckpt[-1], "test"), loss_merge=merge_test, loss_ema=ema_test, ema_k=int(ema_k),
        loss_lawa=lawa_test, lawa_k=int(lawa_k), loss_extrapolated=chosen.test_loss, beta=chosen.beta,
        top1_raw=top1_share(raw_at_ends[-(span + 1):]), top1_merged=top1_share(merges[-(span + 1):]),
        pca_steps=span, floor=floor, best_baseline=best, gain=best - chosen.test_loss,
        gain_share=(best - chosen.test_loss) / gap if gap > 0 else 0.0,
    )
    return CutAnalysis(summary, sweep, ckpt[first_raw:], steps[first_raw:], merges[-(span + 1):],
                       merge_steps[-(span + 1):], line)
