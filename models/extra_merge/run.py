"""run(params, progress): per seed, the HMM corpus, the transformer's training, and two analysis points."""

from __future__ import annotations

import numpy as np
import torch

from models.common.claims import Standing, evaluate_claims
from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.extra_merge.analysis import AVERAGING_GRID, CutAnalysis, analyse_cut
from models.extra_merge.claims import CLAIMS, RESOLUTION, measure
from models.extra_merge.corpus import Corpus, make_corpus
from models.extra_merge.merging import Extrapolation
from models.extra_merge.model import TinyTransformer, TrainingRun, token_losses, train
from models.extra_merge.params import Params
from models.extra_merge.result import Result, SeedSummary, TrajectoryKind, TrajectoryPoint

__all__ = ["run"]

_TRAIN_POINTS = 300


class _Scorer:
    """Validation and test loss of a flat parameter vector (numpy in, nats/token out)."""

    def __init__(self, model: TinyTransformer, corpus: Corpus) -> None:
        self.model = model
        self.tokens = {"val": torch.as_tensor(corpus.val), "test": torch.as_tensor(corpus.test)}

    def __call__(self, flat: np.ndarray, split: str) -> np.ndarray:
        return token_losses(self.model, torch.as_tensor(flat, dtype=torch.float32), self.tokens[split])


def _binned(losses: list[float]) -> tuple[list[int], list[float]]:
    width = max(len(losses) // _TRAIN_POINTS, 1)
    count = len(losses) // width
    values = np.asarray(losses[: count * width]).reshape(count, width).mean(axis=1)
    return [(k + 1) * width for k in range(count)], values.round(6).tolist()


def _trajectory(cut: CutAnalysis, betas: list[float]) -> list[TrajectoryPoint]:
    raw = cut.raw_window
    centre = raw.mean(axis=0)
    _, _, vt = np.linalg.svd(raw - centre, full_matrices=False)
    axes = vt[:2]
    line: Extrapolation = cut.line

    def project(kind: TrajectoryKind, steps: list[float], points: np.ndarray) -> list[TrajectoryPoint]:
        coords = (points - centre) @ axes.T
        return [TrajectoryPoint(kind=kind, step=s, pc1=float(c[0]), pc2=float(c[1] if len(c) > 1 else 0.0))
                for s, c in zip(steps, coords, strict=True)]

    return (project("raw", [float(s) for s in cut.raw_steps], raw)
            + project("merged", [float(s) for s in cut.merge_steps], cut.merges)
            + project("extrapolated", betas, np.stack([line.at(b) for b in betas])))


_Outcome = tuple[CutAnalysis, CutAnalysis, TrainingRun, Corpus]


def _one_seed(params: Params, seed: int, progress: Progress) -> _Outcome:
    stages = MonotoneProgress(progress)
    stages(0.0, f"seed {seed}: sampling the HMM corpus")
    corpus = make_corpus(np.random.default_rng(seed))
    model, training = train(corpus, width=params.width, layers=params.layers, lr=params.learning_rate,
                            steps=params.steps, batch_size=params.batch_size, checkpoint_every=params.checkpoint_every,
                            optimizer=params.optimizer, seed=seed, schedule=params.schedule, progress=stages.stage(0.02, 0.9))
    stages(0.9, f"seed {seed}: merging, EMA, LAWA, the lag shift and the beta sweep")
    score = _Scorer(model, corpus)
    steps = training.checkpoint_steps
    cut = int(params.steps * params.falling_cut) // params.checkpoint_every
    falling = analyse_cut(training.checkpoints[:cut], steps[:cut], params.merge_window, params.betas, score,
                          corpus.floor, "falling")
    plateau = analyse_cut(training.checkpoints, steps, params.merge_window, params.betas, score, corpus.floor,
                          "plateau")
    stages(1.0, f"seed {seed}: done")
    return falling, plateau, training, corpus


_STANDING = (("Extra-Merge", "loss_extrapolated"), ("plain merge", "loss_merge"), ("EMA", "loss_ema"),
             ("LAWA", "loss_lawa"), ("last checkpoint", "loss_last"))


def run(params: Params, progress: Progress) -> Result:
    """Train each seed, analyse late in training (falling) and at the end (plateau), and judge the claims."""
    seeds = seed_values(params.seed, params.seeds)
    outcomes = run_seeds(seeds, lambda s, p: _one_seed(params, s, p), progress)
    summaries = [SeedSummary(seed=s, falling=o[0].summary, plateau=o[1].summary) for s, o in zip(seeds, outcomes,
                                                                                                  strict=True)]
    falling, _, training, corpus = outcomes[0]
    train_steps, train_loss = _binned(training.train_loss)
    standing = Standing(metric="test loss at the late-stage analysis point (nats/token)", lower_is_better=True,
                        method="Extra-Merge", seed_scores={
                            name: [getattr(s.falling, key) for s in summaries] for name, key in _STANDING},
                        floor=RESOLUTION)
    return Result(
        claims=evaluate_claims(CLAIMS, measure([(o[0], o[1]) for o in outcomes]), seeds), standing=standing,
        grids=[g.model_copy(update={"tuned": f"{g.tuned}, seed {s}"}) for s, o in zip(seeds, outcomes, strict=True)
               for g in o[0].grids],
        seeds_run=summaries, betas=falling.betas, beta_grid=list(params.betas), averaging_grid=list(AVERAGING_GRID),
        trajectory=_trajectory(falling, params.betas), checkpoint_steps=training.checkpoint_steps,
        val_loss=[round(v, 6) for v in training.val_loss], learning_rate=[round(f, 6) for f in training.learning_rate],
        train_steps=train_steps, train_loss=train_loss, floor=corpus.floor, unigram_loss=corpus.unigram,
        optimizer=params.optimizer, seconds_per_step=training.seconds_per_step,
        parameters=int(training.checkpoints.shape[1]),
    )
