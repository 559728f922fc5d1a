"""run(params, progress): corpus, training with checkpoints, merges, rank-one shares, the beta sweep."""

from __future__ import annotations

import math

import numpy as np
import torch

from models.common.contract import Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.extra_merge.corpus import VOCAB, Corpus, make_corpus
from models.extra_merge.merging import Extrapolation, block_merges, ema, extrapolation, top1_share
from models.extra_merge.model import NextTokenMLP, TrainingRun, evaluate, train
from models.extra_merge.params import Params
from models.extra_merge.result import BetaPoint, Result, TrajectoryPoint

__all__ = ["FALLING_TOLERANCE", "MAX_PCA_STEPS", "run"]

MAX_PCA_STEPS = 6  # merged steps (and raw steps at the same times) in the rank-one test and the direction
FALLING_TOLERANCE = 0.002  # "still falling": the last merge's validation loss is 0.2% below the previous one's
_TRAIN_POINTS = 300


class _Scorer:
    """Validation and test loss of a flat parameter vector (float64 numpy in, nats/token out)."""

    def __init__(self, model: NextTokenMLP, data: dict[str, torch.Tensor], device: str) -> None:
        self.model, self.data, self.device = model, data, device

    def __call__(self, flat: np.ndarray, split: str) -> float:
        vector = torch.as_tensor(flat, dtype=torch.float32, device=self.device)
        return evaluate(self.model, vector, self.data[f"{split}_x"], self.data[f"{split}_y"])


def _binned(losses: list[float]) -> tuple[list[int], list[float]]:
    width = max(len(losses) // _TRAIN_POINTS, 1)
    count = len(losses) // width
    values = np.asarray(losses[: count * width]).reshape(count, width).mean(axis=1)
    return [(k + 1) * width for k in range(count)], values.round(6).tolist()


def _trajectory(raw: np.ndarray, merges: np.ndarray, merge_steps: list[int], raw_steps: list[int],
                line: Extrapolation, betas: list[float]) -> list[TrajectoryPoint]:
    centre = raw.mean(axis=0)
    _, _, vt = np.linalg.svd(raw - centre, full_matrices=False)
    axes = vt[:2]

    def project(kind: str, steps: list[float], points: np.ndarray) -> list[TrajectoryPoint]:
        coords = (points - centre) @ axes.T
        return [TrajectoryPoint(kind=kind, step=s, pc1=float(c[0]), pc2=float(c[1] if len(c) > 1 else 0.0))
                for s, c in zip(steps, coords, strict=True)]

    extrapolated = np.stack([line.at(b) for b in betas])
    return (project("raw", [float(s) for s in raw_steps], raw)
            + project("merged", [float(s) for s in merge_steps], merges)
            + project("extrapolated", betas, extrapolated))


def _analyse(params: Params, corpus: Corpus, training: TrainingRun, score: _Scorer) -> Result:
    window = params.merge_window
    checkpoints = training.checkpoints
    merges, raw_at_ends = block_merges(checkpoints, window)
    span = min(len(merges) - 1, MAX_PCA_STEPS)
    line = extrapolation(merges, span)
    betas = [BetaPoint(beta=b, val_loss=score(line.at(b), "val"), test_loss=score(line.at(b), "test"))
             for b in params.betas]
    best = min(betas, key=lambda p: p.val_loss)
    merged_val = [score(m, "val") for m in merges]
    offset = len(checkpoints) - len(merges) * window
    merge_steps = [training.checkpoint_steps[offset + (k + 1) * window - 1] for k in range(len(merges))]
    first_raw = len(checkpoints) - (span + 1) * window
    train_steps, train_loss = _binned(training.train_loss)
    return Result(
        loss_last=score(checkpoints[-1], "test"),
        loss_merged=score(merges[-1], "test"),
        loss_extrapolated=best.test_loss,
        loss_ema=score(ema(checkpoints, window)[-1], "test"),
        best_beta=best.beta,
        top1_share_raw=top1_share(raw_at_ends[-(span + 1):]),
        top1_share_merged=top1_share(merges[-(span + 1):]),
        pca_steps=span,
        still_falling=merged_val[-1] < merged_val[-2] * (1.0 - FALLING_TOLERANCE),
        merged_val_losses=merged_val,
        betas=betas,
        checkpoint_steps=training.checkpoint_steps,
        val_loss=training.val_loss,
        train_steps=train_steps,
        train_loss=train_loss,
        trajectory=_trajectory(checkpoints[first_raw:], merges[-(span + 1):], merge_steps[-(span + 1):],
                               training.checkpoint_steps[first_raw:], line, params.betas),
        entropy_rate=corpus.entropy_rate,
        uniform_loss=math.log(VOCAB),
        optimizer=params.optimizer,
        device=score.device,
        seconds_per_step=training.seconds_per_step,
        parameters=int(checkpoints.shape[1]),
    )


def run(params: Params, progress: Progress) -> Result:
    """Train once, then merge, test rank one, and sweep beta (chosen on validation, reported on test)."""
    monotone = MonotoneProgress(progress)
    monotone(0.0, "sampling the order-3 Markov corpus")
    corpus = make_corpus(np.random.default_rng(params.seed))
    device = torch_device()
    model, training, data = train(
        corpus, hidden=params.hidden, lr=params.learning_rate, steps=params.steps, batch_size=params.batch_size,
        checkpoint_every=params.checkpoint_every, optimizer=params.optimizer, seed=params.seed, device=device,
        progress=monotone.stage(0.02, 0.9),
    )
    monotone(0.9, "merging, PCA and the beta sweep")
    result = _analyse(params, corpus, training, _Scorer(model, data, device))
    monotone(1.0, "done")
    return result
