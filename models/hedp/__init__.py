"""HEDP: hybrid energy-distance prompts for domain-incremental learning (paper 10)."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown
from models.hedp.figures import figures
from models.hedp.params import Params
from models.hedp.result import Result
from models.hedp.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine."""
    return {
        "Default: 3 seeds, λ chosen on held-out images (~15 s)": {},
        "Reproduce the paper (5 held-out seeds 53-57, ~30 s)": {"seeds": 5, "seed": 53},
        "Strong regulariser, λ = 1 fixed (the review's probe, ~8 s)": {"tune_energy_weight": False, "energy_weight": 1.0},
        "No regulariser (~5 s)": {"tune_energy_weight": False, "energy_weight": 0.0},
        "One key per domain (~15 s)": {"keys": 1},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="hedp",
    nav_title="HEDP prompts",
    title="HEDP: hybrid energy-distance prompts for domain-incremental learning",
    paper=Paper(
        title="HEDP: A Hybrid Energy-Distance Prompt-based Framework for Domain Incremental Learning",
        authors="Yu Feng, Zhen Tian, Haoran Luo, Xie Yu, Diancheng Cheng, Haoyue Zheng, Shuai Lyu, Ping Zong, "
                "Lianyuan Li, Xin Ge, Yifan Zhu",
        url="https://arxiv.org/abs/2605.05776",
        code_url="https://github.com/dannis97500/HEDP",
    ),
    summary=(
        "One prompt per domain on a frozen, pre-trained extractor; at test time the prompts are weighted by "
        "their free energy and by the distance to each domain's nearest k-means key (two temperatures, mixed "
        "logits). Compare the hybrid with energy only, distance only and nearest-key (S-Prompts) selection on "
        "four seen digit domains and one unseen, over seeds."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Continual learning",
    about=ABOUT,
    examples=examples,
    order=3,
    tags=("continual learning", "prompt learning", "energy-based models"),
    input_summary=lambda p: f"{p.epochs} epochs, λ = {p.energy_weight:g}, {p.keys} keys, seeds {p.seed}..{p.seed + p.seeds - 1}",
    smoke_params={"seeds": 1, "epochs": 2, "pretrain_epochs": 2, "keys": 2},
)
