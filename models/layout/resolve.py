"""Yaw pins and the room-frame axis constraints that relations imply once egocentric ones are resolved."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.layout.relations import FACING_DEG, NEAR_GAP, SLACK, WALL_DEG
from models.layout.scene import COMPASS, EGOCENTRIC, WALL_YAW, Relation, Scene

__all__ = ["AxisEdge", "YawPin", "axis_constraints", "facing_wall_yaw", "grounded", "yaw_pins"]

TOL = 0.01  # out-of-room tolerance of the contract


def facing_wall_yaw(wall: str) -> float:
    """Yaw of an object that faces a wall: its forward points at the wall (outward normal)."""
    opposite = {"south": "north", "north": "south", "west": "east", "east": "west"}
    return WALL_YAW[opposite[wall]]


@dataclass(frozen=True)
class YawPin:
    """An object's yaw fixed by the scene (relation None) or by an against_wall / facing-a-wall relation."""

    yaw: float
    relation: int | None
    tolerance: float


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def yaw_pins(
    scene: Scene, relations: list[Relation], subset: list[int]
) -> tuple[dict[int, YawPin], list[tuple[int | None, int]]]:
    """Return each pinned object's first pin and the pairs of pins that cannot both hold."""
    index = scene.index()
    pins: dict[int, YawPin] = {}
    for i, obj in enumerate(scene.objects):
        if obj.yaw is not None:
            pins[i] = YawPin(obj.yaw, None, 0.0)
    clashes: list[tuple[int | None, int]] = []
    for k in subset:
        rel = relations[k]
        if rel.wall is None or rel.type not in ("against_wall", "facing"):
            continue
        yaw = WALL_YAW[rel.wall] if rel.type == "against_wall" else facing_wall_yaw(rel.wall)
        tol = WALL_DEG if rel.type == "against_wall" else FACING_DEG
        target = index[rel.a]
        if target in pins:
            if _angle_diff(pins[target].yaw, yaw) > pins[target].tolerance + tol + 1e-9:
                clashes.append((pins[target].relation, k))
        else:
            pins[target] = YawPin(yaw, k, tol)
    return pins, clashes


def grounded(scene: Scene, relations: list[Relation]) -> list[bool]:
    """Return whether each object stands on the floor (is not the subject of any on_top_of)."""
    index = scene.index()
    on_floor = [True] * len(scene.objects)
    for rel in relations:
        if rel.type == "on_top_of":
            on_floor[index[rel.a]] = False
    return on_floor


@dataclass(frozen=True)
class AxisEdge:
    """Difference constraint `v - u <= weight` on one axis (0 = x, 1 = y, 2 = z); node -1 is the origin."""

    axis: int
    u: int
    v: int
    weight: float
    reasons: frozenset[int]


# Direction of an object's right (r) and forward (f) axes at a yaw that is a multiple of 90 degrees,
# as (axis, sign): yaw 0 -> r = +x, f = +y; 90 -> r = +y, f = -x; 180 -> r = -x, f = -y; -90 -> r = -y, f = +x.
_QUARTER_AXES = {0: ((0, 1), (1, 1)), 1: ((1, 1), (0, -1)), 2: ((0, -1), (1, -1)), 3: ((1, -1), (0, 1))}


def _quarter(yaw: float) -> int | None:
    q = yaw / 90.0
    return int(round(q)) % 4 if abs(q - round(q)) < 1e-6 else None


