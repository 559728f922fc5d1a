"""Footprint geometry against brute force and known answers; losses agree with the exact checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from models.layout.geometry import collisions, convex_overlap_area, footprint, footprint_gap, out_of_room
from models.layout.losses import CompiledRelations, pair_gap, relation_residuals, sat_overlap
from models.layout.relations import check_relation
from tests.models.layout.helpers import rel


def inside(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    ok = np.ones(len(pts), dtype=bool)
    for i in range(4):
        a, b = poly[i], poly[(i + 1) % 4]
        ok &= (b[0] - a[0]) * (pts[:, 1] - a[1]) - (b[1] - a[1]) * (pts[:, 0] - a[0]) >= 0
    return ok


@pytest.mark.parametrize("seed", range(6))
def test_overlap_area_matches_grid_count(seed: int) -> None:
    rng = np.random.default_rng(seed)
    p = footprint(0.0, 0.0, rng.uniform(-180, 180), rng.uniform(0.5, 2), rng.uniform(0.5, 2))
    q = footprint(*rng.uniform(-0.8, 0.8, 2), rng.uniform(-180, 180), rng.uniform(0.5, 2), rng.uniform(0.5, 2))
    g = np.linspace(-2.5, 2.5, 801)
    xx, yy = np.meshgrid(g, g)
    pts = np.stack([xx.ravel(), yy.ravel()], 1)
    cell = (g[1] - g[0]) ** 2
    brute = float((inside(p, pts) & inside(q, pts)).sum() * cell)
    assert convex_overlap_area(p, q) == pytest.approx(brute, abs=0.02)


def test_gap_known_answers() -> None:
    a = footprint(0, 0, 0, 1, 1)
    assert footprint_gap(a, footprint(2, 0, 0, 1, 1)) == pytest.approx(1.0)
    assert footprint_gap(a, footprint(2, 2, 0, 1, 1)) == pytest.approx(math.sqrt(2))
    assert footprint_gap(a, footprint(0.5, 0.5, 45, 1, 1)) == 0.0
    # a diamond whose corner points at a's edge from 1 m away
    assert footprint_gap(a, footprint(0.5 + 1 + math.sqrt(0.5), 0, 45, 1, 1)) == pytest.approx(1.0)


def test_stacked_boxes_do_not_collide_but_overlapping_ones_do() -> None:
    sizes = np.array([[1.0, 1.0, 0.5], [0.4, 0.4, 0.3], [1.0, 1.0, 0.5]])
    poses = np.array([[1, 1, 0, 0], [1, 1, 0.5, 30], [3, 3, 0, 0]], dtype=float)
    assert collisions(poses, sizes) == []
    poses[2] = [1.5, 1.5, 0, 0]  # 0.25 m^2 overlap with the first
    hits = collisions(poses, sizes)
    assert [(i, j) for i, j, _ in hits] == [(0, 2)] and hits[0][2] == pytest.approx(0.25)
    poses[2] = [1.99, 1.0, 0, 0]  # 0.01 x 1 = 0.01 m^2 > 1e-4
    assert len(collisions(poses, sizes)) == 1
    poses[2] = [2.00005, 1.0, 0, 0]
    assert collisions(poses, sizes) == []


def test_out_of_room() -> None:
    sizes = np.array([[1.0, 0.5, 1.0]] * 4)
    poses = np.array([[0.5, 1, 0, 0], [0.495, 1, 0, 0], [0.48, 1, 0, 0], [2, 2, 1.8, 0]], dtype=float)
    assert out_of_room(poses, sizes, (4.0, 4.0, 2.6)) == [2, 3]  # 0.02 m through the wall; above the ceiling


@pytest.mark.parametrize("seed", range(4))
def test_sat_overlap_sign_matches_exact_overlap(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(50):
        pa = (*rng.uniform(0, 3, 2), rng.uniform(-180, 180))
        pb = (*rng.uniform(0, 3, 2), rng.uniform(-180, 180))
        sa, sb = rng.uniform(0.3, 1.5, 2), rng.uniform(0.3, 1.5, 2)
        p, q = footprint(*pa, *sa), footprint(*pb, *sb)
        ca = torch.tensor(p[[0, 1, 2, 3]])[None, None]
        cb = torch.tensor(q)[None, None]
        depth = float(sat_overlap(ca, cb))
        area = convex_overlap_area(p, q)
        assert (depth > 1e-9) == (area > 1e-9)
        if area == 0:
            assert float(pair_gap(ca, cb)) == pytest.approx(footprint_gap(p, q), abs=1e-9)


@pytest.mark.parametrize("kind", ["left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of",
                                  "north_of", "facing", "near", "far", "on_top_of"])
def test_zero_residual_implies_the_exact_relation(kind: str) -> None:
    rng = np.random.default_rng(7)
    sizes = np.array([[0.5, 0.4, 0.5], [1.0, 0.6, 0.8]])
    relation = rel(kind, "a", "b")
    compiled = CompiledRelations.build([relation], {"a": 0, "b": 1})
    zeros = 0
    for _ in range(300):
        poses = np.array([[*rng.uniform(0, 5, 2), 0.8 if kind == "on_top_of" else 0.0, rng.uniform(-180, 180)],
                          [*rng.uniform(0, 5, 2), 0.0, rng.uniform(-180, 180)]])
        if kind == "on_top_of":
            poses[0, :2] = poses[1, :2] + rng.uniform(-0.5, 0.5, 2)
        t = torch.tensor(poses)[None].clone()
        t[..., 3] = torch.deg2rad(t[..., 3])
        residual = float(relation_residuals(t, torch.tensor(sizes), compiled, (5.0, 5.0, 3.0))[0, 0])
        if residual == 0.0:
            zeros += 1
            assert check_relation(relation, {"a": 0, "b": 1}, poses, sizes, (5.0, 5.0, 3.0))
    assert zeros > 5
