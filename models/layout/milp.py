"""A complete solver for small scenes: a mixed-integer linear program on HiGHS (scipy.optimize.milp).

Positions are continuous; each object's yaw is one of a finite set (the four wall-aligned yaws, the
diagonals for objects that must face another one, pinned or stated yaws and the ends of a wall-facing
object's tolerance), chosen by binaries. Non-overlap is the separating-axis theorem as a big-M
disjunction over the edge normals of the two boxes' yaw options (complete for rectangles), or a
vertical separation; every relation is linear once the yaws are chosen, except near/far, which use
octagons around the Euclidean distance between the boxes' axis-aligned bounds.

Two models: the *relaxed* one (octagon outside the disc for near, inside for far; far is dropped when
a yaw is not wall-aligned) contains every layout with yaws in the set, so its infeasibility proves that
no such layout exists; the *strict* one (octagons the other way) only contains layouts that satisfy the
exact checks, which are then run on the layout it returns. Footprints must be disjoint (the exact check
tolerates 1e-4 m^2 of overlap) and every tolerance is tightened by 0.1 mm so round-off stays inside.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from models.layout.milp_relations import RelationRows
from models.layout.relations import FACING_DEG, WALL_DEG, rectangle
from models.layout.resolve import facing_wall_yaw, grounded
from models.layout.scene import WALL_YAW, Relation, Scene

__all__ = ["MilpOutcome", "solve_milp", "yaw_options"]

Status = Literal["feasible", "infeasible", "unknown"]


@dataclass
class MilpOutcome:
    """`feasible` (with a layout that passed the exact checks), `infeasible` (no layout with yaws in
    `yaws` exists) or `unknown` (time limit, or the strict layout failed a check)."""

    status: Status
    seconds: float
    poses: np.ndarray | None = None
    yaws: list[list[float]] = field(default_factory=list)
    binaries: int = 0
    detail: str = ""


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def yaw_options(scene: Scene, relations: list[Relation], tilts: bool = True) -> list[list[float]]:
    """Yaw candidates (degrees) per object, already filtered by the yaw-fixing relations."""
    index = scene.index()
    wall_aligned = [0.0, 90.0, 180.0, -90.0]
    turned = {index[r.a] for r in relations if r.type in ("facing", "around") and r.b is not None}
    options: list[list[float]] = []
    for i, obj in enumerate(scene.objects):
        if obj.yaw is not None:
            options.append([obj.yaw])
            continue
        cands = list(wall_aligned) + ([45.0, 135.0, -135.0, -45.0] if i in turned else [])
        for r in relations:
            if index[r.a] == i and r.type == "facing" and r.wall is not None and tilts:
                centre = facing_wall_yaw(r.wall)
                cands += [centre - FACING_DEG + 0.5, centre + FACING_DEG - 0.5]
        options.append(cands)
    for r in relations:
        if r.wall is None or r.type not in ("against_wall", "facing"):
            continue
        i = index[r.a]
        target = WALL_YAW[r.wall] if r.type == "against_wall" else facing_wall_yaw(r.wall)
        tol = WALL_DEG if r.type == "against_wall" else FACING_DEG
        options[i] = [y for y in options[i] if _angle_diff(y, target) <= tol - 0.01]
    return [sorted({round((y + 180.0) % 360.0 - 180.0, 6) for y in opts}) for opts in options]



class _Builder(RelationRows):
    """Builds the relaxed or strict model of one scene."""

    def solve(self, time_limit: float) -> tuple[Status, np.ndarray | None, str]:
        m = self.m
        rows, cols, vals, lo, hi = [], [], [], [], []
        for r, (coef, row_lo, row_hi) in enumerate(m.rows):
            for k, v in coef.items():
                rows.append(r)
                cols.append(k)
                vals.append(v)
            lo.append(row_lo)
            hi.append(row_hi)
        n = len(m.lb)
        matrix = coo_matrix((vals, (rows, cols)), shape=(len(m.rows), n)).tocsr()
        res = milp(np.zeros(n), integrality=np.array(m.integer), bounds=Bounds(np.array(m.lb), np.array(m.ub)),
                   constraints=LinearConstraint(matrix, np.array(lo), np.array(hi)),
                   options={"time_limit": max(time_limit, 0.1), "disp": False, "presolve": True})
        if res.status == 2:
            return "infeasible", None, "HiGHS: infeasible"
        if res.x is None:
            return "unknown", None, f"HiGHS: {res.message}"
        poses = np.zeros((len(self.bodies), 4))
        for i, body in enumerate(self.bodies):
            poses[i, 0] = sum(v * res.x[k] for k, v in body.x.items())
            poses[i, 1] = sum(v * res.x[k] for k, v in body.y.items())
            poses[i, 2] = res.x[self.z[i]]
            poses[i, 3] = body.yaws[int(np.argmax([res.x[t] for t in body.t]))]
        return "feasible", poses, "HiGHS: feasible"


def _build(scene: Scene, relations: list[Relation], yaws: list[list[float]], strict: bool, floor: list[bool]) -> _Builder:
    builder = _Builder(scene, relations, yaws, strict, floor)
    builder.room_bounds()
    builder.non_overlap(floor)
    builder.openings()
    for rel in relations:
        builder.relation(rel)
    return builder


def solve_milp(scene: Scene, relations: list[Relation], time_limit: float = 20.0,
               floor: list[bool] | None = None, check: bool = True) -> MilpOutcome:
    """Decide whether `relations` have a layout with yaws from `yaw_options` (see the module docstring).

    `floor` says which objects stand at z = 0 (default: those that are not on top of anything in
    `relations`). With `check`, a feasible answer is confirmed by the exact checks of the full scene.
    """
    from models.layout.gate import exact_violations

    started = time.perf_counter()
    on_floor = floor if floor is not None else grounded(scene, relations)
    yaws = yaw_options(scene, relations)
    if any(not opts for opts in yaws):
        culprit = scene.objects[next(i for i, o in enumerate(yaws) if not o)].name
        return MilpOutcome("infeasible", time.perf_counter() - started, yaws=yaws,
                           detail=f"no yaw of {culprit} meets its wall relations")
    detail = ""
    binaries = 0
    for strict in (False, True):
        builder = _build(scene, relations, yaws, strict, on_floor)
        binaries = builder.binaries
        left = time_limit - (time.perf_counter() - started)
        if left <= 0.05:
            return MilpOutcome("unknown", time.perf_counter() - started, yaws=yaws, binaries=binaries, detail="time limit")
        status, poses, detail = builder.solve(left)
        if status == "infeasible" and not strict:
            return MilpOutcome("infeasible", time.perf_counter() - started, yaws=yaws, binaries=binaries, detail=detail)
        if status == "feasible" and poses is not None:
            bad = exact_violations(scene, relations, poses) if check else []
            if not bad:
                return MilpOutcome("feasible", time.perf_counter() - started, poses, yaws, binaries, detail)
            detail = f"the {'strict' if strict else 'relaxed'} layout fails: {', '.join(bad[:3])}"
        if status == "unknown":
            break
    return MilpOutcome("unknown", time.perf_counter() - started, yaws=yaws, binaries=binaries, detail=detail)


def zone_rectangle(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The corners of an opening's zone (re-exported for the figures)."""
    return rectangle(x0, y0, x1, y1)
