"""The MILP's physics rows: every box inside the room, no two boxes overlapping (separating axes as a
big-M disjunction, or a vertical separation) and door and window zones kept free."""

from __future__ import annotations

import math

from models.layout.geometry import OUT_OF_ROOM_TOL, VERTICAL_TOL
from models.layout.milp_model import EPS, Body, BuilderBase, add, directions, half_extent, scale


class PhysicsRows(BuilderBase):
    """Room bounds, non-overlap and free openings."""

    def room_bounds(self) -> None:
        width, depth, height = self.room
        tol = OUT_OF_ROOM_TOL - EPS
        for i, body in enumerate(self.bodies):
            hx, hy = body.half((1.0, 0.0)), body.half((0.0, 1.0))
            self.m.row(add(body.x, scale(hx, -1.0)), lo=-tol)
            self.m.row(add(body.x, hx), hi=width + tol)
            self.m.row(add(body.y, scale(hy, -1.0)), lo=-tol)
            self.m.row(add(body.y, hy), hi=depth + tol)
            self.m.row({self.z[i]: 1.0}, hi=height + tol - self.scene.objects[i].height)

    def separate(self, a: Body, b: Body, vertical: list[tuple[dict[int, float], float]]) -> None:
        """a and b do not overlap: separated along an edge normal of one of them, or by a vertical row."""
        choices: list[int] = []
        for deg in directions(a.yaws + b.yaws):
            u = (math.cos(math.radians(deg)), math.sin(math.radians(deg)))
            gap_need = add(a.half(u), b.half(u))
            for first, second in ((a, b), (b, a)):
                s = self._binary()
                choices.append(s)
                # u.c_second - u.c_first >= h_a + h_b + eps when s = 1
                self._le_if(add(first.along(u), scale(second.along(u), -1.0), gap_need), -EPS, s)
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
            zone = Body({}, {}, x1 - x0, y1 - y0, [0.0], [])
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            for i, obj in enumerate(self.scene.objects):
                if opening.kind == "door":
                    vertical = []
                else:  # a window is blocked only by what reaches above its sill
                    vertical = [({self.z[i]: 1.0}, opening.sill - obj.height)]
                self._separate_fixed(self.bodies[i], zone, centre, vertical)

    def _separate_fixed(self, body: Body, zone: Body, centre: tuple[float, float],
                        vertical: list[tuple[dict[int, float], float]]) -> None:
        choices: list[int] = []
        for deg in directions(body.yaws + [0.0]):
            u = (math.cos(math.radians(deg)), math.sin(math.radians(deg)))
            zc = centre[0] * u[0] + centre[1] * u[1]
            zh = half_extent(zone.width, zone.depth, 0.0, u)
            for sign in (1.0, -1.0):
                s = self._binary()
                choices.append(s)
                # sign * (u.c - zc) >= h + zh + eps when s = 1
                self._le_if(add(scale(body.along(u), -sign), body.half(u)), -sign * zc - zh - EPS, s)
        for lhs, rhs in vertical:
            s = self._binary()
            choices.append(s)
            self._le_if(lhs, rhs, s)
        self.m.row(dict.fromkeys(choices, 1.0), lo=1.0)
