"""R^3L (Gu, Wang, Wang, ICML 2026): relative spatial relations to a feasible 3D room layout, with proved contradictions."""

from __future__ import annotations

from typing import Any

from models.common import MethodSpec, Paper
from models.common.llm import llm_config
from models.common.paths import about_markdown
from models.layout.examples import examples
from models.layout.figures import figures
from models.layout.llm import DEFAULT_MODEL
from models.layout.params import Params
from models.layout.result import Result
from models.layout.scene import CORNER_WALLS, RELATION_TYPES, WALLS
from models.layout.seeds import run

__all__ = ["SPEC"]

ABOUT = about_markdown(__file__)


def _input_summary(params: Params) -> str:
    if params.random is not None:
        return f"random scene, seed {params.random.seed}, {params.random.objects} objects"
    scene = params.scene
    extra = f" + {len(params.statements)} sentences" if params.statements else ""
    return (f"{len(scene.objects)} objects, {len(scene.relations)} relations{extra}, "
            f"room {scene.room.width:g} x {scene.room.depth:g} m")


def _page_resources() -> dict[str, Any]:
    """What the page may know: whether an LLM proposer is configured on this server (no secrets)."""
    return {"llm": {"configured": llm_config(DEFAULT_MODEL).configured},
            "vocabulary": {"relations": list(RELATION_TYPES), "walls": list(WALLS), "corners": list(CORNER_WALLS)}}


SPEC = MethodSpec(
    name="layout",
    nav_title="3D layout",
    title="3D room layout from spatial relations (R^3L)",
    paper=Paper(
        title="R^3L: Reasoning 3D Layouts from Relative Spatial Relations",
        authors="Zhifeng Gu, Yuqi Wang, Bing Wang",
        url="https://arxiv.org/abs/2605.06758",
        code_url="https://github.com/Neal2020GitHub/R3L",
    ),
    summary=(
        "Describe a room by relations such as 'the lamp is on top of nightstand a' and get a 3D layout in which "
        "no objects collide and every relation holds, checked exactly. Contradictions are proved and named as "
        "minimal conflicting sets before any optimisation; small scenes get a complete MILP solver."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    order=4,
    tags=("3D", "layout", "constraints", "MILP", "torch"),
    page_resources=_page_resources,
    input_summary=_input_summary,
    smoke_params={"random": {"seed": 1, "objects": 5}, "starts": 1, "stage2_iterations": 60, "repair_rounds": 1},
)
