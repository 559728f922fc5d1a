"""Exact checks of every relation type by the geometric definitions of the R^3L contract."""

from __future__ import annotations

import math

import numpy as np

from models.layout.geometry import (
    COLLISION_AREA,
    OUT_OF_ROOM_TOL,
    convex_overlap_area,
    footprint,
    footprint_gap,
    frame,
)
from models.layout.scene import CORNER_WALLS, DEFAULT_CLEARANCE, Relation, Scene

__all__ = [
    "FACING_DEG",
    "NEAR_GAP",
    "FAR_GAP",
    "SLACK",
    "WALL_DEG",
    "WALL_DIST",
    "WALL_NORMAL_IN",
    "blocked_openings",
    "check_relation",
    "check_all",
    "clearance_zone",
    "rectangle",
]

SLACK = 0.02  # m, directional and support slack
FACING_DEG = 30.0
NEAR_GAP = 1.0
FAR_GAP = 1.5
WALL_DIST = 0.10
WALL_DEG = 10.0
# Inward normal of each wall (the direction an object against that wall faces).
WALL_NORMAL_IN: dict[str, tuple[float, float]] = {
    "south": (0.0, 1.0),
    "north": (0.0, -1.0),
    "west": (1.0, 0.0),
    "east": (-1.0, 0.0),
}


