"""RC-FCL: retrospective calibration for federated continual learning under asynchronous concept drift (paper 3)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown
from models.rc_fcl.figures import figures
from models.rc_fcl.params import Params
from models.rc_fcl.result import Result
from models.rc_fcl.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: 10 clients, 30 rounds, 1 seed (~15 s)": {},
        "Reproduce the paper (3 held-out seeds 53-55, ~50 s)": {"seeds": 3, "seed": 53},
        "Partial drifts, magnitude 0.6 (~20 s)": {"drift_magnitude": 0.6},
        "No drift: only fresh batches and prior shifts (~20 s)": {"drift_magnitude": 0.0},
        "Stragglers: 60% participation (~15 s)": {"participation": 0.6},
        "Stronger server penalty, beta = 10 (~20 s)": {"drift_penalty": 10.0},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="rc_fcl",
    nav_title="RC-FCL drift",
    title="RC-FCL: federated continual learning under asynchronous concept drift",
    # Authors from an index of ICML 2026 continual-learning papers (the poster page lists none); no code found.
    paper=Paper(title="RC-FCL: Combating Asynchronous Concept Drift in Federated Continual Learning via "
                      "Retrospective Calibration",
                authors="Hang Su, Yijun Mo, Zhiyu Zhang, Yankai Jiang, Bo Liu, et al.", url="https://icml.cc/virtual/2026/poster/64573"),
    summary=(
        "Ten clients move through a shared concept stream at their own rounds and by their own amounts. Each "
        "compares its fresh batches with a generated reference of what it learned before; a flag starts a "
        "calibration window that weights its samples and lowers its weight at the server, and the old "
        "concept's generator is archived and replayed. Compare with FedAvg, FedProx, a loss-triggered drift-aware "
        "FedAvg and two replay baselines (real samples, generator without detection), over seeds."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Continual learning",
    about=ABOUT,
    examples=examples,
    order=2,
    tags=("continual learning", "federated learning", "concept drift"),
    input_summary=lambda p: (f"{p.clients} clients, {p.rounds} rounds, drift {p.drift_magnitude:g}, "
                             f"seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"seeds": 1, "clients": 3, "rounds": 10, "batch": 16, "local_epochs": 1},
)
