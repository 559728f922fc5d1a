"""Diffusion resampling for particle filters (Andersson & Zhao, ICML 2026): a training-free, differentiable resampler."""

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
    """Named inputs with their measured time (user CPU, one core)."""
    return {
        "Defaults: 32 observations, 8 data sets, N = 32, 128, 512 (~20 s)": {},
        "Reproduce the paper: 128 observations, 3 seeds (~2 min)": {"seeds": 3, "observations": 128,
                                                                   "gradient_repeats": 128},
        "Unconverged ODE in the moment experiment: 8 Euler steps (~20 s)": {"ode_steps": 8},
        "Parameter estimation: 10 Adam steps through each filter (~40 s)": {"estimation_iterations": 10},
        "Differentiable only: soft, Gumbel, OT, diffusion (~15 s)": {"resamplers": ["soft", "gumbel", "ot", "diffusion"]},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="diffusion_resampling",
    nav_title="Diffusion resampling",
    title="Diffusion resampling: differentiable particle filters without training",
    paper=Paper(
        title="Diffusion differentiable resampling",
        authors="Jennifer R. Andersson, Zheng Zhao",
        url="https://arxiv.org/abs/2512.10401",
        code_url="https://github.com/zgbkdlm/diffres",
    ),
    summary=(
        "Resampling a weighted particle set by running a probability-flow ODE whose score is the exact "
        "score of the noised particle set: no training, and gradients flow through it. Compare it with "
        "multinomial, systematic, soft, Gumbel-softmax and optimal-transport resampling, each tuned on the "
        "reference's grid, on the paper's linear-Gaussian benchmark (log-likelihood landscape, filtering "
        "divergence, parameter error against the Kalman filter)."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Sampling",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("particle filters", "diffusion models", "differentiable programming"),
    smoke_params={"particles": [16, 64], "moment_repeats": 4, "ode_steps": 8, "filter_steps": 8, "filter_particles": 16,
                  "gradient_repeats": 8, "observations": 12, "data_sets": 8, "tuning_data_sets": 1, "grid_points": 5},
    input_summary=lambda p: (
        f"N = {', '.join(map(str, p.particles))}; {len(p.resamplers)} resamplers; {p.ode_steps} ODE steps"
    ),
)
