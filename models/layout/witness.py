"""Contradiction witnesses: one set of relations that cannot hold together, and why (opposite or clashing
pairs, a negative cycle of the difference constraints, a far gap the room cannot hold, a wall run longer
than its wall). Every witness is a proof; models.layout.consistency shrinks it to a minimal one."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from models.layout.far_bound import max_gap_bound
from models.layout.geometry import OUT_OF_ROOM_TOL
from models.layout.relations import FAR_GAP, WALL_DEG, WALL_DIST
from models.layout.resolve import AxisEdge, axis_constraints, grounded, yaw_pins
from models.layout.scene import COMPASS, EGOCENTRIC, WALL_YAW, Relation, Scene

__all__ = ["Conflict", "find_inconsistency"]

_AXIS = ("x (west-east)", "y (south-north)", "z (height)")


@dataclass(frozen=True)
class Conflict:
    """A set of relation indices that cannot hold together, and why."""

    relations: frozenset[int]
    reason: str


def _negative_cycle(n: int, edges: list[AxisEdge]) -> list[AxisEdge] | None:
    """Return the edges of a negative cycle of the difference-constraint graph (Bellman-Ford), if any."""
    nodes = n + 1  # node n stands for the origin (-1)
    dist = [0.0] * nodes
    pred: list[AxisEdge | None] = [None] * nodes
    last = -1
    for _ in range(nodes):
        last = -1
        for e in edges:
            u, v = e.u % nodes if e.u >= 0 else n, e.v if e.v >= 0 else n
            if dist[u] + e.weight < dist[v] - 1e-9:
                dist[v] = dist[u] + e.weight
                pred[v] = e
                last = v
        if last < 0:
            return None
    node = last
    for _ in range(nodes):  # step back into the cycle
        edge = pred[node]
        assert edge is not None
        node = edge.u if edge.u >= 0 else n
    cycle: list[AxisEdge] = []
    cur = node
    while True:
        edge = pred[cur]
        assert edge is not None
        cycle.append(edge)
        cur = edge.u if edge.u >= 0 else n
        if cur == node:
            return cycle


def find_inconsistency(scene: Scene, relations: list[Relation], subset: list[int],
                       floor_objects: list[bool] | None = None) -> Conflict | None:
    """Return one witness conflict inside `subset` (a superset of some minimal conflict), or None."""
    _, clashes = yaw_pins(scene, relations, subset)
    for first, second in clashes:
        return Conflict(frozenset({second} | ({first} - {None})), "the object cannot face both ways")  # type: ignore[operator]
    by_pair: dict[frozenset[str], list[int]] = {}
    for k in subset:
        rel = relations[k]
        if rel.b is not None:
            by_pair.setdefault(frozenset((rel.a, rel.b)), []).append(k)
    opposite = {("left_of", "right_of"), ("in_front_of", "behind")}
    directional = set(EGOCENTRIC) | set(COMPASS)
    for group in by_pair.values():
        for i, j in itertools.combinations(group, 2):
            ri, rj = relations[i], relations[j]
            types = {ri.type, rj.type}
            same_roles = ri.a == rj.a
            if same_roles and (tuple(sorted(types)) in {tuple(sorted(p)) for p in opposite}):
                return Conflict(frozenset({i, j}), "directly opposite relations")
            if types == {"near", "far"}:
                return Conflict(frozenset({i, j}), "near and far at once")
            if "on_top_of" in types and (types & (directional | {"far"})):
                return Conflict(frozenset({i, j}), "on top of an object yet beside or far from it")
    on_floor = floor_objects if floor_objects is not None else grounded(scene, relations)
    edges = axis_constraints(scene, relations, subset, on_floor)
    for axis in (0, 1, 2):
        cycle = _negative_cycle(len(scene.objects), [e for e in edges if e.axis == axis])
        if cycle is not None:
            why = frozenset().union(*(e.reasons for e in cycle))
            kind = "support heights disagree, or a stack is taller than the ceiling" if axis == 2 else f"order cycle along {_AXIS[axis]}"
            return Conflict(why, kind)
    far = _far_beyond_room(scene, relations, subset)
    if far is not None:
        return far
    return _wall_run(scene, relations, subset, on_floor)


def _far_beyond_room(scene: Scene, relations: list[Relation], subset: list[int]) -> Conflict | None:
    """A `far` pair the room cannot hold: each footprint contains the disc of radius min(w, d)/2 about
    its centre, so the gap is at most the largest centre distance the room allows minus both radii; else the
    certified bound over every yaw and placement (`far_bound.max_gap_bound`) is below the gap."""
    index = scene.index()
    room = scene.room
    for k in subset:
        rel = relations[k]
        if rel.type != "far" or rel.b is None:
            continue
        oa, ob = scene.objects[index[rel.a]], scene.objects[index[rel.b]]
        ra, rb = min(oa.width, oa.depth) / 2.0, min(ob.width, ob.depth) / 2.0
        dx = room.width + 2 * OUT_OF_ROOM_TOL - ra - rb
        dy = room.depth + 2 * OUT_OF_ROOM_TOL - ra - rb
        room_box = (room.width + 2 * OUT_OF_ROOM_TOL, room.depth + 2 * OUT_OF_ROOM_TOL)
        if (math.hypot(max(dx, 0.0), max(dy, 0.0)) - ra - rb < FAR_GAP
                or max_gap_bound((oa.width, oa.depth), (ob.width, ob.depth), room_box) < FAR_GAP):
            return Conflict(frozenset({k}), f"the room is too small for a {FAR_GAP:.1f} m gap")
    return None


def _chord(width: float, depth: float, tilt_deg: float, h: float) -> float:
    """Length of the chord a line parallel to the wall cuts through a width x depth footprint turned by
    `tilt_deg` from the wall, `h` above its corner nearest the wall (0 outside the footprint)."""
    t = math.radians(abs(tilt_deg))
    s, c = math.sin(t), math.cos(t)
    top = width * s + depth * c
    if h <= 0.0 or h >= top:
        return 0.0
    # the left side rises along f = (-sin, cos) for depth d, then the top edge; the right side rises along
    # r = (cos, sin) for width w, then the far edge (see the corners of geometry.footprint)
    left = -h * s / c if h <= depth * c else -depth * s + (h - depth * c) * c / max(s, 1e-12)
    right = (h * c / s if s > 1e-12 else math.inf) if h <= width * s else width * c - (h - width * s) * s / c
    return max(0.0, min(right, width * c) - max(left, -depth * s)) if s > 1e-12 else width


def _chord_bound(width: float, depth: float, tilt: float, h_lo: float, h_hi: float) -> float:
    """A lower bound on the chord over tilts in [-tilt, tilt] and heights in [h_lo, h_hi]: chords of a
    convex polygon are concave in h (minimum at the ends); tilts are sampled every 0.05 degrees and the
    bound is lowered by 2% and 5 mm for what falls between samples."""
    steps = max(1, int(tilt / 0.05))
    tilts = [tilt * k / steps for k in range(steps + 1)] if tilt > 0 else [0.0]
    low = min(_chord(width, depth, t, h) for t in tilts for h in (h_lo, h_hi))
    return max(0.0, 0.98 * low - 0.005)


_LINES = (0.2, 0.3, 0.45, 0.6, 0.8)  # m from the wall: the lines along which wall runs are measured


def _wall_run(scene: Scene, relations: list[Relation], subset: list[int], on_floor: list[bool]) -> Conflict | None:
    """Floor objects against one wall whose cuts by a line parallel to it are longer together than it.

    Against a wall means the nearest corner lies between OUT_OF_ROOM_TOL behind and WALL_DIST in front of
    the wall, at a yaw within WALL_DEG of the wall's. A line at distance Y > WALL_DIST from the wall cuts
    every such footprint that reaches past it in a chord, and disjoint footprints cut disjoint chords,
    so chords longer together than the wall are a contradiction. Thin objects (a mirror 5 cm deep) never
    reach the line and do not count: they may tuck in behind others."""
    index = scene.index()
    runs: dict[str, list[int]] = {}
    for k in subset:
        rel = relations[k]
        if rel.type == "against_wall" and rel.wall is not None and on_floor[index[rel.a]]:
            runs.setdefault(rel.wall, []).append(k)
    for wall, ks in runs.items():
        length = scene.room.width if wall in ("south", "north") else scene.room.depth
        for line in _LINES:
            members: dict[int, int] = {}
            total = 0.0
            for k in ks:
                i = index[relations[k].a]
                obj = scene.objects[i]
                if i in members:
                    continue
                tilt = WALL_DEG if obj.yaw is None else abs((obj.yaw - WALL_YAW[wall] + 180.0) % 360.0 - 180.0)
                chord = _chord_bound(obj.width, obj.depth, tilt, line - WALL_DIST, line + OUT_OF_ROOM_TOL)
                if chord > 0.0:
                    members[i] = k
                    total += chord
            # touching footprints may overlap by COLLISION_AREA; allow 2 mm of chord per neighbour for it
            allowance = 2 * OUT_OF_ROOM_TOL + 0.002 * max(len(members) - 1, 0)
            if len(members) > 1 and total > length + allowance:
                return Conflict(frozenset(members.values()), f"objects against the {wall} wall are longer than it")
    return None
