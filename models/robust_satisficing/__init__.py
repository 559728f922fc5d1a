"""Iterative robust satisficing (group tilts, official code's form) against ERM, group DRO, tilted ERM and JTT on three shifted data sets."""

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
    """Named inputs: the default, the paper's reproduction over 3 seeds, the other data sets, a tau sweep."""
    return {
        "Waterbirds-like group shift, 32-unit network, 3 seeds (default, ~30 s)": {},
        "Reproduce the paper (5 seeds, Waterbirds-like, ~1 min)": {"seeds": 5},
        "Waterbirds-like, tau sweep 1 to 2 x the current loss (~20 s)": {"tau_sweep": [1.0, 1.2, 1.5, 2.0],
                                                                          "seeds": 1},
        "Linear spurious correlations, linear model, 3 seeds (~30 s)": {"dataset": "spurious", "hidden": 0,
                                                                         "learning_rate": 0.05, "seeds": 3},
        "Long-tailed digits, 32-unit network (~30 s)": {"dataset": "long_tail", "seeds": 1},
        "Diabetes regression, sex = higher kept at 25% (~15 s)": {"dataset": "diabetes", "hidden": 0,
                                                                  "learning_rate": 0.05, "seeds": 1},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="robust_satisficing",
    nav_title="Robust satisficing (IRS)",
    title="Iterative robust satisficing: minimise fragility to group shift at a target loss",
    paper=Paper(title='Iterative Robust Satisficing: Minimizing Performance Degradation Under Distribution Shift',
                authors='Enes Ağırman, Artun Saday, Cem Tekin',
                url='https://icml.cc/virtual/2026/poster/64578', code_url="https://github.com/Bilkent-CYBORG/IRS"),
    summary=(
        "Keep the loss at a target tau while minimising fragility, the worst rate (E_p loss - tau) / KL(p || p0) "
        "over shifts p of the group distribution: each step a 1-D search along the tilting path finds the worst "
        "tilt, and one backward pass descends the tilted group loss. Compared per group with ERM, group DRO, "
        "tilted ERM and JTT."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Robust and faithful learning",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("distribution shift", "robust optimisation", "worst-group accuracy"),
    input_summary=lambda p: (f"{p.dataset}, tau = max({p.tau_multiplier:g} x loss, 0.1), {p.epochs} epochs, "
                             f"{p.seeds} seed{'s' if p.seeds > 1 else ''} from {p.seed}"),
    smoke_params={"dataset": "waterbirds", "epochs": 30, "tau_sweep": [1.5], "train_size": 200, "seeds": 1},
)
