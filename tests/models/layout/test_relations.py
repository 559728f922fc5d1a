"""Every relation's exact check on hand-built poses, true and false, including a reference at yaw 30."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.layout.relations import check_relation
from tests.models.layout.helpers import rel

ROOM = (6.0, 6.0, 3.0)
INDEX = {"a": 0, "b": 1}
# a: 0.4 x 0.4 x 0.5 box, b: 1.0 wide, 0.6 deep, 0.8 tall
SIZES = np.array([[0.4, 0.4, 0.5], [1.0, 0.6, 0.8]])


def at_offset(yaw_b: float, u: float, v: float, yaw_a: float | None = None, z_a: float = 0.0) -> np.ndarray:
    """Poses with b at (3, 3) with yaw_b and a at b + u * r_b + v * f_b."""
    t = math.radians(yaw_b)
    r, f = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    ca = np.array([3.0, 3.0]) + u * r + v * f
    return np.array([[ca[0], ca[1], z_a, yaw_b if yaw_a is None else yaw_a], [3.0, 3.0, 0.0, yaw_b]])


def holds(kind: str, p: np.ndarray, b: str | None = "b", wall: str | None = None) -> bool:
    return check_relation(rel(kind, "a", None if wall else b, wall), INDEX, p, SIZES, ROOM)


@pytest.mark.parametrize("yaw", [0.0, 30.0, 90.0, -135.0])
def test_egocentric_relations_in_the_reference_frame(yaw: float) -> None:
    # a's half extent in b's frame is 0.2 (same yaw); b's half width 0.5, half depth 0.3
    assert holds("left_of", at_offset(yaw, -0.75, 0.0))
    assert not holds("left_of", at_offset(yaw, -0.6, 0.0))  # a's right edge at -0.4 > -0.5 + 0.02
    assert holds("left_of", at_offset(yaw, -0.69, 0.0))  # right edge at -0.49: inside the 0.02 slack
    assert holds("right_of", at_offset(yaw, 0.75, 0.0))
    assert not holds("right_of", at_offset(yaw, -0.75, 0.0))
    assert holds("in_front_of", at_offset(yaw, 0.0, 0.55))
    assert not holds("in_front_of", at_offset(yaw, 0.0, 0.3))
    assert holds("behind", at_offset(yaw, 0.0, -0.55))
    assert not holds("behind", at_offset(yaw, 0.0, 0.55))


def test_left_of_uses_every_corner_of_a_rotated_subject() -> None:
    # a turned by 45 degrees reaches 0.2 * sqrt(2) ~ 0.283 along b's right axis
    assert not holds("left_of", at_offset(30.0, -0.75, 0.0, yaw_a=75.0))
    assert holds("left_of", at_offset(30.0, -0.79, 0.0, yaw_a=75.0))


def test_compass_relations_in_the_room_frame() -> None:
    p = np.array([[1.0, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]])
    assert holds("west_of", p) and not holds("east_of", p)
    p = np.array([[5.0, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]])
    assert holds("east_of", p) and not holds("west_of", p)
    p = np.array([[3.0, 1.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]])
    assert holds("south_of", p) and not holds("north_of", p)
    p = np.array([[3.0, 5.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]])
    assert holds("north_of", p) and not holds("south_of", p)
    # b at yaw 30 spans x in 3 +- (0.5 cos30 + 0.3 sin30) = 3 +- 0.583; a (0.4 wide) ends 0.2 right of its centre
    assert holds("west_of", np.array([[2.2, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]]))
    assert not holds("west_of", np.array([[2.3, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 30.0]]))


def test_facing_within_thirty_degrees() -> None:
    # a at (3, 1) looks at b at (3, 3): yaw 0 faces +y
    for yaw, ok in [(0.0, True), (29.0, True), (-29.0, True), (31.0, False), (180.0, False)]:
        p = np.array([[3.0, 1.0, 0.0, yaw], [3.0, 3.0, 0.0, 0.0]])
        assert holds("facing", p) is ok, yaw
    # yaw 30 from (1, 1) towards (1 - sin30 * 2, 1 + cos30 * 2)
    p = np.array([[1.0, 1.0, 0.0, 30.0], [1.0 - 2 * math.sin(math.radians(30)), 1.0 + 2 * math.cos(math.radians(30)), 0, 0]])
    assert holds("facing", p)
    assert holds("facing", np.array([[3.0, 3.0, 0.0, 90.0], [3.0, 3.0, 0.0, 0.0]]), wall="west")
    assert not holds("facing", np.array([[3.0, 3.0, 0.0, 90.0], [3.0, 3.0, 0.0, 0.0]]), wall="east")


def test_near_and_far_by_footprint_gap() -> None:
    # centres 1.5 apart along x: gap = 1.5 - 0.2 - 0.5 = 0.8
    p = np.array([[1.5, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 0.0]])
    assert holds("near", p) and not holds("far", p)
    p = np.array([[0.7, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 0.0]])  # gap 1.6
    assert holds("far", p) and not holds("near", p)
    p = np.array([[1.2, 3.0, 0.0, 0.0], [3.0, 3.0, 0.0, 0.0]])  # gap 1.1: neither
    assert not holds("near", p) and not holds("far", p)
    # diagonal gap: corner to corner
    p = np.array([[3.0 - 0.5 - 0.2 - 0.8, 3.0 - 0.3 - 0.2 - 0.8, 0.0, 0.0], [3.0, 3.0, 0.0, 0.0]])
    assert not holds("near", p)  # gap = 0.8 * sqrt(2) = 1.13


@pytest.mark.parametrize("wall,pose,ok", [
    ("south", (3.0, 0.25, 0.0, 0.0), True),
    ("south", (3.0, 0.35, 0.0, 0.0), False),  # 0.15 m from the wall
    ("south", (3.0, 0.25, 0.0, 15.0), False),  # turned beyond 10 degrees
    ("south", (3.0, 0.25, 0.0, 180.0), False),  # back to the room
    ("north", (3.0, 5.75, 0.0, 180.0), True),
    ("west", (0.25, 3.0, 0.0, -90.0), True),
    ("east", (5.75, 3.0, 0.0, 90.0), True),
    ("east", (5.75, 3.0, 0.0, -90.0), False),
])
def test_against_wall(wall: str, pose: tuple[float, float, float, float], ok: bool) -> None:
    p = np.array([pose, [3.0, 3.0, 0.0, 0.0]])
    assert holds("against_wall", p, wall=wall) is ok


def test_on_top_of_needs_height_and_centre_inside() -> None:
    assert holds("on_top_of", at_offset(30.0, 0.3, 0.1, z_a=0.8))
    assert holds("on_top_of", at_offset(30.0, 0.3, 0.1, z_a=0.815))
    assert not holds("on_top_of", at_offset(30.0, 0.3, 0.1, z_a=0.85))  # floating
    assert not holds("on_top_of", at_offset(30.0, 0.55, 0.0, z_a=0.8))  # centre outside b
    assert not holds("on_top_of", at_offset(30.0, 0.0, 0.35, z_a=0.8))
