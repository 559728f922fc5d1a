"""One analysis point of a training run: Extra-Merge and the paper's baselines on the checkpoints up to a step.

Every method's free choice is made on the validation split from a grid and reported on the test split:
Extra-Merge's beta, EMA's decay (1 - 1/k), LAWA's number of averaged checkpoints, and the diagnostic
lag-compensating shift's gamma. The plain merge is the mean of the last `merge_window` checkpoints (the
last merged checkpoint). Losses are kept per test token, so every difference is a paired one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from models.common.grids import GridReport, best_on_grid
from models.extra_merge.merging import (
    Extrapolation,
    block_merges,
    ema,
    extrapolation,
    lag_shift,
    lawa,
    pca_share,
    random_walk_pca_share,
    top1_share,
)
from models.extra_merge.result import BetaPoint, CutSummary

__all__ = ["AVERAGING_GRID", "FALLING_TOLERANCE", "MAX_PCA_STEPS", "REGIME_SHARE", "CutAnalysis", "TokenLosses",
           "analyse_cut"]

MAX_PCA_STEPS = 6  # merged steps (7 merges, and raw checkpoints at the same times) in the rank-one measures
FALLING_TOLERANCE = 0.002  # "still falling": the last merge's validation loss is 0.2% below the window's first
AVERAGING_GRID = (1, 2, 4, 8, 16, 32, 64, 128)  # EMA horizons k (decay 1 - 1/k) and LAWA sizes (k = 1: last)
REGIME_SHARE = 0.8  # the paper's regime: merged checkpoints' first principal component carries >= 80% of variance

Scorer = Callable[[np.ndarray, str], np.ndarray]  # per-token losses (nats) of a parameter vector on a split


@dataclass(frozen=True)
class TokenLosses:
    """Per-test-token losses (nats) of every method at one analysis point: the claims' paired units."""

    extrapolated: np.ndarray
    best_baseline: np.ndarray
    merge: np.ndarray
    last: np.ndarray
    shift: np.ndarray


@dataclass(frozen=True)
class CutAnalysis:
    """The summary, the per-token losses and what the figures of the first seed need."""

    summary: CutSummary
    tokens: TokenLosses
    grids: list[GridReport]
    betas: list[BetaPoint]
    raw_window: np.ndarray
    raw_steps: list[int]
    merges: np.ndarray
    merge_steps: list[int]
    line: Extrapolation


@dataclass(frozen=True)
class _Choice:
    value: float
    at_edge: bool
    test: np.ndarray
    grid: GridReport


def _choose(tuned: str, param: str, candidates: Sequence[tuple[float, np.ndarray]], score: Scorer) -> _Choice:
    """The candidate with the lowest mean validation loss, its test losses and its grid report."""
    vals = [float(score(theta, "val").mean()) for _, theta in candidates]
    grid = best_on_grid(tuned, param, [c[0] for c in candidates], vals, lower_is_better=True)
    theta = next(t for v, t in candidates if v == grid.best)
    return _Choice(grid.best, grid.at_edge, score(theta, "test"), grid)


def analyse_cut(checkpoints: np.ndarray, steps: list[int], window: int, betas: Sequence[float], score: Scorer,
                floor: float, phase: str) -> CutAnalysis:
    """Extra-Merge, merge, EMA, LAWA, the lag shift and the last checkpoint on the checkpoints up to the cut."""
    ckpt = checkpoints.astype(np.float64)
    merges, raw_at_ends = block_merges(ckpt, window)
    span = min(len(merges) - 1, MAX_PCA_STEPS)
    line, shift = extrapolation(merges, span), lag_shift(merges)
    sweep = [BetaPoint(beta=b, val_loss=float(score(line.at(b), "val").mean()),
                       test_loss=float(score(line.at(b), "test").mean())) for b in betas]
    extra = _choose("Extra-Merge", "beta", [(b, line.at(b)) for b in betas], score)
    gamma = _choose("lag shift (diagnostic)", "gamma", [(b, shift.at(b)) for b in betas], score)
    grid = [k for k in AVERAGING_GRID if k <= len(ckpt)]
    ema_pick = _choose("EMA", "k (decay 1 - 1/k)", [(float(k), ema(ckpt, k)[-1]) for k in grid], score)
    lawa_pick = _choose("LAWA", "k (checkpoints averaged)", [(float(k), lawa(ckpt, k)) for k in grid], score)
    merged_val = [float(score(merges[-(span + 1)], "val").mean()), float(score(merges[-1], "val").mean())]
    merge_test, last_test = score(merges[-1], "test"), score(ckpt[-1], "test")
    named = {"plain merge": merge_test, "EMA": ema_pick.test, "LAWA": lawa_pick.test}
    best_name = min(named, key=lambda n: float(named[n].mean()))
    best = float(named[best_name].mean())
    offset = len(ckpt) - len(merges) * window
    merge_steps = [steps[offset + (k + 1) * window - 1] for k in range(len(merges))]
    first_raw = len(ckpt) - (span + 1) * window
    merged_pca = pca_share(merges[-(span + 1):])
    summary = CutSummary(
        phase=phase, step=steps[-1], still_falling=merged_val[-1] < merged_val[-2] * (1.0 - FALLING_TOLERANCE),
        loss_last=float(last_test.mean()), loss_merge=float(merge_test.mean()), loss_ema=float(ema_pick.test.mean()),
        ema_k=int(ema_pick.value), ema_edge=ema_pick.at_edge, loss_lawa=float(lawa_pick.test.mean()),
        lawa_k=int(lawa_pick.value), lawa_edge=lawa_pick.at_edge, loss_extrapolated=float(extra.test.mean()),
        beta=extra.value, beta_edge=extra.at_edge, loss_shift=float(gamma.test.mean()), gamma=gamma.value,
        gamma_edge=gamma.at_edge, top1_raw=top1_share(raw_at_ends[-(span + 1):]),
        top1_merged=top1_share(merges[-(span + 1):]), pca_raw=pca_share(raw_at_ends[-(span + 1):]),
        pca_merged=merged_pca, pca_random_walk=random_walk_pca_share(span + 1),
        regime=merged_pca >= REGIME_SHARE, pca_steps=span, floor=floor, best_baseline=best, best_name=best_name,
        gain=best - float(extra.test.mean()), test_tokens=int(last_test.size),
    )
    tokens = TokenLosses(extra.test, named[best_name], merge_test, last_test, gamma.test)
    grids = [c.grid for c in (extra, ema_pick, lawa_pick, gamma)]
    return CutAnalysis(summary, tokens, grids, sweep, ckpt[first_raw:], steps[first_raw:], merges[-(span + 1):],
                       merge_steps[-(span + 1):], line)
