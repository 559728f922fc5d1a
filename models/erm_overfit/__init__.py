"""All ERMs can fail (Burla & Livni 2026): Feldman's function on a linear-dimension code with our derived noise
term, the unique ERM in closed form (checked by a convex solver), exact population losses, one-pass SGD."""

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
    """Named inputs: the default, the paper-scale reproduction, a larger m, a threshold near the unseen codewords."""
    return {
        "m = 6, d = 36, 3 seeds x 60 training sets (default, ~3 s)": {},
        "Reproduce the paper (m = 6, d = 36, 5 seeds x 150 training sets, ~10 s)": {"seeds": 5, "instances": 150},
        "Larger m = 8, d = 48: more repeated coordinates (~20 s)": {"samples": 8, "instances": 40},
        "Threshold close to the unseen codewords (~1 s)": {"threshold_margin": 0.75},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="erm_overfit",
    nav_title="All ERMs can fail",
    title="All ERMs can fail: Feldman's function on a code in dimension 6m",
    paper=Paper(
        title="All ERMs Can Fail in Stochastic Convex Optimization: Lower Bounds in Linear Dimension",
        authors="Tal Burla, Roi Livni",
        url="https://arxiv.org/abs/2602.08350",
    ),
    summary=(
        "A strongly convex loss on a code in dimension 6m whose unique empirical minimiser provably fits the data "
        "and overfits, judged as a rate over tens of training sets per seed, beside one-pass SGD, which "
        "generalises on the same data."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=4,
    tags=("learning theory", "stochastic convex optimisation", "generalisation"),
    input_summary=lambda p: f"m = {p.samples}, d = {6 * p.samples}, {p.instances} sets, "
    f"{p.seeds} seed{'s' if p.seeds > 1 else ''} from {p.seed}",
    smoke_params={"samples": 4, "seeds": 1, "instances": 10},
)
