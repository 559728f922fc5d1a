"""Yaw pins and the room-frame axis constraints that relations imply once egocentric ones are resolved."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.layout.relations import FACING_DEG, NEAR_GAP, SLACK, WALL_DEG, WALL_DIST
from models.layout.scene import COMPASS, CORNER_WALLS, EGOCENTRIC, WALL_YAW, Relation, Scene

__all__ = ["AxisEdge", "YawPin", "axis_constraints", "facing_wall_yaw", "grounded", "half_extent_range", "yaw_pins"]

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


_SAMPLES_PER_DEG = 4  # yaw sampling of extent ranges; the sampling error is added to stay sound


def half_extent_range(width: float, depth: float, yaw: float | None, tol: float, axis: int) -> tuple[float, float]:
    """Return (smallest, largest) half extent along x (axis 0) or y (1) of a width x depth box whose yaw
    lies within `tol` degrees of `yaw` (any yaw when `yaw` is None), rounded outward so both are bounds."""
    if yaw is None:
        return min(width, depth) / 2.0, math.hypot(width, depth) / 2.0

    def ext(deg: float) -> float:
        t = math.radians(deg)
        c, s = abs(math.cos(t)), abs(math.sin(t))
        return 0.5 * (width * c + depth * s if axis == 0 else width * s + depth * c)

    if tol <= 0.0:
        value = ext(yaw)
        return value, value
    steps = max(2, int(math.ceil(2 * tol * _SAMPLES_PER_DEG)))
    values = [ext(yaw - tol + 2 * tol * k / steps) for k in range(steps + 1)]
    values += [ext(90.0 * q) for q in range(-8, 9) if abs(_angle_diff(90.0 * q, yaw)) <= tol]
    # ext is Lipschitz with constant hypot/2 per radian: the sampled extremes are off by at most this
    error = 0.5 * math.hypot(width, depth) * math.radians(tol / steps)
    return max(min(values) - error, 0.0), max(values) + error


@dataclass(frozen=True)
class _Extents:
    """Per object and axis, bounds on the half extent and on the centre, and the relations they rest on."""

    half: list[tuple[tuple[float, float], tuple[float, float]]]  # [obj][axis] -> (min, max) half extent
    centre: list[list[list[float]]]  # [obj][axis] -> [lo, hi] centre bounds
    why: list[set[int]]  # relations the centre bounds rest on


def _extents(scene: Scene, relations: list[Relation], subset: list[int], pins: dict[int, YawPin]) -> _Extents:
    room = scene.room
    index = scene.index()
    limits = (room.width, room.depth)
    half = []
    for i, obj in enumerate(scene.objects):
        pin = pins.get(i)
        yaw, tol = (pin.yaw, pin.tolerance) if pin is not None else (None, 0.0)
        half.append((half_extent_range(obj.width, obj.depth, yaw, tol, 0),
                     half_extent_range(obj.width, obj.depth, yaw, tol, 1)))
    centre = [[[half[i][a][0] - TOL, limits[a] + TOL - half[i][a][0]] for a in (0, 1)] for i in range(len(half))]
    why: list[set[int]] = [set() for _ in half]
    for k in subset:
        rel = relations[k]
        walls = [rel.wall] if rel.type == "against_wall" else list(CORNER_WALLS[rel.corner]) if (
            rel.type == "corner" and rel.corner is not None) else []
        i = index[rel.a]
        for wall in walls:
            axis = 1 if wall in ("south", "north") else 0
            reach = WALL_DIST + half[i][axis][1]
            if wall in ("south", "west"):
                centre[i][axis][1] = min(centre[i][axis][1], reach)
            else:
                centre[i][axis][0] = max(centre[i][axis][0], limits[axis] - reach)
            why[i].add(k)
    return _Extents(half, centre, why)


# Direction of an object's right (r) and forward (f) axes at a yaw that is a multiple of 90 degrees,
# as (axis, sign): yaw 0 -> r = +x, f = +y; 90 -> r = +y, f = -x; 180 -> r = -x, f = -y; -90 -> r = -y, f = +x.
_QUARTER_AXES = {0: ((0, 1), (1, 1)), 1: ((1, 1), (0, -1)), 2: ((0, -1), (1, -1)), 3: ((1, -1), (0, 1))}


def _quarter(yaw: float) -> int | None:
    q = yaw / 90.0
    return int(round(q)) % 4 if abs(q - round(q)) < 1e-6 else None


def axis_constraints(scene: Scene, relations: list[Relation], subset: list[int],
                     floor: list[bool] | None = None) -> list[AxisEdge]:
    """Return difference constraints on object centres (x, y) and base heights (z) that every layout
    satisfying the relations in `subset` meets (a relaxation: a negative cycle is a proof).

    Tolerances are those of the exact checks: a wall-pinned yaw may turn by WALL_DEG, a wall-facing one by
    FACING_DEG, and an egocentric relation to a reference whose yaw may turn by tau loosens by L tan(tau),
    with L bounding how far sideways the subject can sit. Floor objects (`floor`) have z = 0.
    """
    pins, _ = yaw_pins(scene, relations, subset)
    edges = _Edges(scene, pins, _extents(scene, relations, subset, pins))
    edges.room(floor)
    index = scene.index()
    for k in subset:
        rel = relations[k]
        a = index[rel.a]
        if rel.b is None:
            continue
        b = index[rel.b]
        edges.order(k, rel.type, a, b)
        edges.contact(k, rel, a, b)
    return edges.edges


class _Edges:
    """The difference constraints under construction, with the yaw pins and extents they rest on."""

    def __init__(self, scene: Scene, pins: dict[int, YawPin], bounds: _Extents) -> None:
        self.scene, self.pins, self.bounds = scene, pins, bounds
        self.sizes = [(o.width, o.depth, o.height) for o in scene.objects]
        self.edges: list[AxisEdge] = []

    def pin_why(self, i: int) -> frozenset[int]:
        pin = self.pins.get(i)
        return frozenset() if pin is None or pin.relation is None else frozenset({pin.relation})

    def room(self, floor: list[bool] | None) -> None:
        """Centre bounds inside the room, heights under the ceiling, floor objects at z = 0."""
        bounds, edges, pin_why = self.bounds, self.edges, self.pin_why
        for i in range(len(self.scene.objects)):
            for axis in (0, 1):
                lo, hi = bounds.centre[i][axis]
                edges.append(AxisEdge(axis, i, -1, -lo, frozenset(bounds.why[i]) | pin_why(i)))  # centre >= lo
                edges.append(AxisEdge(axis, -1, i, hi, frozenset(bounds.why[i]) | pin_why(i)))  # centre <= hi
            edges.append(AxisEdge(2, i, -1, TOL, frozenset()))  # z >= -tol
            edges.append(AxisEdge(2, -1, i, self.scene.room.height + TOL - self.sizes[i][2], frozenset()))
            if floor is not None and floor[i]:
                edges.append(AxisEdge(2, -1, i, 0.0, frozenset()))  # floor objects stand at z = 0
                edges.append(AxisEdge(2, i, -1, 0.0, frozenset()))

    def before(self, first: int, second: int, axis: int, why: frozenset[int], loosen: float = 0.0) -> None:
        # first's max <= second's min + slack (+ loosen)  =>  c_first - c_second <= slack + loosen - e_first - e_second
        e1, e2 = self.bounds.half[first][axis][0], self.bounds.half[second][axis][0]
        self.edges.append(AxisEdge(axis, second, first, SLACK + loosen - e1 - e2,
                                   why | self.pin_why(first) | self.pin_why(second)))

    def lever(self, a: int, b: int, axis: int) -> float:
        """Largest |p - c_b| along `axis` over the corners p of a."""
        reach = self.bounds.half[a][axis][1]
        (lo_a, hi_a), (lo_b, hi_b) = self.bounds.centre[a][axis], self.bounds.centre[b][axis]
        return max(hi_a + reach - lo_b, hi_b - lo_a + reach, 0.0)

    def order(self, k: int, kind: str, a: int, b: int) -> None:
        """Compass, egocentric (reference yaw pinned to a quarter) and facing relations: one order edge."""
        bounds, edges, pins, pin_why = self.bounds, self.edges, self.pins, self.pin_why
        if kind in COMPASS:
            axis = 0 if kind in ("west_of", "east_of") else 1
            if kind in ("west_of", "south_of"):
                self.before(a, b, axis, frozenset({k}))
            else:
                self.before(b, a, axis, frozenset({k}))
        elif kind in EGOCENTRIC and b in pins and (q := _quarter(pins[b].yaw)) is not None:
            right, fwd = _QUARTER_AXES[q]
            (axis, sign) = right if kind in ("left_of", "right_of") else fwd
            a_on_plus = kind in ("right_of", "in_front_of")
            # the reference's own half extent along the axis is its width (or depth) over 2, exactly
            own = self.sizes[b][0] if kind in ("left_of", "right_of") else self.sizes[b][1]
            tau = pins[b].tolerance
            loosen = self.lever(a, b, 1 - axis) * math.tan(math.radians(tau)) if tau > 0 else 0.0
            why = frozenset({k}) | frozenset(bounds.why[a]) | frozenset(bounds.why[b])
            e_a = bounds.half[a][axis][0]
            weight = SLACK + loosen - e_a - own / 2.0
            if a_on_plus == (sign > 0):
                edges.append(AxisEdge(axis, a, b, weight, why | pin_why(b) | pin_why(a)))  # c_b - c_a <= w
            else:
                edges.append(AxisEdge(axis, b, a, weight, why | pin_why(b) | pin_why(a)))  # c_a - c_b <= w
        elif kind in ("facing", "around") and a in pins and (q := _quarter(pins[a].yaw)) is not None \
                and pins[a].tolerance + FACING_DEG < 90.0:
            axis, sign = _QUARTER_AXES[q][1]
            why = frozenset({k}) | pin_why(a)
            # b's centre lies ahead of a's: sign * (c_b - c_a) >= 0
            edges.append(AxisEdge(axis, b, a, 0.0, why) if sign > 0 else AxisEdge(axis, a, b, 0.0, why))

    def contact(self, k: int, rel: Relation, a: int, b: int) -> None:
        """on_top_of (over b's footprint, at b's top), near/around (within reach) and align on one axis."""
        edges, pin_why = self.edges, self.pin_why
        if rel.type == "on_top_of":
            for axis in (0, 1):
                e = self.bounds.half[b][axis][1]
                edges.append(AxisEdge(axis, b, a, e, frozenset({k}) | pin_why(b)))
                edges.append(AxisEdge(axis, a, b, e, frozenset({k}) | pin_why(b)))
            hb = self.sizes[b][2]
            edges.append(AxisEdge(2, b, a, hb + SLACK, frozenset({k})))
            edges.append(AxisEdge(2, a, b, -(hb - SLACK), frozenset({k})))
        elif rel.type in ("near", "around"):
            for axis in (0, 1):
                reach = NEAR_GAP + self.bounds.half[a][axis][1] + self.bounds.half[b][axis][1]
                why = frozenset({k}) | pin_why(a) | pin_why(b)
                edges.append(AxisEdge(axis, b, a, reach, why))
                edges.append(AxisEdge(axis, a, b, reach, why))
        elif rel.type == "align" and rel.axis is not None:
            axis = 0 if rel.axis == "x" else 1
            edges.append(AxisEdge(axis, b, a, SLACK, frozenset({k})))
            edges.append(AxisEdge(axis, a, b, SLACK, frozenset({k})))
