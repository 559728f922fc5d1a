"""R^3L (Gu, Wang, Wang, ICML 2026): relative spatial relations to a feasible 3D room layout, with proved contradictions."""

from __future__ import annotations

from typing import Any

from models.common import MethodSpec, Paper
from models.common.llm import llm_config
from models.layout.examples import examples
from models.layout.figures import figures
from models.layout.llm import DEFAULT_MODEL
from models.layout.params import Params
from models.layout.result import Result
from models.layout.scene import CORNER_WALLS, RELATION_TYPES, WALLS
from models.layout.seeds import run

__all__ = ["SPEC"]

ABOUT = """
1. **Read the relations** from the scene tables or JSON, from plain sentences (a deterministic parser, one
   relation a sentence), or from an LLM at `LLM_BASE_URL` that proposes sentences from a free description.
   The vocabulary: left of / right of / in front of / behind (in the reference's own frame), west/east/
   south/north of, facing an object or a wall, near (gap <= 1 m), far (gap >= 1.5 m), on top of, against a
   wall, in a corner, aligned with (same x or same y), around a centre object (near it and facing it), a
   walkway clearance in front of an object, and doors and windows whose floor zones stay free.
2. **Feasibility and consistency first.** Objects larger than the room, taller than the ceiling, or more
   floor area than the room make the scene *infeasible*. Relations become difference constraints on the
   centres and heights that **every** satisfying layout meets, with the exact checks' tolerances (a
   wall-pinned yaw may turn 10 degrees, a wall-facing one 30; egocentric relations loosen accordingly;
   floor objects stand at z = 0; far is bounded by the room; a wall run counts only objects that cannot
   tuck in behind each other). A negative cycle (Bellman-Ford) is therefore a proof: *contradiction*.
   Deletion shrinks each witness to a **minimal** conflicting set; an implicit hitting-set loop finds the
   **fewest relations to drop** ("revise").
3. **Invariant spatial decomposition.** Each object hangs off the reference of its on_top_of or egocentric
   relation; the root anchors a cluster and members live in the anchor's frame.
4. **Imagine** each cluster in its anchor's frame and place the clusters (walls first) at the best pose on a
   grid scored by the relation, overlap, wall and door residuals.
5. **Optimise** (torch, Adam): stage 1 on the relations, stage 2 adding rotated-box overlap, wall, support and
   door-zone penalties; members are optimised in anchor coordinates (global-to-local reparameterisation).
   **Check exactly** and **repair** the clusters that still violate something. Up to `starts` starts
   (start s uses seed + s, with shuffled cluster order and tie-breaks) until one is clean.
6. **Complete solver for small scenes** (at most 25 objects): a MILP on HiGHS over positions with yaws from
   a finite set (wall-aligned, diagonals where an object must face another, pinned yaws and tolerance ends),
   big-M disjunctions for non-overlap (separating axes) and every relation. It either returns a layout that
   passes the exact checks, or proves that no layout with those yaws exists, then shrinks the relations to
   a minimal infeasible set. Status: **ok** only when every check passes; **unsolved** for a best-effort
   layout (violations listed and drawn in red).

**Scaled down here.** The paper's pipeline lets a multimodal LLM infer the relations from images and text
and optimises asset meshes; here objects are boxes, relations come from tables, sentences or an optional
LLM, and the exact checks, the consistency proof and the MILP are this demo's additions. Relation names
follow the official code's constraint vocabulary (`solvers/r3l/dsl/parse_constraints.py`: against_wall,
corner, left_of/right_of/in_front_of/behind_of, around, facing, align); there `align` means equal rotation,
here the same line along an axis.

Zhifeng Gu, Yuqi Wang, Bing Wang. R^3L: Reasoning 3D Layouts from Relative Spatial Relations. ICML 2026.
"""


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
