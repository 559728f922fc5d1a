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
    """Named inputs: loss still falling (default), a plateaued run, Muon, a wider merge window."""
    return {
        "Loss still falling: Adam, 1200 steps (default, ~5 s)": {},
        "Plateau at a high learning rate: lr 0.03, 3000 steps (~15 s)": {
            "learning_rate": 0.03, "steps": 3000, "checkpoint_every": 40,
        },
        "Muon on the weight matrices (~15 s)": {"optimizer": "muon"},
        "Wider merge window: 16 checkpoints per merge (~10 s)": {"steps": 2400, "merge_window": 16},
    }


ABOUT = r"""
1. **Corpus**: an order-3 Markov chain over 8 tokens (each of the 512 contexts has its own
   Dirichlet(0.2) next-token distribution) generates separate train (120k tokens), validation and test
   (16k tokens each) sequences. The chain's entropy rate is the floor of the loss.
2. **Training**: an MLP (embeddings of the three context tokens, one hidden ReLU layer) trained on
   mini-batches with Adam (or Muon on the weight matrices, at 10x the learning rate, Adam on the rest),
   a short linear warm-up and a constant learning rate; every *k* steps the parameter vector is saved.
3. **Merging**: merged checkpoint *k* is the mean of the *k*-th block of `merge_window` consecutive
   checkpoints (an EMA is reported beside it).
4. **Rank one**: over the last few merges, the consecutive differences are stacked and the share of
   their squared norm carried by the top singular direction is computed, for the merges and for the raw
   checkpoints at the same steps (1 = a straight line).
5. **Extra-Merge**: $\theta(\beta) = \bar\theta + \beta\,\bar s\,u$, with $u$ the top direction of the last
   merged steps (oriented forward) and $\bar s$ the mean merged step along it; $\beta = 0$ is the plain merge.
   $\beta$ is chosen on the validation split; all reported losses are on the test split.
6. The run counts as **still falling** when the last merge's validation loss is 0.2% below the previous
   one's; on a plateau the paper's claim is that extrapolation does not help.

**Paper vs here.** The paper studies late-stage pre-training of GPT-2 and LLaMA models (124M to 2B
parameters, and Pythia-12B) with real checkpoints. Here a model of a few thousand parameters trains on a
synthetic chain in seconds; the geometry (noisy raw steps, straighter merged steps) is the same idea, the
scale is not. The extrapolation gain at this scale is small and can vanish; the page shows the numbers.
Muon costs one Newton-Schulz orthogonalisation (5 iterations) per weight matrix per step: its seconds
per step are in the metrics table.

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
        "Train a small next-token model, average consecutive checkpoints, and check that the averaged "
        "trajectory is close to a straight line while the raw one zig-zags; then step further along that "
        "line and compare the test loss with the plain merge and the last checkpoint."
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
    input_summary=lambda p: f"{p.optimizer}, lr {p.learning_rate:g}, {p.steps} steps, ckpt every {p.checkpoint_every}, "
    f"window {p.merge_window}, seed {p.seed}",
)
