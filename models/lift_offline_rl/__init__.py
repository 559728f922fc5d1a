"""LIFT-style trajectory augmentation for offline RL in active positioning, with a compact TD3+BC."""

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
    """Named inputs: the default, the paper's reproduction over 3 seeds with ablations, other settings."""
    return {
        "4-D, partial observation, 10 logs, 3 seeds (default, ~25 s)": {},
        "Reproduce the paper (5 seeds, ~30 s)": {"seeds": 5},
        "Ablations: 6 learners, 3 seeds (~1 min)": {"seeds": 3, "ablations": True},
        "8-D, partial observation, 10 logs, 3 seeds (~25 s)": {"dimension": 8, "seeds": 3},
        "4-D, full observation, 50 logs (success saturates, ~15 s)": {"partial_observation": False,
                                                                      "trajectories": 50, "seeds": 1},
        "4-D, partial, success against 6 / 20 / 40 logs (~40 s)": {"trajectory_sweep": [6, 20, 40], "seeds": 1},
        "2-D, partial, 6 logs, 3 seeds (the paper's low-dimensional case, ~25 s)": {"dimension": 2,
                                                                                  "trajectories": 6},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="lift_offline_rl",
    nav_title="LIFT offline-RL augmentation",
    title="Trajectory augmentation for offline RL in active positioning",
    paper=Paper(title='Trajectory-Level Data Augmentation for Offline Reinforcement Learning',
                authors='Tobias Schmähling, Matthias Burkhardt, Tobias Windisch',
                url='https://arxiv.org/abs/2605.13401',
                code_url="https://github.com/HS-Kempten/lift"),
    summary=(
        "A few suboptimal logged trajectories of a positioning task, augmented as the paper does: shortcuts that sum "
        "logged actions between logged states under a value condition, and a learned augmentor that takes over the "
        "scripted logger during collection. TD3+BC with checkpoint selection learns from raw and augmented data."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Robust and faithful learning",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("offline RL", "data augmentation", "TD3+BC"),
    input_summary=lambda p: (f"{p.dimension}-D, {p.trajectories} logs{', partial' if p.partial_observation else ''}, "
                             f"{p.train_steps} steps{', ablations' if p.ablations else ''}, {p.seeds} seed{'s' if p.seeds > 1 else ''} from "
                             f"{p.seed}"),
    smoke_params={"dimension": 2, "trajectories": 4, "seeds": 1, "trajectory_sweep": [], "train_steps": 60, "evaluations": 2,
                  "eval_episodes": 20},
)
