"""RLVR with noisy verifiers: the Youden's J phase transition of GRPO on a bandit over reasoning modes."""

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
    """Named inputs: the default sweep, the paper's check over 3 seeds, a noisier verifier, small groups."""
    return {
        "Sweep of J at FPR = 0.3, G = 64 (default, 3 seeds, ~7 s)": {},
        "Reproduce the paper (3 seeds, 64 GRPO runs per J, ~8 s)": {"seeds": 3, "bandit_seeds": 64},
        "Two correct modes nearly tied: shares 0.55 / 0.45, m = 2 (~2 s)": {
            "modes_per_class": 2, "favoured_share": 0.55, "seeds": 1,
        },
        "Almost-random verifier: J in [-0.1, 0.1], FPR = 0.45 (~3 s)": {
            "j_values": [-0.1, -0.05, 0.0, 0.05, 0.1], "fpr": 0.45, "steps": 2400, "phase_grid": 7, "seeds": 1,
        },
        "Small groups and big steps: G = 8, learning rate 1, off the mean-field limit (~1 s)": {
            "group_size": 8, "learning_rate": 1.0, "steps": 400, "seeds": 1,
        },
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="rlvr_noise",
    nav_title="Noisy-verifier RLVR",
    title="RLVR with noisy verifiers: the Youden's J phase transition",
    paper=Paper(
        title="Rate or Fate? RLVεR: Reinforcement Learning with Verifiable Noisy Rewards",
        authors="Ali Rad, Khashayar Filom, Darioush Keivan, Peyman Mohajerin Esfahani, Ehsan Kamalinejad",
        url="https://arxiv.org/abs/2601.04411",
    ),
    summary=(
        "GRPO trained against a verifier with false positives and false negatives, as a bandit over "
        "reasoning modes: the mass on incorrect modes shrinks when Youden's J = TPR - FPR is positive, "
        "drifts at J = 0 and takes over when J < 0. Compare the mean-field flow with finite-sample GRPO."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Learning dynamics",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("reinforcement learning", "RLVR", "GRPO", "phase transition"),
    input_summary=lambda p: f"J in [{min(p.j_values):+.2f}, {max(p.j_values):+.2f}], FPR {p.fpr:g}, "
    f"{p.steps} steps, G = {p.group_size}, {p.bandit_seeds} runs per J, {p.seeds} seeds",
    smoke_params={"steps": 40, "bandit_seeds": 4, "phase_grid": 5, "j_values": [-0.3, 0.0, 0.2, 0.4], "seeds": 1},
)
