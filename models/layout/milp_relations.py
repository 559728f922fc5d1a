"""The MILP's relation rows: every relation is linear once the yaws are chosen, except near/far, which
use octagons around the Euclidean distance between the boxes' axis-aligned bounds (relaxed or strict)."""

from __future__ import annotations

import math

from models.layout.geometry import OUT_OF_ROOM_TOL
from models.layout.milp_model import C8, EPS, S8, Body, add, scale
from models.layout.milp_physics import PhysicsRows
from models.layout.relations import FACING_DEG, FAR_GAP, NEAR_GAP, SLACK, WALL_DIST
from models.layout.scene import CORNER_WALLS, DEFAULT_CLEARANCE, Relation


class RelationRows(PhysicsRows):
    """The rows of each relation on top of the physics."""

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
        if rel.type in ("left_of", "right_of", "in_front_of", "behind"):
            self._egocentric(rel.type, a, b, ib)
        elif rel.type in ("west_of", "east_of", "south_of", "north_of"):
            u = (1.0, 0.0) if rel.type in ("west_of", "east_of") else (0.0, 1.0)
            first, second = (a, b) if rel.type in ("west_of", "south_of") else (b, a)
            # first's max <= second's min + slack
            self.m.row(add(first.along(u), first.half(u), scale(second.along(u), -1.0), second.half(u)),
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
            self._on_top(a, b, ia, ib)
        elif rel.type == "align":
            self._align(a, b, rel.axis)

    def _egocentric(self, kind: str, a: Body, b: Body, ib: int) -> None:
        """a left of / right of / in front of / behind b, in b's frame: one row per yaw option of b."""
        wb, db = self.scene.objects[ib].width, self.scene.objects[ib].depth
        for t, yaw in zip(b.t, b.yaws, strict=True):
            rad = math.radians(yaw)
            axis = (math.cos(rad), math.sin(rad)) if kind in ("left_of", "right_of") else (-math.sin(rad), math.cos(rad))
            own = wb if kind in ("left_of", "right_of") else db
            sign = 1.0 if kind in ("left_of", "behind") else -1.0
            # sign * u.(c_a - c_b) + h_a(u) <= -own/2 + slack
            lhs = add(scale(a.along(axis), sign), scale(b.along(axis), -sign), a.half(axis))
            self._le_if(lhs, -own / 2 + SLACK - EPS, t)

    def _on_top(self, a: Body, b: Body, ia: int, ib: int) -> None:
        """a rests on b's top and its centre lies over b's footprint, per yaw option of b."""
        objs = self.scene.objects
        wb, db, hb = objs[ib].width, objs[ib].depth, objs[ib].height
        self.m.row({self.z[ia]: 1.0, self.z[ib]: -1.0}, lo=hb - SLACK + EPS, hi=hb + SLACK - EPS)
        for t, yaw in zip(b.t, b.yaws, strict=True):
            rad = math.radians(yaw)
            for direction, half in (((math.cos(rad), math.sin(rad)), wb / 2), ((-math.sin(rad), math.cos(rad)), db / 2)):
                diff = add(a.along(direction), scale(b.along(direction), -1.0))
                self._le_if(diff, half - EPS, t)
                self._le_if(scale(diff, -1.0), half - EPS, t)

    def _align(self, a: Body, b: Body, axis: str | None) -> None:
        """Same x, same y, or (without an axis) either one, chosen by a binary."""
        axes = [0] if axis == "x" else [1] if axis == "y" else [0, 1]
        pick = [self._binary() for _ in axes] if len(axes) > 1 else []
        if pick:
            self.m.row(dict.fromkeys(pick, 1.0), lo=1.0)
        for n, dim in enumerate(axes):
            u = (1.0, 0.0) if dim == 0 else (0.0, 1.0)
            diff = add(a.along(u), scale(b.along(u), -1.0))
            for sign in (1.0, -1.0):
                if pick:
                    self._le_if(scale(diff, sign), SLACK - EPS, pick[n])
                else:
                    self.m.row(scale(diff, sign), hi=SLACK - EPS)

    def _wall(self, a: Body, wall: str) -> None:
        width, depth, _ = self.room
        if wall == "south":
            self.m.row(add(a.y, scale(a.half((0.0, 1.0)), -1.0)), hi=WALL_DIST - EPS)
        elif wall == "north":
            self.m.row(add(a.y, a.half((0.0, 1.0))), lo=depth - WALL_DIST + EPS)
        elif wall == "west":
            self.m.row(add(a.x, scale(a.half((1.0, 0.0)), -1.0)), hi=WALL_DIST - EPS)
        else:
            self.m.row(add(a.x, a.half((1.0, 0.0))), lo=width - WALL_DIST + EPS)

    def _facing(self, a: Body, b: Body) -> None:
        """b's centre within FACING_DEG of a's forward: two half-planes per yaw option of a."""
        alpha = math.radians(FACING_DEG - 0.05)
        for t, yaw in zip(a.t, a.yaws, strict=True):
            fwd = math.radians(yaw) + math.pi / 2  # forward = (-sin yaw, cos yaw) = angle yaw + 90 deg
            for normal_angle in (fwd + alpha - math.pi / 2, fwd - alpha + math.pi / 2):
                n = (math.cos(normal_angle), math.sin(normal_angle))
                # n.(c_b - c_a) >= 0
                self._le_if(add(a.along(n), scale(b.along(n), -1.0)), 0.0, t)
            f = (math.cos(fwd), math.sin(fwd))
            self._le_if(add(a.along(f), scale(b.along(f), -1.0)), -1e-3, t)

    def _gaps(self, a: Body, b: Body, lower: bool) -> tuple[int, int]:
        """Gap variables gx, gy between the axis-aligned bounds of a and b: upper bounds on the true
        separations (lower = False, for near) or lower bounds (True, for far, with side binaries)."""
        gaps = []
        for u in ((1.0, 0.0), (0.0, 1.0)):
            g = self.m.var(0.0, self.big)
            seps = [add(b.along(u), scale(b.half(u), -1.0), scale(a.along(u), -1.0), scale(a.half(u), -1.0)),
                    add(a.along(u), scale(a.half(u), -1.0), scale(b.along(u), -1.0), scale(b.half(u), -1.0))]
            if not lower:
                for sep in seps:  # g >= sep
                    self.m.row(add(sep, {g: -1.0}), hi=0.0)
            else:
                sides = [self._binary(), self._binary()]
                for s, sep in zip(sides, seps, strict=True):  # g <= sep when s = 1
                    self._le_if(add({g: 1.0}, scale(sep, -1.0)), 0.0, s)
                self.m.row(add({g: 1.0}, {s: -self.big for s in sides}), hi=0.0)  # g = 0 without a side
            gaps.append(g)
        return gaps[0], gaps[1]

    def _near(self, a: Body, b: Body) -> None:
        gx, gy = self._gaps(a, b, lower=False)
        r = NEAR_GAP - EPS
        if self.strict:  # inside the inscribed octagon: the distance is at most r
            self.m.row({gx: C8, gy: S8}, hi=r * C8)
            self.m.row({gx: S8, gy: C8}, hi=r * C8)
        else:  # inside the circumscribed octagon: a necessary condition
            self.m.row({gx: 1.0}, hi=NEAR_GAP)
            self.m.row({gy: 1.0}, hi=NEAR_GAP)
            self.m.row({gx: 1.0, gy: 1.0}, hi=NEAR_GAP * math.sqrt(2.0))

    def _far(self, a: Body, b: Body) -> None:
        gx, gy = self._gaps(a, b, lower=True)
        r = FAR_GAP + EPS
        if self.strict:  # outside the circumscribed octagon
            pieces = [({gx: 1.0}, r), ({gy: 1.0}, r), ({gx: 1.0, gy: 1.0}, r * math.sqrt(2.0))]
            release: list[int] = []
        else:  # outside the inscribed octagon; dropped when a yaw is not wall-aligned
            pieces = [({gx: C8, gy: S8}, FAR_GAP * C8), ({gx: S8, gy: C8}, FAR_GAP * C8)]
            release = [t for body in (a, b) for t, yaw in zip(body.t, body.yaws, strict=True) if yaw % 90.0 > 1e-6]
        picks = [self._binary() for _ in pieces]
        self.m.row(dict.fromkeys(picks, 1.0), lo=1.0)
        for s, (coef, rhs) in zip(picks, pieces, strict=True):
            # coef.g >= rhs when s = 1 (and no released yaw is chosen)
            self.m.row(add(scale(coef, -1.0), {s: self.big}, {t: -self.big for t in release}), hi=-rhs + self.big)

    def _clearance(self, ia: int, distance: float) -> None:
        owner = self.bodies[ia]
        obj = self.scene.objects[ia]
        offset = obj.depth / 2 + distance / 2
        zx, zy = dict(owner.x), dict(owner.y)
        for t, yaw in zip(owner.t, owner.yaws, strict=True):
            rad = math.radians(yaw)
            zx = add(zx, {t: -math.sin(rad) * offset})
            zy = add(zy, {t: math.cos(rad) * offset})
        zone = Body(zx, zy, obj.width, distance, owner.yaws, owner.t)
        width, depth, _ = self.room
        tol = OUT_OF_ROOM_TOL - EPS
        hx, hy = zone.half((1.0, 0.0)), zone.half((0.0, 1.0))
        self.m.row(add(zone.x, scale(hx, -1.0)), lo=-tol)
        self.m.row(add(zone.x, hx), hi=width + tol)
        self.m.row(add(zone.y, scale(hy, -1.0)), lo=-tol)
        self.m.row(add(zone.y, hy), hi=depth + tol)
        for j, other in enumerate(self.bodies):
            if j != ia:
                self.separate(zone, other, [])
