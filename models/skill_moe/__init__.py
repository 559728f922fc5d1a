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
    """Named inputs with their measured CPU time (one thread, OMP_NUM_THREADS=1, shared 2-core machine)."""
    return {
        "Default: 400 queries, k = 3, learned tagger, 60 validation queries per skill, 2 seeds (measured 14-19 s CPU)": {},
        "Small validation set: 20 per skill, the tagger knows few paraphrases (~13 s)": {"validation_per_skill": 20},
        "Form-only tagger: skills unreadable from the form (~15 s)": {"skill_inference": "form"},
        "Large validation set: 200 per skill, the router catches up (~17 s)": {"validation_per_skill": 200},
        "k = 1: one expert per query (~15 s)": {"k": 1},
        "Reproduce the paper (5 seeds, 1,000 queries, measured 51-55 s CPU)": {"seeds": 5, "queries": 1000},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="skill_moe",
    nav_title="Skill-MoE",
    title="Skill-MoE: route each query to the experts of its inferred skills",
    paper=Paper(title='Symbolic Mixture-of-Experts: Adaptive Skill-based Routing for Heterogeneous Reasoning',
                authors='Justin Chih-Yao Chen, Sukwon Yun, Elias Stengel-Eskin, Tianlong Chen, Mohit Bansal',
                url='https://arxiv.org/abs/2503.05641', code_url='https://github.com/dinobby/Symbolic-MoE'),
    summary=(
        "The paper claims that routing each query to the experts of its inferred skills beats the best "
        "baseline (+8.15 points) at the runtime of multi-agent baselines. Sixteen small experts answer a suite "
        "whose skills are named only by paraphrased cue words (one surface form for all skills); a learned "
        "tagger infers them, and Skill-MoE is compared with a trained router (same features, same budget), "
        "task-level routing, the best single expert and a vote of all 16 on accuracy and measured load cost."
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
    input_summary=lambda p: (f"{p.queries} queries, k {p.k}, {p.skill_inference} tagger, "
                             f"{p.validation_per_skill} validation/skill, seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"queries": 20, "k": 2, "validation_per_skill": 10, "seeds": 1},
)
