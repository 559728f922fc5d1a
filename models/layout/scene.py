"""Scene input: room, sized objects and relations, with the conventions of the R^3L contract."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "EGOCENTRIC",
    "COMPASS",
    "PAIR_TYPES",
    "RELATION_TYPES",
    "WALL_YAW",
    "WALLS",
    "Obj",
    "Pose",
    "Relation",
    "Room",
    "Scene",
    "normalize_name",
]

Wall = Literal["north", "south", "east", "west"]
RelationType = Literal[
    "left_of",
    "right_of",
    "in_front_of",
    "behind",
    "west_of",
    "east_of",
    "south_of",
    "north_of",
    "facing",
    "near",
    "far",
    "against_wall",
    "on_top_of",
]
RELATION_TYPES: tuple[str, ...] = RelationType.__args__  # type: ignore[attr-defined]
EGOCENTRIC = ("left_of", "right_of", "in_front_of", "behind")
COMPASS = ("west_of", "east_of", "south_of", "north_of")
PAIR_TYPES = (*EGOCENTRIC, *COMPASS, "near", "far", "on_top_of")
WALLS: tuple[str, ...] = ("south", "north", "west", "east")
# Yaw (degrees) of an object whose forward points along the wall's inward normal: against the south
# wall it faces north (yaw 0), against the north wall it faces south (180), against the west wall it
# faces east (-90), against the east wall it faces west (90).
WALL_YAW: dict[str, float] = {"south": 0.0, "north": 180.0, "west": -90.0, "east": 90.0}


def normalize_name(name: str) -> str:
    """Return a name in the form the sentence parser compares: lower case, single spaces, no '_'."""
    return " ".join(name.replace("_", " ").replace("-", " ").lower().split())


class Room(BaseModel):
    """A box room: x in [0, width] west->east, y in [0, depth] south->north, z in [0, height]."""

    model_config = ConfigDict(extra="forbid")
    width: float = Field(default=4.0, ge=0.5, le=30.0, description="Room extent along x (west to east), m")
    depth: float = Field(default=3.6, ge=0.5, le=30.0, description="Room extent along y (south to north), m")
    height: float = Field(default=2.6, ge=0.5, le=10.0, description="Ceiling height, m")


class Obj(BaseModel):
    """An object box: width along its right axis, depth along its forward axis, height along z."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., min_length=1, max_length=40, description="Unique object name")
    width: float = Field(..., ge=0.05, le=30.0, description="Extent along the object's right axis, m")
    depth: float = Field(..., ge=0.05, le=30.0, description="Extent along the object's forward axis, m")
    height: float = Field(..., ge=0.02, le=10.0, description="Extent along z, m")
    yaw: float | None = Field(None, ge=-180.0, le=180.0, description="Fixed yaw in degrees (optional)")


class Relation(BaseModel):
    """One relation `{type, a, b}` (a = subject, b = reference) or `{type, a, wall}`."""

    model_config = ConfigDict(extra="forbid")
    type: RelationType
    a: str = Field(..., min_length=1, max_length=40)
    b: str | None = Field(None, max_length=40)
    wall: Wall | None = None

    def objects(self) -> tuple[str, ...]:
        """Names of the objects the relation mentions (one for wall relations)."""
        return (self.a,) if self.b is None else (self.a, self.b)

    def key(self) -> tuple[str, str, str | None, str | None]:
        return (self.type, self.a, self.b, self.wall)


class Scene(BaseModel):
    """A room, its objects and the relations between them (relations may come from sentences)."""

    model_config = ConfigDict(extra="forbid")
    room: Room = Field(default_factory=lambda: Room())
    objects: list[Obj] = Field(default_factory=list, max_length=60)
    relations: list[Relation] = Field(default_factory=list, max_length=300)

    def index(self) -> dict[str, int]:
        return {o.name: i for i, o in enumerate(self.objects)}


class Pose(BaseModel):
    """Footprint centre (x, y), base elevation z and yaw in degrees (counter-clockwise, 0 = +y)."""

    x: float
    y: float
    z: float = 0.0
    yaw: float = 0.0

    def forward(self) -> tuple[float, float]:
        t = math.radians(self.yaw)
        return (-math.sin(t), math.cos(t))