def axis_constraints(scene: Scene, relations: list[Relation], subset: list[int]) -> list[AxisEdge]:
    """Return the difference constraints on object centres (x, y) and base heights (z) implied by
    the room and the relations in `subset`, with egocentric relations resolved in the room frame
    wherever the reference's yaw is pinned (R^3L's consistent spatial imagination, made explicit)."""
    room = scene.room
    index = scene.index()
    pins, _ = yaw_pins(scene, relations, subset)
    sizes = [(o.width, o.depth, o.height) for o in scene.objects]

    def half(i: int, axis: int, largest: bool) -> tuple[float, frozenset[int]]:
        w, d, _ = sizes[i]
        if i in pins:
            t = math.radians(pins[i].yaw)
            ext = (w * abs(math.cos(t)) + d * abs(math.sin(t))) if axis == 0 else (
                w * abs(math.sin(t)) + d * abs(math.cos(t)))
            pin_relation = pins[i].relation
            return ext / 2.0, frozenset() if pin_relation is None else frozenset({pin_relation})
        return (math.hypot(w, d) if largest else min(w, d)) / 2.0, frozenset()

    edges: list[AxisEdge] = []
    limits = (room.width, room.depth)
    for i in range(len(scene.objects)):
        for axis in (0, 1):
            e, why = half(i, axis, largest=False)
            edges.append(AxisEdge(axis, i, -1, TOL - e, why))  # centre >= e - tol
            edges.append(AxisEdge(axis, -1, i, limits[axis] + TOL - e, why))  # centre <= L + tol - e
        edges.append(AxisEdge(2, i, -1, TOL, frozenset()))  # z >= -tol
        edges.append(AxisEdge(2, -1, i, room.height + TOL - sizes[i][2], frozenset()))

    def before(first: int, second: int, axis: int, why: frozenset[int]) -> None:
        # first's max <= second's min + slack  <=>  c_first - c_second <= slack - e_first - e_second
        e1, w1 = half(first, axis, largest=False)
        e2, w2 = half(second, axis, largest=False)
        edges.append(AxisEdge(axis, second, first, SLACK - e1 - e2, why | w1 | w2))

    for k in subset:
        rel = relations[k]
        a = index[rel.a]
        if rel.type == "against_wall":
            assert rel.wall is not None
            axis = 1 if rel.wall in ("south", "north") else 0
            e, why = half(a, axis, largest=False)
            if rel.wall in ("south", "west"):
                edges.append(AxisEdge(axis, -1, a, 0.1 + e, why | {k}))
            else:
                edges.append(AxisEdge(axis, a, -1, 0.1 + e - limits[axis], why | {k}))
            continue
        if rel.b is None:
            continue
        b = index[rel.b]
        if rel.type in COMPASS:
            axis = 0 if rel.type in ("west_of", "east_of") else 1
            if rel.type in ("west_of", "south_of"):
                before(a, b, axis, frozenset({k}))
            else:
                before(b, a, axis, frozenset({k}))
        elif rel.type in EGOCENTRIC and b in pins and (q := _quarter(pins[b].yaw)) is not None:
            right, fwd = _QUARTER_AXES[q]
            (axis, sign) = right if rel.type in ("left_of", "right_of") else fwd
            a_on_plus = rel.type in ("right_of", "in_front_of")
            why = frozenset({k}) | ({pins[b].relation} - {None})  # type: ignore[operator]
            if a_on_plus == (sign > 0):
                before(b, a, axis, why)
            else:
                before(a, b, axis, why)
        elif rel.type == "facing" and a in pins and (q := _quarter(pins[a].yaw)) is not None:
            axis, sign = _QUARTER_AXES[q][1]
            why = frozenset({k}) | ({pins[a].relation} - {None})  # type: ignore[operator]
            # b's centre lies ahead of a's: sign * (c_b - c_a) >= 0
            edges.append(AxisEdge(axis, b, a, 0.0, why) if sign > 0 else AxisEdge(axis, a, b, 0.0, why))
        elif rel.type == "on_top_of":
            for axis in (0, 1):
                e, why = half(b, axis, largest=True)
                edges.append(AxisEdge(axis, b, a, e, why | {k}))
                edges.append(AxisEdge(axis, a, b, e, why | {k}))
            hb = sizes[b][2]
            edges.append(AxisEdge(2, b, a, hb + SLACK, frozenset({k})))
            edges.append(AxisEdge(2, a, b, -(hb - SLACK), frozenset({k})))
        elif rel.type == "near":
            for axis in (0, 1):
                ea, wa = half(a, axis, largest=True)
                eb, wb = half(b, axis, largest=True)
                reach = NEAR_GAP + ea + eb
                edges.append(AxisEdge(axis, b, a, reach, wa | wb | {k}))
                edges.append(AxisEdge(axis, a, b, reach, wa | wb | {k}))
    return edges
