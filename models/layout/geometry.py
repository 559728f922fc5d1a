"""Exact footprint geometry in numpy: corners, frames, overlap area, gaps, collisions, room bounds."""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "COLLISION_AREA",
    "OUT_OF_ROOM_TOL",
    "VERTICAL_TOL",
    "collisions",
    "convex_overlap_area",
    "footprint",
    "footprint_gap",
    "frame",
    "out_of_room",
    "vertical_overlap",
]

COLLISION_AREA = 1e-4  # m^2 of footprint overlap above which two boxes collide
VERTICAL_TOL = 0.01  # m of vertical overlap above which two footprints can collide
OUT_OF_ROOM_TOL = 0.01  # m a corner may lie outside a wall (or below the floor / above the ceiling)


def frame(yaw_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Return (right, forward) unit vectors: r = (cos yaw, sin yaw), f = (-sin yaw, cos yaw)."""
    t = math.radians(yaw_deg)
    return np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])


def footprint(x: float, y: float, yaw_deg: float, width: float, depth: float) -> np.ndarray:
    """Return the 4 footprint corners (counter-clockwise) of a box, shape (4, 2)."""
    r, f = frame(yaw_deg)
    c = np.array([x, y])
    hw, hd = width / 2.0, depth / 2.0
    return np.array([c - hw * r - hd * f, c + hw * r - hd * f, c + hw * r + hd * f, c - hw * r + hd * f])


def _clip(subject: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Keep the part of polygon `subject` left of the directed edge a->b (Sutherland-Hodgman)."""
    if len(subject) == 0:
        return subject
    edge = b - a

    def side(p: np.ndarray) -> float:
        return float(edge[0] * (p[1] - a[1]) - edge[1] * (p[0] - a[0]))

    out: list[np.ndarray] = []
    for i in range(len(subject)):
        cur, nxt = subject[i], subject[(i + 1) % len(subject)]
        s_cur, s_nxt = side(cur), side(nxt)
        if s_cur >= 0:
            out.append(cur)
        if (s_cur >= 0) != (s_nxt >= 0):
            t = s_cur / (s_cur - s_nxt)
            out.append(cur + t * (nxt - cur))
    return np.array(out) if out else np.zeros((0, 2))


def _area(poly: np.ndarray) -> float:
    if len(poly) < 3:
        return 0.0
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def convex_overlap_area(p: np.ndarray, q: np.ndarray) -> float:
    """Return the area of the intersection of two counter-clockwise convex polygons."""
    poly = p
    for i in range(len(q)):
        poly = _clip(poly, q[i], q[(i + 1) % len(q)])
        if len(poly) == 0:
            return 0.0
    return _area(poly)


def _point_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-18), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def footprint_gap(p: np.ndarray, q: np.ndarray) -> float:
    """Return the Euclidean distance between two convex footprints (0 when they touch or overlap)."""
    if convex_overlap_area(p, q) > 0.0:
        return 0.0
    best = math.inf
    for poly, other in ((p, q), (q, p)):
        for v in poly:
            for i in range(len(other)):
                best = min(best, _point_segment(v, other[i], other[(i + 1) % len(other)]))
    return best


def vertical_overlap(z1: float, h1: float, z2: float, h2: float) -> float:
    """Return the length of the overlap of the vertical ranges [z1, z1+h1] and [z2, z2+h2]."""
    return max(0.0, min(z1 + h1, z2 + h2) - max(z1, z2))


def collisions(poses: np.ndarray, sizes: np.ndarray) -> list[tuple[int, int, float]]:
    """Return colliding pairs (i, j, overlap area): footprint overlap > 1e-4 m^2, vertical > 0.01 m.

    `poses` is (N, 4) = x, y, z, yaw in degrees; `sizes` is (N, 3) = width, depth, height.
    """
    n = len(poses)
    prints = [footprint(poses[i, 0], poses[i, 1], poses[i, 3], sizes[i, 0], sizes[i, 1]) for i in range(n)]
    radius = 0.5 * np.hypot(sizes[:, 0], sizes[:, 1])
    found: list[tuple[int, int, float]] = []
    for i in range(n):
        for j in range(i + 1, n):
            if np.hypot(*(poses[i, :2] - poses[j, :2])) > radius[i] + radius[j]:
                continue
            if vertical_overlap(poses[i, 2], sizes[i, 2], poses[j, 2], sizes[j, 2]) <= VERTICAL_TOL:
                continue
            area = convex_overlap_area(prints[i], prints[j])
            if area > COLLISION_AREA:
                found.append((i, j, area))
    return found


def out_of_room(poses: np.ndarray, sizes: np.ndarray, room: tuple[float, float, float]) -> list[int]:
    """Return indices of objects with a corner outside the room by > 0.01 m, below floor or above ceiling."""
    width, depth, height = room
    tol = OUT_OF_ROOM_TOL
    bad: list[int] = []
    for i in range(len(poses)):
        corners = footprint(poses[i, 0], poses[i, 1], poses[i, 3], sizes[i, 0], sizes[i, 1])
        outside = (
            corners[:, 0].min() < -tol
            or corners[:, 0].max() > width + tol
            or corners[:, 1].min() < -tol
            or corners[:, 1].max() > depth + tol
            or poses[i, 2] < -tol
            or poses[i, 2] + sizes[i, 2] > height + tol
        )
        if outside:
            bad.append(i)
    return bad
