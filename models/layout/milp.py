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

import math
import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from models.layout.geometry import OUT_OF_ROOM_TOL, VERTICAL_TOL
from models.layout.relations import FACING_DEG, FAR_GAP, NEAR_GAP, SLACK, WALL_DEG, WALL_DIST, rectangle
from models.layout.resolve import facing_wall_yaw, grounded
from models.layout.scene import CORNER_WALLS, DEFAULT_CLEARANCE, WALL_YAW, Relation, Scene

__all__ = ["MilpOutcome", "solve_milp", "yaw_options"]

EPS = 1e-4  # m by which every tolerance is tightened
_C8, _S8 = math.cos(math.pi / 8), math.sin(math.pi / 8)
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


def _half(width: float, depth: float, yaw: float, u: tuple[float, float]) -> float:
    t = math.radians(yaw)
    r, f = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    return 0.5 * (width * abs(r[0] * u[0] + r[1] * u[1]) + depth * abs(f[0] * u[0] + f[1] * u[1]))


def _directions(yaws: list[float]) -> list[float]:
    """Edge-normal directions (degrees in [0, 180)) of boxes at the given yaws."""
    return sorted({round(y % 90.0, 6) for y in yaws} | {round(y % 90.0 + 90.0, 6) for y in yaws})


class _Model:
    """A sparse MILP under construction: variables with bounds, rows lo <= a.x <= hi."""

    def __init__(self) -> None:
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.integer: list[int] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def var(self, lo: float, hi: float, integer: bool = False) -> int:
        self.lb.append(lo)
        self.ub.append(hi)
        self.integer.append(1 if integer else 0)
        return len(self.lb) - 1

    def row(self, coef: dict[int, float], lo: float = -np.inf, hi: float = np.inf) -> None:
        self.rows.append(({k: v for k, v in coef.items() if v != 0.0}, lo, hi))


