"""LMNet: frozen pre-trained language models as vertices, trainable dense seq2seq edges."""

from __future__ import annotations

from typing import Any

from models.common.contract import MethodSpec, Paper
from models.common.paths import about_markdown
from models.lmnet.figures import figures
from models.lmnet.params import Params
from models.lmnet.result import Result
from models.lmnet.run import run

__all__ = ["SPEC", "examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Named inputs; times are on one core of the shared machine at low load."""
    return {
        "Default: 50 and 200 labels, 1 seed (~12 s)": {},
        "No marks: text loses nothing (~13 s)": {"mark_probability": 0.0},
        "Reproduce the paper (3 seeds, 25, 100 and 400 labels, ~2 min)": {"labels": [25, 100, 400], "seeds": 3},
        "Fine-tuning converged at 400 labels (1500 steps, 3 seeds, ~2 min)": {"labels": [400], "steps": 1500, "seeds": 3},
        "Many labels: fine-tuning catches up (1000 labels, 1500 steps, ~70 s)": {"labels": [1000], "steps": 1500},
    }


ABOUT = about_markdown(__file__)

SPEC = MethodSpec(
    name="lmnet",
    nav_title="LMNet",
    title="LMNet: pre-trained models as nodes, dense trainable edges",
    paper=Paper(title='Language Model Networks: Supervision-Efficient Learning through Dense Communication',
                authors='Shiguang Wu, Yaqing Wang, Quanming Yao',
                url='https://arxiv.org/abs/2505.12741'),
    summary=(
        "The paper claims that frozen pre-trained models wired by small trainable dense edges adapt from few "
        "labels. Two tiny character transformers are wired by an edge and compared, over label counts and seeds, "
        "with a text pipeline, a fully fine-tuned node and parameter-matched LoRA."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Model composition",
    about=ABOUT,
    examples=examples,
    tags=("model composition", "language models", "transformers"),
    input_summary=lambda p: (f"labels {', '.join(map(str, p.labels))}, {p.steps} steps, marks {p.mark_probability}, "
                             f"seeds {p.seed}..{p.seed + p.seeds - 1}"),
    smoke_params={"labels": [10], "steps": 10, "seeds": 1},
)
