"""Extra-Merge: merged checkpoints lie on a line; extrapolate along it (Wang et al. 2026)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown

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


ABOUT = about_markdown(__file__)

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
