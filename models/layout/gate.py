"""The one exact check every reported layout passes before it may be called `ok`.

It runs on the layout as the result reports it (the rounded poses a user downloads), after whichever
solver produced it, and it is called from the result model's own validator: no code path can build an
`ok` result whose layout fails an exact check (a relation, a collision, an object out of the room, a
blocked door or window). A failing layout is reported `unsolved`, with what failed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from models.layout.geometry import collisions, out_of_room
from models.layout.relations import blocked_openings, check_all
from models.layout.scene import Obj, Opening, Relation, Room, Scene

__all__ = ["ReportedLayout", "exact_violations", "reported_violations"]


class _Pose(Protocol):
    x: float
    y: float
    z: float
    yaw: float


class _KeptRelation(Protocol):
    index: int
    type: str
    a: str
    b: str | None
    wall: str | None
    corner: str | None
    axis: str | None
    distance: float | None
    dropped: bool


class ReportedLayout(Protocol):
    """What the gate reads of a result (models.layout.result.Result has it): the gate sits below the result."""

    @property
    def layout(self) -> Mapping[str, _Pose]: ...
    @property
    def boxes(self) -> Sequence[Obj]: ...
    @property
    def relations(self) -> Sequence[_KeptRelation]: ...
    @property
    def room(self) -> Room: ...
    @property
    def openings(self) -> Sequence[Opening]: ...


def exact_violations(scene: Scene, relations: list[Relation], poses: np.ndarray) -> list[str]:
    """Describe everything the exact checks reject in a layout (empty when it is clean)."""
    return [text for text, _ in _violations(scene, relations, poses)]


def _violations(scene: Scene, relations: list[Relation], poses: np.ndarray) -> list[tuple[str, int | None]]:
    index = scene.index()
    names = [o.name for o in scene.objects]
    sizes = np.array([[o.width, o.depth, o.height] for o in scene.objects], dtype=float)
    room = (scene.room.width, scene.room.depth, scene.room.height)
    verdicts = check_all(relations, index, poses, sizes, room)
    out: list[tuple[str, int | None]] = [(f"relation {k} ({r.type})", k)
                                         for k, (r, ok) in enumerate(zip(relations, verdicts, strict=True)) if not ok]
    out += [(f"{names[i]} collides with {names[j]}", None) for i, j, _ in collisions(poses, sizes)]
    out += [(f"{names[i]} is out of the room", None) for i in out_of_room(poses, sizes, room)]
    out += [(f"{o} blocks {d}", None) for d, o in blocked_openings(scene, poses, sizes)]
    return out


def reported_violations(result: ReportedLayout) -> list[tuple[str, int | None]]:
    """What the exact checks reject in the result's own layout, over the relations it kept (not dropped);
    a relation's entry carries its index in `result.relations`."""
    if set(result.layout) != {b.name for b in result.boxes}:
        return [("the layout does not place every object", None)]
    kept = [r for r in result.relations if not r.dropped]
    relations = [Relation(type=r.type, a=r.a, b=r.b, wall=r.wall, corner=r.corner, axis=r.axis,  # type: ignore[arg-type]
                          distance=r.distance) for r in kept]
    scene = Scene(room=result.room, objects=result.boxes, openings=result.openings, relations=[])
    poses = np.array([[result.layout[b.name].x, result.layout[b.name].y, result.layout[b.name].z,
                       result.layout[b.name].yaw] for b in result.boxes], dtype=float)
    return [(text, None if k is None else kept[k].index) for text, k in _violations(scene, relations, poses)]
