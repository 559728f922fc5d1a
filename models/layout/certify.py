"""Certifying conflicts: the MILP confirms, within a time budget, that no layout satisfies each minimal
conflict set the consistency check named."""

from __future__ import annotations

import time

from models.layout.milp import solve_milp
from models.layout.resolve import grounded
from models.layout.scene import Relation, Scene

__all__ = ["certify_conflicts"]


def certify_conflicts(scene: Scene, relations: list[Relation], conflicts: list[list[int]], budget_s: float = 15.0) -> list[bool | None]:
    """MILP confirmation of each conflict set, within a total time budget (None once it is spent)."""
    deadline = time.perf_counter() + budget_s
    out: list[bool | None] = []
    for conflict in conflicts:
        left = deadline - time.perf_counter()
        out.append(_certify(scene, relations, conflict, min(5.0, left)) if left > 0.2 else None)
    return out


def _certify(scene: Scene, relations: list[Relation], conflict: list[int], time_limit: float = 5.0) -> bool | None:
    """Whether the MILP confirms that no layout satisfies a conflict set (None: not decided in time).

    Only the objects the set names are kept (fewer objects is a relaxation); they stand on the floor or
    not as in the whole scene."""
    subset = [relations[k] for k in conflict]
    names = {n for r in subset for n in r.objects()}
    floor = dict(zip([o.name for o in scene.objects], grounded(scene, relations), strict=True))
    objects = [o for o in scene.objects if o.name in names]
    sub = Scene(room=scene.room, objects=objects, relations=[])
    outcome = solve_milp(sub, subset, time_limit=time_limit, floor=[floor[o.name] for o in objects], check=False)
    return None if outcome.status == "unknown" else outcome.status == "infeasible"
