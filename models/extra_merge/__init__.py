"""Extra-Merge: merged checkpoints lie on a line; extrapolate along it (Wang et al. 2026)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper

from .figures import figures
from .params import Params
from .result import Result
from .run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs: the default, the three-seed reproduction, warm-up-stable-decay, Muon, a wider merge window."""
    return {
        "Cosine schedule, 1 seed (default, ~20 s)": {},
        "Reproduce the paper (3 seeds, 3,200 steps, ~80 s)": {"seeds": 3, "steps": 3200},
        "Warm-up-stable-decay at lr 0.03 (~15 s)": {"schedule": "wsd", "learning_rate": 0.03},
        "Muon on the block matrices (~20 s)": {"optimizer": "muon"},
        "Wider merges: 16 checkpoints of 5 steps (~15 s)": {"merge_window": 16, "checkpoint_every": 5},
    }


ABOUT = r"""
1. **Corpus**: a sparse hidden Markov model (32 hidden states, each with 4 successors; 32 tokens, each state
   emitting 4 of them) generates sequences of 17 tokens: 6,000 for training, 256 each for validation and test.
   The next token depends on the whole prefix through the hidden state. The **loss floor** is exact: the
   Bayes-optimal predictor's cross-entropy on the test split (forward algorithm).
2. **Model and training**: a causal transformer (2 pre-norm blocks of width 32, 2 heads, learned positions,
   about 28,000 parameters) trained by AdamW (or Muon on the block matrices) with a 5% linear warm-up then cosine
   decay to 0 (or warm-up-stable-decay); every *k* steps the parameters are saved.
3. **Two analysis points**: mid-training (by default at half the steps, where the loss still falls fast) and the
   end of training (the learning rate has decayed and the loss is flat). Each uses only the checkpoints saved
   up to that step.
4. **Merges**: merged checkpoint *j* is the mean of the *j*-th block of `merge_window` consecutive checkpoints.
   **Rank one**: over the last 6 merges, the share of the squared norm of the merged steps carried by their top
   singular direction, beside the same share for the raw checkpoints at the same steps.
5. **Extra-Merge**: $\theta(\beta) = \bar\theta + \beta\,\bar s\,u$, with $u$ the top direction of the last merged
   steps (oriented forward) and $\bar s$ the mean merged step along it.
6. **Baselines, tuned alike**: the plain merge ($\beta = 0$), EMA of the checkpoints with decay $1 - 1/k$ and LAWA
   (the mean of the last $k$ checkpoints), $k \in \{2, 4, 8, 16, 32\}$. Every free choice ($\beta$, EMA's and
   LAWA's $k$) is made on validation; every reported loss is on test.

**Paper vs here.** The paper studies late-stage pre-training of GPT-2 and LLaMA models (124M to 2B parameters,
and Pythia-12B) on real text. Here a 28k-parameter transformer trains on a generated corpus for about 15 s per
seed; the corpus has real structure (the loss stays 0.2 nats or more above its floor) but the scale is not the
paper's. The page shows whatever the numbers say, including where extrapolation does not help.

**What we found** (test loss in nats/token; Extra-Merge minus the best of merge, EMA and LAWA, mean ± sd over
seeds). *Cosine, 3,200 steps, 3 seeds* ("Reproduce the paper"): +0.0055 ± 0.0017 (worse on every seed); the
merging baselines beat the last checkpoint by 0.033; the merged steps are *not* more one-dimensional than the
raw ones at the half-way cut (top-1 share 0.027 lower). *Warm-up-stable-decay at lr 0.03, 3 seeds*: +0.0078 ±
0.0044, merging beats the last checkpoint by 0.069, and the merged steps are more one-dimensional (top-1 share
+0.048 on every seed). *Muon, 2 seeds*: +0.006. So two of the paper's observations show here (merging beats
the last checkpoint; under a constant learning rate the merged trajectory is closer to a line), but
extrapolating along that line does not beat a tuned EMA or LAWA at this scale: the validation-chosen beta
improves on the plain merge by at most 0.002, while EMA is the best baseline on every seed. The verdict says so.

*Citation*: Extra-Merge: Tracing the Rank-1 Subspace of Model Merging in Language Model Pre-Training.
ICML 2026 (arXiv:2605.26484).
"""

SPEC = MethodSpec(
    name="extra_merge",
    nav_title="Extra-Merge",
    title="Extra-Merge: extrapolate along the line of merged checkpoints",
    paper=Paper(
        title="Extra-Merge: Tracing the Rank-1 Subspace of Model Merging in Language Model Pre-Training",
        authors="Bohan Wang, Chenxi Jia, Hongtao Zhang, Wei Chen, Wenjie Zhou, Xueqi Cheng",
        url="https://arxiv.org/abs/2605.26484",
    ),
    summary=(
        "Train a small transformer language model, average consecutive checkpoints, check that the averaged "
        "trajectory is closer to a line than the raw one, then step further along that line and compare the test "
        "loss with the plain merge, EMA, LAWA and the last checkpoint, mid-training and at the end."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=2,
    tags=("model merging", "language models", "optimisation", "torch"),
    input_summary=lambda p: f"{p.optimizer}, {p.schedule}, lr {p.learning_rate:g}, {p.steps} steps, window "
    f"{p.merge_window}, {p.seeds} seed{'s' if p.seeds > 1 else ''} from {p.seed}",
    smoke_params={"steps": 240, "checkpoint_every": 5, "merge_window": 4, "width": 16, "layers": 1},
)
