"""Small builders shared by the layout tests."""

from __future__ import annotations

import numpy as np

from models.layout.scene import Obj, Relation, Room, Scene


def rel(kind: str, a: str, b: str | None = None, wall: str | None = None) -> Relation:
    return Relation(type=kind, a=a, b=b, wall=wall)  # type: ignore[arg-type]


def boxes(*specs: tuple[str, float, float, float]) -> list[Obj]:
    return [Obj(name=n, width=w, depth=d, height=h) for n, w, d, h in specs]


def scene(objects: list[Obj], relations: list[Relation], room: tuple[float, float, float] = (4.0, 3.6, 2.6)) -> Scene:
    return Scene(room=Room(width=room[0], depth=room[1], height=room[2]), objects=objects, relations=relations)


def poses(*rows: tuple[float, float, float, float]) -> np.ndarray:
    return np.array(rows, dtype=float)
