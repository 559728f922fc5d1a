"""Minimal infeasible sets of relations with the MILP as the oracle (deletion-based extraction)."""

from __future__ import annotations

import time

from models.layout.milp import solve_milp
from models.layout.scene import Relation, Scene

__all__ = ["milp_conflict", "milp_infeasible"]


def milp_infeasible(scene: Scene, relations: list[Relation], subset: list[int], floor: list[bool],
                    time_limit: float = 10.0) -> bool:
    """Whether the MILP proves that the relations in `subset` have no layout (yaws from its finite set).

    `floor` is fixed by the whole scene (an object lifted by some on_top_of stays lifted), so a subset is
    judged with the same objects on the floor as the scene."""
    outcome = solve_milp(scene, [relations[k] for k in subset], time_limit=time_limit, floor=floor, check=False)
    return outcome.status == "infeasible"


def milp_conflict(scene: Scene, relations: list[Relation], floor: list[bool], budget_s: float = 20.0) -> list[int]:
    """Shrink the relations to a minimal set the MILP still proves infeasible; [] when the budget runs
    out first (a half-shrunk set would not be minimal) or the whole set is not proved infeasible."""
    deadline = time.perf_counter() + budget_s
    core = list(range(len(relations)))
    if not milp_infeasible(scene, relations, core, floor, budget_s):
        return []
    i = 0
    while i < len(core):
        left = deadline - time.perf_counter()
        if left <= 0:
            return []
        trial = core[:i] + core[i + 1:]
        if milp_infeasible(scene, relations, trial, floor, min(left, 10.0)):
            core = trial
        else:
            i += 1
    return core
