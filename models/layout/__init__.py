"""R^3L: from relative spatial relations to a feasible 3D room layout, with contradictions named."""

from __future__ import annotations

from models.common import MethodSpec, Paper
from models.layout.examples import examples
from models.layout.figures import figures
from models.layout.params import Params
from models.layout.result import Result
from models.layout.run import run

__all__ = ["SPEC"]

ABOUT = """
1. **Read the relations** from the scene JSON, from plain sentences (a deterministic parser, one relation a
   sentence), or from an LLM at `LLM_BASE_URL` that proposes sentences from a free description.
2. **Consistency first.** Objects pinned by `against_wall` or by facing a wall get a fixed yaw, so their
   egocentric relations (left of, in front of, ...) resolve into room-frame orders. The orders, room bounds,
   support heights and wall contacts become difference constraints; a negative cycle (Bellman-Ford) is a
   contradiction. Deletion-based extraction shrinks each witness to a **minimal** conflicting set; an
   implicit hitting-set loop finds the **fewest relations to drop** ("revise"). Objects larger than the room or
   taller than the ceiling, or more floor area than the room has, make the scene **infeasible**.
3. **Invariant spatial decomposition.** Each object hangs off the reference of its on_top_of or egocentric
   relation; the root is the anchor of a cluster, members live in the anchor's frame.
4. **Imagine.** Clusters are laid out in their anchors' frames, then placed in the room (walls first) at the
   best pose on a grid scored by the relation, overlap and wall residuals.
5. **Optimise** (torch): stage 1 on the relations alone, stage 2 with rotated-box overlap, wall and support
   penalties ramped up; members are optimised in anchor coordinates (global-to-local reparameterisation).
6. **Check exactly** with the geometric definitions and **repair**: re-imagine the clusters that still
   collide or violate a relation, refine, keep the best layout.
"""

SPEC = MethodSpec(
    name="layout",
    nav_title="3D layout",
    title="3D room layout from spatial relations (R^3L)",
    paper=Paper(
        title="R^3L: Relative spatial relations to feasible 3D layouts",
        authors="R^3L authors",
        url="https://arxiv.org/abs/2605.06758",
        code_url="https://github.com/Neal2020GitHub/R3L",
    ),
    summary=(
        "Describe a room by relations such as 'the lamp is on top of nightstand a' and get a 3D layout in which "
        "no objects collide and every relation holds, checked exactly. Contradictory relations are named as "
        "minimal conflicting sets before any optimisation, with the fewest relations to drop."
    ),
    params_model=Params,
    result_model=Result,
    run=run,
    figures=figures,
    section="Core demos",
    about=ABOUT,
    examples=examples,
    order=4,
    tags=("3D", "layout", "constraints", "torch"),
)
