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
    """Named inputs: the default, the three-seed reproduction, merges reaching into the early descent, cosine, Muon."""
    return {
        "Warm-up-stable-decay, late-stage cut, 1 seed (default, ~20 s)": {},
        "Reproduce the paper (3 seeds, 3,200 steps, merges of 160 steps, ~2 min)": {
            "seeds": 3, "steps": 3200, "checkpoint_every": 10},
        "Merges of 160 steps reaching back into the early descent (~20 s)": {"merge_window": 32},
        "Cosine schedule, cut at half the steps (the previous default, ~20 s)": {
            "schedule": "cosine", "falling_cut": 0.5, "checkpoint_every": 10, "merge_window": 8},
        "Muon on the block matrices (~20 s)": {"optimizer": "muon"},
    }


ABOUT = r"""
1. **Corpus** (the paper trains on real text; §6 of our digest): a sparse hidden Markov model (32 hidden states,
   each with 4 successors; 32 tokens, each state emitting 4 of them) generates sequences of 17 tokens: 6,000 for
   training, 256 each for validation and test. The **loss floor** is exact: the Bayes-optimal predictor's
   cross-entropy on the test split (forward algorithm).
2. **Late-stage pre-training** (the paper's setting, "late-stage pre-training trajectories"): a causal
   transformer (2 pre-norm blocks of width 32, about 28,000 parameters) trained by AdamW (or Muon) with a 5%
   warm-up then **warm-up-stable-decay** (constant learning rate, linear decay over the last 20%); a checkpoint
   every *k* steps. The analysis point is the end of the stable phase (75% of the steps, learning rate at peak,
   loss still falling), where the river-valley picture puts a steady drift; a second analysis at the end of
   training (decay phase, where the digest warns extrapolation gains little) is reported, not judged.
3. **Merges** (the paper's "consecutive merged checkpoints"): merged checkpoint *j* is the mean of the *j*-th
   block of `merge_window` consecutive checkpoints.
4. **Rank one** (the paper's "Rank-1 Subspace"): over the last 7 merges, the share of their variance carried by
   the first principal component (the paper's measure; its summary gives over 94%), beside the same share for
   the raw checkpoints at the same steps and for a random walk with as many points (0.63: the share of no line
   at all). The share of the merged *steps* on their top direction is shown too. **Gate**: Extra-Merge is judged
   only where the merged share reaches 0.8; below it the page says "regime not reached".
5. **Extra-Merge** (the paper's method; its exact formula is not reachable): $\theta(\beta) = \bar\theta +
   \beta\,\bar s\,u$, with $u$ the top direction of the last merged steps (oriented forward) and $\bar s$ the mean
   merged step along it; $\beta$ from a grid that includes negative values, chosen on validation.
6. **Baselines, tuned alike** (the paper's "standard merging baselines"): the plain merge ($\beta = 0$), EMA of the
   checkpoints with decay $1 - 1/k$ and LAWA (the mean of the last $k$ checkpoints), $k \in \{1, 2, 4, ..., 128\}$
   ($k = 1$ is the last checkpoint). Every free choice is made on validation, every loss reported on test; the
   table says when a choice sits at the edge of its grid.
7. **Diagnostic** (from the outside review): a plain lag-compensating shift $\bar\theta + \gamma(\bar\theta_j -
   \bar\theta_{j-1})$ along the last merged step, $\gamma$ tuned on the same grid: does the principal direction
   add anything to "move the block mean to where the block ended"?
8. **Statistics**: every loss difference is paired token by token on the 4,096 test tokens (the units) and over
   seeds; a claim holds only when its 95% interval lies on its side.

**Paper vs here.** The paper studies GPT-2 and LLaMA models (124M to 2B parameters, and Pythia-12B) on real
text; here a 28k-parameter transformer trains on a generated corpus for about 15 s per seed.

**What we found** (held-out seeds 71-73, the "Reproduce" example; test loss in nats/token). Merging beats the
last checkpoint by 0.054 (interval -0.074 to -0.033), and merged checkpoints are more one-dimensional than raw
ones (top-1 variance share +0.11, 0.69-0.73 against 0.58-0.62). But **the paper's regime is not reached**: late
in training the merged share stays at 0.69-0.73, barely above a random walk's 0.63 and below 0.8, so
Extra-Merge is not judged there. Shares of 0.8 and more appear only when the merges reach back into the fast
early descent (example "Merges of 160 steps", seeds 71-73: share 0.81 on every seed), not in the late stage;
judged there, Extra-Merge minus the best baseline is -0.0003 nats (interval -0.0011 to +0.0005): a tie;
in scratch runs (seed 0), longer training (4,800 steps), one pass over fresh sequences as in pre-training, larger
batches and lower learning rates gave late-stage shares of 0.57-0.72. At the late-stage cut of "Reproduce", the
paired standing has tuned EMA and LAWA ahead of Extra-Merge on every seed, the validation-chosen beta is
negative (-0.25 to -0.5: a step *back*, i.e. a wider average), and the lag shift also prefers going back.

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
        "Train a small transformer language model, average consecutive checkpoints late in training, measure how "
        "close the averaged trajectory is to a line, and only where it is (top-1 variance share 0.8) step along "
        "it and compare the test loss with tuned EMA, LAWA, the plain merge and the last checkpoint."
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
