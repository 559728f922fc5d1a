"""Scene input: room, sized objects and relations, with the conventions of the R^3L contract."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CORNER_WALLS",
    "DEFAULT_CLEARANCE",
    "EGOCENTRIC",
    "COMPASS",
    "Opening",
    "SINGLE_TYPES",
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
    "align",
    "around",
    "corner",
    "clearance",
]
Corner = Literal["north_east", "north_west", "south_east", "south_west"]
Axis = Literal["x", "y"]
RELATION_TYPES: tuple[str, ...] = RelationType.__args__  # type: ignore[attr-defined]
EGOCENTRIC = ("left_of", "right_of", "in_front_of", "behind")
COMPASS = ("west_of", "east_of", "south_of", "north_of")
PAIR_TYPES = (*EGOCENTRIC, *COMPASS, "near", "far", "on_top_of", "align", "around")
SINGLE_TYPES = ("against_wall", "corner", "clearance")  # facing takes either an object or a wall
CORNER_WALLS: dict[str, tuple[str, str]] = {
    "north_east": ("north", "east"), "north_west": ("north", "west"),
    "south_east": ("south", "east"), "south_west": ("south", "west"),
}
DEFAULT_CLEARANCE = 0.6  # m of free floor in front of an object when a clearance relation names no distance
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
    """One relation `{type, a, b}` (a = subject, b = reference), `{type, a, wall}`, `{corner, a, corner}`,
    `{align, a, b, axis}` or `{clearance, a, distance}`."""

    model_config = ConfigDict(extra="forbid")
    type: RelationType
    a: str = Field(..., min_length=1, max_length=40)
    b: str | None = Field(None, max_length=40)
    wall: Wall | None = None
    corner: Corner | None = Field(None, description="Room corner of a corner relation")
    axis: Axis | None = Field(
        None, description="align: 'x' = same x (on one north-south line), 'y' = same y (on one east-west line)")
    distance: float | None = Field(
        None, ge=0.2, le=3.0, description="clearance: free floor depth in front of the object, m (default 0.6)")

    def objects(self) -> tuple[str, ...]:
        """Names of the objects the relation mentions (one for wall relations)."""
        return (self.a,) if self.b is None else (self.a, self.b)

    def key(self) -> tuple[str, str, str | None, str | None]:
        return (self.type, self.a, self.b, self.wall or self.corner or self.axis)


class Opening(BaseModel):
    """A door or window in a wall; furniture keeps the floor zone in front of it free (for a window,
    only furniture taller than the sill)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., min_length=1, max_length=40, description="Name shown on the plan")
    kind: Literal["door", "window"] = "door"
    wall: Wall
    offset: float = Field(..., ge=0.0, le=30.0, description="Distance from the wall's west or south end to the opening's near edge, m")
    width: float = Field(0.9, ge=0.3, le=10.0, description="Opening width along the wall, m")
    clearance: float = Field(0.9, ge=0.1, le=3.0, description="Depth of the free zone into the room, m")
    sill: float = Field(0.9, ge=0.0, le=3.0, description="Window sill height: only furniture taller than this blocks a window, m")

    def zone(self, room: Room) -> tuple[float, float, float, float]:
        """Return the free zone as (x_min, y_min, x_max, y_max) on the floor."""
        lo, hi = self.offset, self.offset + self.width
        if self.wall == "south":
            return (lo, 0.0, hi, self.clearance)
        if self.wall == "north":
            return (lo, room.depth - self.clearance, hi, room.depth)
        if self.wall == "west":
            return (0.0, lo, self.clearance, hi)
        return (room.width - self.clearance, lo, room.width, hi)

    def blocks(self, height_top: float) -> bool:
        """Whether furniture reaching up to `height_top` (m) must stay out of the zone."""
        return self.kind == "door" or height_top > self.sill


class Scene(BaseModel):
    """A room, its objects and the relations between them (relations may come from sentences)."""

    model_config = ConfigDict(extra="forbid")
    room: Room = Field(default_factory=lambda: Room())
    objects: list[Obj] = Field(default_factory=list, max_length=60)
    relations: list[Relation] = Field(default_factory=list, max_length=300)
    openings: list[Opening] = Field(default_factory=list, max_length=12, description="Doors and windows")

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