def _add(*terms: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for term in terms:
        for k, v in term.items():
            out[k] = out.get(k, 0.0) + v
    return out


def _scale(term: dict[int, float], c: float) -> dict[int, float]:
    return {k: c * v for k, v in term.items()}


@dataclass
class _Body:
    """A box whose centre is (x, y) linear expressions and whose yaw is option k when binary t[k] = 1."""

    x: dict[int, float]
    y: dict[int, float]
    width: float
    depth: float
    yaws: list[float]
    t: list[int]

    def half(self, u: tuple[float, float]) -> dict[int, float]:
        """Half extent along unit vector u as a linear expression of the yaw binaries."""
        return {t: _half(self.width, self.depth, yaw, u) for t, yaw in zip(self.t, self.yaws, strict=True)}

    def along(self, u: tuple[float, float]) -> dict[int, float]:
        return _add(_scale(self.x, u[0]), _scale(self.y, u[1]))


class _Builder:
    """Builds the relaxed or strict model of one scene."""

    def __init__(self, scene: Scene, relations: list[Relation], yaws: list[list[float]], strict: bool,
                 floor: list[bool]) -> None:
        self.scene, self.relations, self.strict = scene, relations, strict
        self.index = scene.index()
        room = scene.room
        self.room = (room.width, room.depth, room.height)
        diag = max(math.hypot(o.width, o.depth) for o in scene.objects)
        self.big = room.width + room.depth + 2 * diag + 2 * max(DEFAULT_CLEARANCE, 3.0) + 2.0
        self.m = _Model()
        self.bodies: list[_Body] = []
        self.z: list[int] = []
        for i, obj in enumerate(scene.objects):
            x = self.m.var(-1.0, room.width + 1.0)
            y = self.m.var(-1.0, room.depth + 1.0)
            zl = 0.0 if floor[i] else -OUT_OF_ROOM_TOL
            zh = 0.0 if floor[i] else room.height
            self.z.append(self.m.var(zl, zh))
            ts = [self.m.var(0.0, 1.0, integer=True) for _ in yaws[i]]
            self.m.row(dict.fromkeys(ts, 1.0), 1.0, 1.0)
            self.bodies.append(_Body({x: 1.0}, {y: 1.0}, obj.width, obj.depth, yaws[i], ts))
        self.binaries = sum(len(b.t) for b in self.bodies)

    # ---------------------------------------------------------------- helpers
    def _binary(self) -> int:
        self.binaries += 1
        return self.m.var(0.0, 1.0, integer=True)

    def _le_if(self, lhs: dict[int, float], rhs: float, t: int) -> None:
        """lhs <= rhs whenever binary t = 1 (lhs + big t <= rhs + big)."""
        self.m.row(_add(lhs, {t: self.big}), hi=rhs + self.big)

    # ---------------------------------------------------------------- physics
    def room_bounds(self) -> None:
        width, depth, height = self.room
        tol = OUT_OF_ROOM_TOL - EPS
        for i, body in enumerate(self.bodies):
            hx, hy = body.half((1.0, 0.0)), body.half((0.0, 1.0))
            self.m.row(_add(body.x, _scale(hx, -1.0)), lo=-tol)
            self.m.row(_add(body.x, hx), hi=width + tol)
            self.m.row(_add(body.y, _scale(hy, -1.0)), lo=-tol)
            self.m.row(_add(body.y, hy), hi=depth + tol)
            self.m.row({self.z[i]: 1.0}, hi=height + tol - self.scene.objects[i].height)

    def separate(self, a: _Body, b: _Body, vertical: list[tuple[dict[int, float], float]]) -> None:
        """a and b do not overlap: separated along an edge normal of one of them, or by a vertical row."""
        choices: list[int] = []
        for deg in _directions(a.yaws + b.yaws):
            u = (math.cos(math.radians(deg)), math.sin(math.radians(deg)))
            gap_need = _add(a.half(u), b.half(u))
            for first, second in ((a, b), (b, a)):
                s = self._binary()
                choices.append(s)
                # u.c_second - u.c_first >= h_a + h_b + eps when s = 1
                self._le_if(_add(first.along(u), _scale(second.along(u), -1.0), gap_need), -EPS, s)
        for lhs, rhs in vertical:
            s = self._binary()
            choices.append(s)
            self._le_if(lhs, rhs, s)
        self.m.row(dict.fromkeys(choices, 1.0), lo=1.0)

    def non_overlap(self, floor: list[bool]) -> None:
        objs = self.scene.objects
        for i in range(len(objs)):
            for j in range(i + 1, len(objs)):
                if floor[i] and floor[j]:
                    vertical = []  # both stand at z = 0: always overlapping vertically
                else:
                    vertical = [({self.z[i]: 1.0, self.z[j]: -1.0}, VERTICAL_TOL - objs[i].height - EPS),
                                ({self.z[j]: 1.0, self.z[i]: -1.0}, VERTICAL_TOL - objs[j].height - EPS)]
                self.separate(self.bodies[i], self.bodies[j], vertical)

    def openings(self) -> None:
        for opening in self.scene.openings:
            x0, y0, x1, y1 = opening.zone(self.scene.room)
            zone = _Body({}, {}, x1 - x0, y1 - y0, [0.0], [])
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            for i, obj in enumerate(self.scene.objects):
                if opening.kind == "door":
                    vertical = []
                else:  # a window is blocked only by what reaches above its sill
                    vertical = [({self.z[i]: 1.0}, opening.sill - obj.height)]
                self._separate_fixed(self.bodies[i], zone, centre, vertical)

    def _separate_fixed(self, body: _Body, zone: _Body, centre: tuple[float, float],
                        vertical: list[tuple[dict[int, float], float]]) -> None:
        choices: list[int] = []
        for deg in _directions(body.yaws + [0.0]):
            u = (math.cos(math.radians(deg)), math.sin(math.radians(deg)))
            zc = centre[0] * u[0] + centre[1] * u[1]
            zh = _half(zone.width, zone.depth, 0.0, u)
            for sign in (1.0, -1.0):
                s = self._binary()
                choices.append(s)
                # sign * (u.c - zc) >= h + zh + eps when s = 1
                self._le_if(_add(_scale(body.along(u), -sign), body.half(u)), -sign * zc - zh - EPS, s)
        for lhs, rhs in vertical:
            s = self._binary()
            choices.append(s)
            self._le_if(lhs, rhs, s)
        self.m.row(dict.fromkeys(choices, 1.0), lo=1.0)

    # ---------------------------------------------------------------- relations
    def relation(self, rel: Relation) -> None:
        a = self.bodies[self.index[rel.a]]
        ia = self.index[rel.a]
        if rel.type in ("against_wall", "corner"):
            walls = [rel.wall] if rel.type == "against_wall" else list(CORNER_WALLS[str(rel.corner)])
            for wall in walls:
                self._wall(a, str(wall))
            return
        if rel.type == "facing" and rel.wall is not None:
            return  # the yaw options already face the wall
        if rel.type == "clearance":
            self._clearance(ia, rel.distance if rel.distance is not None else DEFAULT_CLEARANCE)
            return
        assert rel.b is not None
        ib = self.index[rel.b]
        b = self.bodies[ib]
        objs = self.scene.objects
        wb, db, hb = objs[ib].width, objs[ib].depth, objs[ib].height
        if rel.type in ("left_of", "right_of", "in_front_of", "behind"):
            for t, yaw in zip(b.t, b.yaws, strict=True):
                rad = math.radians(yaw)
                axis = (math.cos(rad), math.sin(rad)) if rel.type in ("left_of", "right_of") else (-math.sin(rad), math.cos(rad))
                own = wb if rel.type in ("left_of", "right_of") else db
                sign = 1.0 if rel.type in ("left_of", "behind") else -1.0
                # sign * u.(c_a - c_b) + h_a(u) <= -own/2 + slack
                lhs = _add(_scale(a.along(axis), sign), _scale(b.along(axis), -sign), a.half(axis))
                self._le_if(lhs, -own / 2 + SLACK - EPS, t)
        elif rel.type in ("west_of", "east_of", "south_of", "north_of"):
            u = (1.0, 0.0) if rel.type in ("west_of", "east_of") else (0.0, 1.0)
            first, second = (a, b) if rel.type in ("west_of", "south_of") else (b, a)
            # first's max <= second's min + slack
            self.m.row(_add(first.along(u), first.half(u), _scale(second.along(u), -1.0), second.half(u)),
                       hi=SLACK - EPS)
        elif rel.type in ("facing", "around"):
            self._facing(a, b)
            if rel.type == "around":
                self._near(a, b)
        elif rel.type == "near":
            self._near(a, b)
        elif rel.type == "far":
            self._far(a, b)
        elif rel.type == "on_top_of":
            self.m.row({self.z[ia]: 1.0, self.z[ib]: -1.0}, lo=hb - SLACK + EPS, hi=hb + SLACK - EPS)
            for t, yaw in zip(b.t, b.yaws, strict=True):
                rad = math.radians(yaw)
                for direction, half in (((math.cos(rad), math.sin(rad)), wb / 2), ((-math.sin(rad), math.cos(rad)), db / 2)):
                    diff = _add(a.along(direction), _scale(b.along(direction), -1.0))
                    self._le_if(diff, half - EPS, t)
                    self._le_if(_scale(diff, -1.0), half - EPS, t)
        elif rel.type == "align":
            axes = [0] if rel.axis == "x" else [1] if rel.axis == "y" else [0, 1]
            pick = [self._binary() for _ in axes] if len(axes) > 1 else []
            if pick:
                self.m.row(dict.fromkeys(pick, 1.0), lo=1.0)
            for n, dim in enumerate(axes):
                u = (1.0, 0.0) if dim == 0 else (0.0, 1.0)
                diff = _add(a.along(u), _scale(b.along(u), -1.0))
                for sign in (1.0, -1.0):
                    if pick:
                        self._le_if(_scale(diff, sign), SLACK - EPS, pick[n])
                    else:
                        self.m.row(_scale(diff, sign), hi=SLACK - EPS)

    def _wall(self, a: _Body, wall: str) -> None:
        width, depth, _ = self.room
        if wall == "south":
            self.m.row(_add(a.y, _scale(a.half((0.0, 1.0)), -1.0)), hi=WALL_DIST - EPS)
        elif wall == "north":
            self.m.row(_add(a.y, a.half((0.0, 1.0))), lo=depth - WALL_DIST + EPS)
        elif wall == "west":
            self.m.row(_add(a.x, _scale(a.half((1.0, 0.0)), -1.0)), hi=WALL_DIST - EPS)
        else:
            self.m.row(_add(a.x, a.half((1.0, 0.0))), lo=width - WALL_DIST + EPS)

    def _facing(self, a: _Body, b: _Body) -> None:
        """b's centre within FACING_DEG of a's forward: two half-planes per yaw option of a."""
        alpha = math.radians(FACING_DEG - 0.05)
        for t, yaw in zip(a.t, a.yaws, strict=True):
            fwd = math.radians(yaw) + math.pi / 2  # forward = (-sin yaw, cos yaw) = angle yaw + 90 deg
            for normal_angle in (fwd + alpha - math.pi / 2, fwd - alpha + math.pi / 2):
                n = (math.cos(normal_angle), math.sin(normal_angle))
                # n.(c_b - c_a) >= 0
                self._le_if(_add(a.along(n), _scale(b.along(n), -1.0)), 0.0, t)
            f = (math.cos(fwd), math.sin(fwd))
            self._le_if(_add(a.along(f), _scale(b.along(f), -1.0)), -1e-3, t)

    def _gaps(self, a: _Body, b: _Body, lower: bool) -> tuple[int, int]:
        """Gap variables gx, gy between the axis-aligned bounds of a and b: upper bounds on the true
        separations (lower = False, for near) or lower bounds (True, for far, with side binaries)."""
        gaps = []
        for u in ((1.0, 0.0), (0.0, 1.0)):
            g = self.m.var(0.0, self.big)
            seps = [_add(b.along(u), _scale(b.half(u), -1.0), _scale(a.along(u), -1.0), _scale(a.half(u), -1.0)),
                    _add(a.along(u), _scale(a.half(u), -1.0), _scale(b.along(u), -1.0), _scale(b.half(u), -1.0))]
            if not lower:
                for sep in seps:  # g >= sep
                    self.m.row(_add(sep, {g: -1.0}), hi=0.0)
            else:
                sides = [self._binary(), self._binary()]
                for s, sep in zip(sides, seps, strict=True):  # g <= sep when s = 1
                    self._le_if(_add({g: 1.0}, _scale(sep, -1.0)), 0.0, s)
                self.m.row(_add({g: 1.0}, {s: -self.big for s in sides}), hi=0.0)  # g = 0 without a side
            gaps.append(g)
        return gaps[0], gaps[1]

    def _near(self, a: _Body, b: _Body) -> None:
        gx, gy = self._gaps(a, b, lower=False)
        r = NEAR_GAP - EPS
        if self.strict:  # inside the inscribed octagon: the distance is at most r
            self.m.row({gx: _C8, gy: _S8}, hi=r * _C8)
            self.m.row({gx: _S8, gy: _C8}, hi=r * _C8)
        else:  # inside the circumscribed octagon: a necessary condition
            self.m.row({gx: 1.0}, hi=NEAR_GAP)
            self.m.row({gy: 1.0}, hi=NEAR_GAP)
            self.m.row({gx: 1.0, gy: 1.0}, hi=NEAR_GAP * math.sqrt(2.0))

    def _far(self, a: _Body, b: _Body) -> None:
        gx, gy = self._gaps(a, b, lower=True)
        r = FAR_GAP + EPS
        if self.strict:  # outside the circumscribed octagon
            pieces = [({gx: 1.0}, r), ({gy: 1.0}, r), ({gx: 1.0, gy: 1.0}, r * math.sqrt(2.0))]
            release: list[int] = []
        else:  # outside the inscribed octagon; dropped when a yaw is not wall-aligned
            pieces = [({gx: _C8, gy: _S8}, FAR_GAP * _C8), ({gx: _S8, gy: _C8}, FAR_GAP * _C8)]
            release = [t for body in (a, b) for t, yaw in zip(body.t, body.yaws, strict=True) if yaw % 90.0 > 1e-6]
        picks = [self._binary() for _ in pieces]
        self.m.row(dict.fromkeys(picks, 1.0), lo=1.0)
        for s, (coef, rhs) in zip(picks, pieces, strict=True):
            # coef.g >= rhs when s = 1 (and no released yaw is chosen)
            self.m.row(_add(_scale(coef, -1.0), {s: self.big}, {t: -self.big for t in release}), hi=-rhs + self.big)

    def _clearance(self, ia: int, distance: float) -> None:
        owner = self.bodies[ia]
        obj = self.scene.objects[ia]
        offset = obj.depth / 2 + distance / 2
        zx, zy = dict(owner.x), dict(owner.y)
        for t, yaw in zip(owner.t, owner.yaws, strict=True):
            rad = math.radians(yaw)
            zx = _add(zx, {t: -math.sin(rad) * offset})
            zy = _add(zy, {t: math.cos(rad) * offset})
        zone = _Body(zx, zy, obj.width, distance, owner.yaws, owner.t)
        width, depth, _ = self.room
        tol = OUT_OF_ROOM_TOL - EPS
        hx, hy = zone.half((1.0, 0.0)), zone.half((0.0, 1.0))
        self.m.row(_add(zone.x, _scale(hx, -1.0)), lo=-tol)
        self.m.row(_add(zone.x, hx), hi=width + tol)
        self.m.row(_add(zone.y, _scale(hy, -1.0)), lo=-tol)
        self.m.row(_add(zone.y, hy), hi=depth + tol)
        for j, other in enumerate(self.bodies):
            if j != ia:
                self.separate(zone, other, [])

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
