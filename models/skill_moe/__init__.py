"""Skill-MoE: symbolic skill-based instance-level expert selection with batched inference."""

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
    """Named inputs with their expected time on the shared machine (2 cores, one thread)."""
    return {
        "Default: 400 queries, k = 3, exact skills, 2 seeds (~20 s)": {},
        "Imperfect tagger, 80% accurate (~20 s)": {"skill_inference": "tagger", "tagger_accuracy": 0.8},
        "k = 1: one expert per query (~15 s)": {"k": 1},
        "Reproduce the paper (3 seeds, 1,000 queries, ~30 s)": {"seeds": 3, "queries": 1000},
        "Sentence-embedding skill inference (~1-2 min: loads all-MiniLM-L6-v2)": {
            "skill_inference": "embedding", "queries": 200, "seeds": 1},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="skill_moe",
    nav_title="Skill-MoE",
    title="Skill-MoE: route each query to the experts of its skill",
    paper=Paper(title='Symbolic Mixture-of-Experts: Adaptive Skill-based Routing for Heterogeneous Reasoning',
                authors='Justin Chih-Yao Chen, Sukwon Yun, Elias Stengel-Eskin, Tianlong Chen, Mohit Bansal',
                url='https://arxiv.org/abs/2503.05641', code_url='https://github.com/dinobby/Symbolic-MoE'),
    summary=(
        "The paper claims that routing each query to the experts of its inferred skill beats the best "
        "baseline (+8.15 points) at the runtime of multi-agent baselines. Sixteen small experts answer a "
        "skill-mixed suite; Skill-MoE is compared with a trained router, task-level routing, the best single "
        "expert and a vote of all 16 on accuracy and measured load cost, and its gain is traced against the "
        "skill tagger's accuracy."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Model composition",
    about=ABOUT,
    examples=examples,
    order=1,
    tags=("mixture of experts", "routing", "batched inference", "torch"),
    input_summary=lambda p: (f"{p.queries} queries, k {p.k}, {p.skill_inference}"
                             f"{f' {p.tagger_accuracy:.0%}' if p.skill_inference == 'tagger' else ''}, "
                             f"seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"queries": 20, "k": 2, "validation_per_skill": 10, "seeds": 1},
)