def _angle_deg(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu < 1e-12 or nv < 1e-12:
        return 180.0
    return math.degrees(math.acos(float(np.clip(np.dot(u, v) / (nu * nv), -1.0, 1.0))))


def _wall_distance(corners: np.ndarray, wall: str, room: tuple[float, float, float]) -> float:
    """Distance from the wall to the nearest footprint point (negative when a corner pokes through)."""
    if wall == "south":
        return float(corners[:, 1].min())
    if wall == "north":
        return float(room[1] - corners[:, 1].max())
    if wall == "west":
        return float(corners[:, 0].min())
    return float(room[0] - corners[:, 0].max())


def rectangle(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Return an axis-aligned rectangle as 4 counter-clockwise corners."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)


def clearance_zone(pose: np.ndarray, size: np.ndarray, distance: float) -> np.ndarray:
    """Return the floor rectangle (4, 2) of depth `distance` in front of an object, as wide as the object."""
    _, fwd = frame(float(pose[3]))
    centre = np.asarray(pose[:2], dtype=float) + fwd * (size[1] / 2 + distance / 2)
    return footprint(centre[0], centre[1], float(pose[3]), float(size[0]), distance)


def _zone_is_free(zone: np.ndarray, skip: int, poses: np.ndarray, sizes: np.ndarray,
                  room: tuple[float, float, float]) -> bool:
    tol = OUT_OF_ROOM_TOL
    if zone[:, 0].min() < -tol or zone[:, 0].max() > room[0] + tol or zone[:, 1].min() < -tol or zone[:, 1].max() > room[1] + tol:
        return False
    for j in range(len(poses)):
        if j == skip:
            continue
        other = footprint(poses[j, 0], poses[j, 1], poses[j, 3], sizes[j, 0], sizes[j, 1])
        if convex_overlap_area(zone, other) > COLLISION_AREA:
            return False
    return True


def blocked_openings(scene: Scene, poses: np.ndarray, sizes: np.ndarray) -> list[tuple[str, str]]:
    """Return (opening, object) pairs where furniture stands in a door's or window's free zone
    (overlap above 1e-4 m^2, the collision tolerance; for a window only objects taller than the sill)."""
    found: list[tuple[str, str]] = []
    for opening in scene.openings:
        zone = rectangle(*opening.zone(scene.room))
        for j, obj in enumerate(scene.objects):
            if not opening.blocks(float(poses[j, 2] + sizes[j, 2])):
                continue
            print_j = footprint(poses[j, 0], poses[j, 1], poses[j, 3], sizes[j, 0], sizes[j, 1])
            if convex_overlap_area(zone, print_j) > COLLISION_AREA:
                found.append((opening.name, obj.name))
    return found


def check_relation(
    rel: Relation, index: dict[str, int], poses: np.ndarray, sizes: np.ndarray, room: tuple[float, float, float]
) -> bool:
    """Return whether `rel` holds for poses (N, 4: x, y, z, yaw deg) and sizes (N, 3: w, d, h).

    Names follow the R^3L code's constraint vocabulary (solvers/r3l/dsl/parse_constraints.py); the geometric
    definitions and slacks are this demo's exact contract.
    """
    ia = index[rel.a]
    pa = poses[ia]
    wa, da, _ = sizes[ia]
    corners_a = footprint(pa[0], pa[1], pa[3], wa, da)
    if rel.type == "against_wall":
        assert rel.wall is not None
        _, fwd = frame(pa[3])
        dist = _wall_distance(corners_a, rel.wall, room)
        return abs(dist) <= WALL_DIST and _angle_deg(fwd, np.array(WALL_NORMAL_IN[rel.wall])) <= WALL_DEG
    if rel.type == "corner":
        assert rel.corner is not None
        return all(abs(_wall_distance(corners_a, wall, room)) <= WALL_DIST for wall in CORNER_WALLS[rel.corner])
    if rel.type == "clearance":
        distance = rel.distance if rel.distance is not None else DEFAULT_CLEARANCE
        return _zone_is_free(clearance_zone(pa, sizes[ia], distance), ia, poses, sizes, room)
    if rel.type == "facing" and rel.wall is not None:
        _, fwd = frame(pa[3])
        toward = -np.array(WALL_NORMAL_IN[rel.wall])
        return _angle_deg(fwd, toward) <= FACING_DEG
    assert rel.b is not None
    return _check_pair(rel, ia, index[rel.b], poses, sizes)


def _check_pair(rel: Relation, ia: int, ib: int, poses: np.ndarray, sizes: np.ndarray) -> bool:
    """Whether a two-object relation holds between objects ia (a) and ib (b, the reference)."""
    pa = poses[ia]
    wa, da, _ = sizes[ia]
    corners_a = footprint(pa[0], pa[1], pa[3], wa, da)
    ca = pa[:2]
    pb = poses[ib]
    wb, db, hb = sizes[ib]
    cb = pb[:2]
    rb, fb = frame(pb[3])
    rel_corners = corners_a - cb
    if rel.type == "left_of":
        return bool((rel_corners @ rb <= -wb / 2 + SLACK).all())
    if rel.type == "right_of":
        return bool((rel_corners @ rb >= wb / 2 - SLACK).all())
    if rel.type == "in_front_of":
        return bool((rel_corners @ fb >= db / 2 - SLACK).all())
    if rel.type == "behind":
        return bool((rel_corners @ fb <= -db / 2 + SLACK).all())
    corners_b = footprint(pb[0], pb[1], pb[3], wb, db)
    if rel.type == "west_of":
        return bool(corners_a[:, 0].max() <= corners_b[:, 0].min() + SLACK)
    if rel.type == "east_of":
        return bool(corners_a[:, 0].min() >= corners_b[:, 0].max() - SLACK)
    if rel.type == "south_of":
        return bool(corners_a[:, 1].max() <= corners_b[:, 1].min() + SLACK)
    if rel.type == "north_of":
        return bool(corners_a[:, 1].min() >= corners_b[:, 1].max() - SLACK)
    if rel.type == "facing":
        _, fwd = frame(pa[3])
        return _angle_deg(fwd, cb - ca) <= FACING_DEG
    if rel.type == "align":
        gaps = [abs(float(ca[k] - cb[k])) for k in (0, 1)]
        if rel.axis is not None:
            return gaps[0 if rel.axis == "x" else 1] <= SLACK
        return min(gaps) <= SLACK
    if rel.type == "around":  # a sits around centre object b: near it and facing it
        _, fwd = frame(pa[3])
        return footprint_gap(corners_a, corners_b) <= NEAR_GAP and _angle_deg(fwd, cb - ca) <= FACING_DEG
    if rel.type == "near":
        return footprint_gap(corners_a, corners_b) <= NEAR_GAP
    if rel.type == "far":
        return footprint_gap(corners_a, corners_b) >= FAR_GAP
    if rel.type == "on_top_of":
        local = ca - cb
        inside = abs(float(local @ rb)) <= wb / 2 + 1e-9 and abs(float(local @ fb)) <= db / 2 + 1e-9
        return abs(pa[2] - (pb[2] + hb)) <= SLACK and inside
    raise ValueError(f"unknown relation type {rel.type}")


def check_all(
    relations: list[Relation], index: dict[str, int], poses: np.ndarray, sizes: np.ndarray,
    room: tuple[float, float, float],
) -> list[bool]:
    """Return the verdict of every relation, in order."""
    return [bool(check_relation(r, index, poses, sizes, room)) for r in relations]
