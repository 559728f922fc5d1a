"""Scaling laws for low-precision training: multiplicative vs additive quantisation in sketched regression."""

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
    """Named inputs; times measured on one core of the shared machine."""
    return {
        "Default: the paper's noise models at level 0.5, matched, 3 seeds (~2 s)": {},
        "Reproduce the paper (5 seeds, M 4..128, N = 20000, ~3 s)": {"seeds": 5},
        "Lower noise, level 0.1: the swamping index moves out to M ~ 40 (~2 s)": {"noise_level": 0.1},
        "Rounding: 1-bit float vs matched int (9 bits), regime not reached (~2 s)": {"noise_level": 0.0},
        "Steeper spectrum a = 3 (~2 s)": {"spectrum_exponent": 3.0},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="precision_scaling",
    nav_title="Low-precision scaling",
    title="Scaling laws for low-precision training: multiplicative vs additive quantisation",
    paper=Paper(
        title="Scaling Laws for Precision in High-Dimensional Linear Regression",
        authors="Dechen Zhang, Xuan Tang, Yingyu Liang, Difan Zou",
        url="https://arxiv.org/abs/2602.19241",
    ),
    summary=(
        "Sketched linear regression trained by one-pass SGD on quantised features, multiplicative against "
        "additive noise at matched level: the effective model size fitted to the simulated risks over M, and "
        "the effective data size, seed by seed, beside a deterministic-equivalent theory."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("scaling laws", "quantisation", "linear regression", "SGD"),
    input_summary=lambda p: f"M {min(p.model_sizes)}..{max(p.model_sizes)}, N {p.n_samples}, "
    + (f"noise level {p.noise_level:g}" if p.noise_level else f"float {p.multiplicative_bits} bit(s) vs int "
       f"{p.additive_bits or 'matched'}") + f", a = {p.spectrum_exponent:g}, seeds {p.seed}..{p.seed + p.seeds - 1}",
    smoke_params={"seeds": 1, "model_sizes": [4, 8], "n_samples": 200, "dimension": 64},
)
