"""The MILP's building blocks: sparse rows over bounded variables, linear expressions as dicts, boxes
whose yaw is chosen by binaries, and the base that owns the variables of one scene (see models.layout.milp)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.layout.geometry import OUT_OF_ROOM_TOL
from models.layout.scene import DEFAULT_CLEARANCE, Relation, Scene

EPS = 1e-4  # m by which every tolerance is tightened
C8, S8 = math.cos(math.pi / 8), math.sin(math.pi / 8)


def half_extent(width: float, depth: float, yaw: float, u: tuple[float, float]) -> float:
    t = math.radians(yaw)
    r, f = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    return 0.5 * (width * abs(r[0] * u[0] + r[1] * u[1]) + depth * abs(f[0] * u[0] + f[1] * u[1]))


def directions(yaws: list[float]) -> list[float]:
    """Edge-normal directions (degrees in [0, 180)) of boxes at the given yaws."""
    return sorted({round(y % 90.0, 6) for y in yaws} | {round(y % 90.0 + 90.0, 6) for y in yaws})


class Model:
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


def add(*terms: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for term in terms:
        for k, v in term.items():
            out[k] = out.get(k, 0.0) + v
    return out


def scale(term: dict[int, float], c: float) -> dict[int, float]:
    return {k: c * v for k, v in term.items()}


@dataclass
class Body:
    """A box whose centre is (x, y) linear expressions and whose yaw is option k when binary t[k] = 1."""

    x: dict[int, float]
    y: dict[int, float]
    width: float
    depth: float
    yaws: list[float]
    t: list[int]

    def half(self, u: tuple[float, float]) -> dict[int, float]:
        """Half extent along unit vector u as a linear expression of the yaw binaries."""
        return {t: half_extent(self.width, self.depth, yaw, u) for t, yaw in zip(self.t, self.yaws, strict=True)}

    def along(self, u: tuple[float, float]) -> dict[int, float]:
        return add(scale(self.x, u[0]), scale(self.y, u[1]))



class BuilderBase:
    """The variables of one scene (centres, heights, yaw binaries) and the big-M rows on them."""

    def __init__(self, scene: Scene, relations: list[Relation], yaws: list[list[float]], strict: bool,
                 floor: list[bool]) -> None:
        self.scene, self.relations, self.strict = scene, relations, strict
        self.index = scene.index()
        room = scene.room
        self.room = (room.width, room.depth, room.height)
        diag = max(math.hypot(o.width, o.depth) for o in scene.objects)
        self.big = room.width + room.depth + 2 * diag + 2 * max(DEFAULT_CLEARANCE, 3.0) + 2.0
        self.m = Model()
        self.bodies: list[Body] = []
        self.z: list[int] = []
        for i, obj in enumerate(scene.objects):
            x = self.m.var(-1.0, room.width + 1.0)
            y = self.m.var(-1.0, room.depth + 1.0)
            zl = 0.0 if floor[i] else -OUT_OF_ROOM_TOL
            zh = 0.0 if floor[i] else room.height
            self.z.append(self.m.var(zl, zh))
            ts = [self.m.var(0.0, 1.0, integer=True) for _ in yaws[i]]
            self.m.row(dict.fromkeys(ts, 1.0), 1.0, 1.0)
            self.bodies.append(Body({x: 1.0}, {y: 1.0}, obj.width, obj.depth, yaws[i], ts))
        self.binaries = sum(len(b.t) for b in self.bodies)

    # ---------------------------------------------------------------- helpers
    def _binary(self) -> int:
        self.binaries += 1
        return self.m.var(0.0, 1.0, integer=True)

    def _le_if(self, lhs: dict[int, float], rhs: float, t: int) -> None:
        """lhs <= rhs whenever binary t = 1 (lhs + big t <= rhs + big)."""
        self.m.row(add(lhs, {t: self.big}), hi=rhs + self.big)
