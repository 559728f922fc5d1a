"""Selective MoE upcycling for continual learning: a CKA-guided bilevel search over (layer, expert) blocks (paper 1)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown
from models.moe_upcycling.figures import figures
from models.moe_upcycling.params import Params
from models.moe_upcycling.result import Result
from models.moe_upcycling.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: 5 tasks, 4 experts, 1 seed (~20 s)": {},
        "Reproduce the paper (3 held-out seeds 53-55, ~50 s)": {"seeds": 3, "seed": 53},
        "Weaker parameter penalty, lambda = 0.3 (~20 s)": {"param_penalty": 0.3},
        "Strong parameter penalty, lambda = 10: keeps no expert (~20 s)": {"param_penalty": 10.0},
        "No CKA penalty (~20 s)": {"cka_weight": 0.0},
        "Two experts per layer (~15 s)": {"experts": 2},
        "Longer training: 15 epochs per task (~50 s)": {"epochs_per_task": 15},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="moe_upcycling",
    nav_title="Selective upcycling",
    title="Selective MoE upcycling for continual learning",
    # Authors from the BibTeX in the official code's README (the poster page lists none we could read).
    paper=Paper(title="Efficient Bilevel Optimization for CKA-Guided MoE Upcycling",
                authors="Zhiyuan Yu, Enneng Yang, Hao Jiang, Guojie Zhu, Feihong He, Peng Wang, Li Shen",
                url="https://icml.cc/virtual/2026/poster/64571", code_url="https://github.com/fabfish/bilevel-moe-upcycle"),
    summary=(
        "Copying feed-forward blocks into experts protects old tasks but adds many parameters. A "
        "Gumbel-Softmax search penalised by parameter count, started where a CKA probe sees drift, picks which "
        "(layer, expert) blocks to copy, "
        "while a CKA penalty keeps old representations stable; compare it with naive fine-tuning, "
        "replay, LwF and full upcycling on a class-incremental digit stream, over seeds."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Continual learning",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("continual learning", "mixture of experts", "neural architecture search"),
    input_summary=lambda p: (f"{p.tasks} tasks, {p.epochs_per_task} epochs, E = {p.experts}, λ = {p.param_penalty:g}, "
                             f"seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"seeds": 1, "tasks": 2, "epochs_per_task": 1, "layers": 2, "width": 16, "experts": 2,
                  "buffer_size": 20},
)
