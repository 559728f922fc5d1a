"""Constructive imagination: lay each cluster out in its anchor's frame, then place clusters in the room
(walls first) by scoring a grid of candidate anchor poses; also the random start of the ablation."""

from __future__ import annotations

import math

import numpy as np
import torch

from models.layout.decomposition import Cluster
from models.layout.losses import (
    CompiledRelations,
    collision_residuals,
    corners,
    opening_residuals,
    relation_residuals,
    room_residuals,
    sat_overlap,
)
from models.layout.problem import Problem

__all__ = ["imagine", "local_layout", "place_cluster", "random_layout"]

GAP = 0.08  # m left between a member and the object it is stated relative to
_SIDE = {"left_of": ("r", -1.0), "right_of": ("r", 1.0), "in_front_of": ("f", 1.0), "behind": ("f", -1.0)}


def _axes(yaw_deg: float) -> tuple[np.ndarray, np.ndarray]:
    t = math.radians(yaw_deg)
    return np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])


def _half_along(sizes: np.ndarray, i: int, yaw_deg: float, u: np.ndarray) -> float:
    r, f = _axes(yaw_deg)
    return 0.5 * (sizes[i, 0] * abs(float(r @ u)) + sizes[i, 1] * abs(float(f @ u)))


def _yaw_towards(d: np.ndarray) -> float:
    """Yaw whose forward (-sin, cos) points along d."""
    return math.degrees(math.atan2(-d[0], d[1]))


def local_layout(problem: Problem, cluster: Cluster, anchor_yaw: float) -> dict[int, tuple[float, float, float]]:
    """Return member poses (x, y, yaw deg) in the anchor's frame (anchor at the origin, yaw 0)."""
    local: dict[int, tuple[float, float, float]] = {cluster.anchor: (0.0, 0.0, 0.0)}
    faces = {(problem.index[r.a], problem.index[r.b]) for r in problem.relations
             if r.type in ("facing", "around") and r.b}
    groups: dict[tuple[int, str], list[int]] = {}
    for m in cluster.members:
        p, k = cluster.parent[m]
        groups.setdefault((p, problem.relations[k].type), []).append(m)
    done: set[tuple[int, str]] = set()
    for m in cluster.members:
        p, k = cluster.parent[m]
        kind = problem.relations[k].type
        if (p, kind) in done:
            continue
        done.add((p, kind))
        px, py, pyaw = local[p]
        pr, pf = _axes(pyaw)
        wp, dp = problem.sizes[p, 0], problem.sizes[p, 1]
        group = groups[(p, kind)]
        if kind == "on_top_of":
            for j, g in enumerate(group):
                u = -wp / 2 + (j + 0.5) * wp / len(group)
                yaw = problem.pins[g] - anchor_yaw if g in problem.pins else pyaw
                local[g] = (px + u * pr[0], py + u * pr[1], yaw)
            continue
        axis, sign = _SIDE[kind]
        out = sign * (pr if axis == "r" else pf)
        across = pf if axis == "r" else pr
        parent_half = (wp if axis == "r" else dp) / 2
        yaws, depth_out, width_across = [], [], []
        for g in group:
            if g in problem.pins:
                yaw = problem.pins[g] - anchor_yaw
            elif (g, p) in faces:
                yaw = _yaw_towards(-out)
            else:
                yaw = pyaw
            yaws.append(yaw)
            depth_out.append(_half_along(problem.sizes, g, yaw, out))
            width_across.append(2 * _half_along(problem.sizes, g, yaw, across))
        total = sum(width_across) + GAP * (len(group) - 1)
        cursor = -total / 2
        for g, yaw, d_out, w_across in zip(group, yaws, depth_out, width_across, strict=True):
            centre = np.array([px, py]) + out * (parent_half + GAP + d_out) + across * (cursor + w_across / 2)
            cursor += w_across + GAP
            local[g] = (float(centre[0]), float(centre[1]), yaw)
    return local


def _to_global(local: dict[int, tuple[float, float, float]], x: np.ndarray, y: np.ndarray, yaw: np.ndarray,
               order: list[int]) -> np.ndarray:
    """Return (B, M, 3) global x, y, yaw (deg) of the cluster for B anchor poses."""
    t = np.radians(yaw)[:, None]
    lx = np.array([local[o][0] for o in order])[None, :]
    ly = np.array([local[o][1] for o in order])[None, :]
    lyaw = np.array([local[o][2] for o in order])[None, :]
    gx = x[:, None] + np.cos(t) * lx - np.sin(t) * ly
    gy = y[:, None] + np.sin(t) * lx + np.cos(t) * ly
    return np.stack([gx, gy, yaw[:, None] + lyaw], axis=-1)


def _candidates(problem: Problem, anchor: int, step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width, depth, _ = problem.room
    walls = [r.wall for r in problem.relations if r.type == "against_wall" and problem.index[r.a] == anchor]
    wall = walls[0] if walls else None
    yaws = [problem.pins[anchor]] if anchor in problem.pins else [0.0, 90.0, 180.0, -90.0]
    xs, ys, ts = [], [], []
    for yaw in yaws:
        r, f = _axes(yaw)
        hx = 0.5 * (problem.sizes[anchor, 0] * abs(r[0]) + problem.sizes[anchor, 1] * abs(f[0]))
        hy = 0.5 * (problem.sizes[anchor, 0] * abs(r[1]) + problem.sizes[anchor, 1] * abs(f[1]))
        gx = np.arange(hx, max(width - hx, hx) + 1e-9, step) if width > 2 * hx else np.array([width / 2])
        gy = np.arange(hy, max(depth - hy, hy) + 1e-9, step) if depth > 2 * hy else np.array([depth / 2])
        if wall in ("south", "north"):
            gy = np.array([hy + 0.02 if wall == "south" else depth - hy - 0.02])
            gx = np.arange(hx, max(width - hx, hx) + 1e-9, step / 2)
        elif wall in ("west", "east"):
            gx = np.array([hx + 0.02 if wall == "west" else width - hx - 0.02])
            gy = np.arange(hy, max(depth - hy, hy) + 1e-9, step / 2)
        mx, my = np.meshgrid(gx, gy, indexing="ij")
        xs.append(mx.ravel())
        ys.append(my.ravel())
        ts.append(np.full(mx.size, yaw))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ts)


def place_cluster(problem: Problem, cluster: Cluster, poses: np.ndarray, placed: set[int],
                  rng: np.random.Generator | None = None, jitter: float = 0.02) -> None:
    """Place one cluster (in place, rows of `poses` = x, y, z, yaw deg) at the best-scoring grid pose:
    relation residuals with what is placed, rotated-box overlap, room bounds and a little clearance."""
    members = cluster.objects
    width, depth, _ = problem.room
    step = max(0.08, math.sqrt(width * depth / 700.0))
    xs, ys, yaws = _candidates(problem, cluster.anchor, step)
    by_yaw = {float(y): local_layout(problem, cluster, float(y)) for y in np.unique(yaws)}
    glob = np.zeros((len(xs), len(members), 3))
    for yaw, local in by_yaw.items():
        sel = yaws == yaw
        glob[sel] = _to_global(local, xs[sel], ys[sel], yaws[sel], members)
    batch = torch.tensor(np.repeat(poses[None], len(xs), axis=0), dtype=torch.float64)
    idx = torch.tensor(members)
    batch[:, idx, 0] = torch.tensor(glob[..., 0])
    batch[:, idx, 1] = torch.tensor(glob[..., 1])
    batch[:, idx, 3] = torch.tensor(np.radians(glob[..., 2]))
    known = placed | set(members)
    mset = set(members)
    subset = [
        k for k, r in enumerate(problem.relations)
        if set(problem.index[o] for o in r.objects()) <= known and set(problem.index[o] for o in r.objects()) & mset
    ]
    sizes = torch.tensor(problem.sizes)
    score = torch.zeros(len(xs), dtype=torch.float64)
    if subset:
        compiled = CompiledRelations.build(problem.relations, problem.index, subset)
        score += relation_residuals(batch, sizes, compiled, problem.room).sum(-1)
    pairs = problem.pairs
    keep = [(i, j) for i, j in pairs.T.tolist() if (i in mset) != (j in mset) and (i in known and j in known)]
    if keep:
        pt = torch.tensor(keep, dtype=torch.long).T
        score += 4.0 * collision_residuals(batch, sizes, pt).sum(-1)
        box = corners(batch, sizes)
        score += 0.3 * torch.relu(sat_overlap(box[:, pt[0]], box[:, pt[1]]) + 0.12).sum(-1)
    score += 4.0 * room_residuals(batch[:, idx], sizes[idx], problem.room).sum(-1)
    if problem.zones.shape[0]:
        score += 4.0 * opening_residuals(batch, sizes, problem.zones, problem.blocked)
    # ties go to poses nearer the middle of the room, which leaves the most space around the cluster;
    # a seeded jitter breaks the remaining ties differently for each start
    score += 0.01 * torch.tensor(np.hypot(xs - width / 2, ys - depth / 2))
    if rng is not None:
        score += jitter * torch.tensor(rng.random(len(xs)))
    best = int(torch.argmin(score))
    poses[members, 0] = glob[best, :, 0]
    poses[members, 1] = glob[best, :, 1]
    poses[members, 3] = glob[best, :, 2]
    placed.update(members)


def _order(problem: Problem) -> list[Cluster]:
    walled = {problem.index[r.a] for r in problem.relations if r.type == "against_wall"}
    clusters = problem.decomposition.clusters
    return sorted(clusters, key=lambda c: (c.anchor not in walled, -len(c.objects), c.anchor))


def imagine(problem: Problem, rng: np.random.Generator | None = None, shuffle: bool = False) -> np.ndarray:
    """Return an initial layout (N, 4: x, y, z, yaw deg) built from the resolved relations: clusters laid
    out in their anchors' frames, walls first, then the largest clusters. With `rng`, near-ties between
    candidate poses break at random; with `shuffle` (later starts) the clusters within each group come in a
    random order and the tie-break is stronger."""
    poses = np.zeros((problem.n, 4))
    poses[:, 2] = problem.z
    for i, yaw in problem.pins.items():
        poses[i, 3] = yaw
    placed: set[int] = set()
    order = _order(problem)
    if shuffle and rng is not None:
        walled = {problem.index[r.a] for r in problem.relations if r.type == "against_wall"}
        first = [c for c in order if c.anchor in walled]
        rest = [c for c in order if c.anchor not in walled]
        order = [first[i] for i in rng.permutation(len(first))] + [rest[i] for i in rng.permutation(len(rest))]
    for cluster in order:
        place_cluster(problem, cluster, poses, placed, rng, jitter=0.2 if shuffle else 0.02)
    return poses


def random_layout(problem: Problem, rng: np.random.Generator, objects: list[int] | None = None,
                  poses: np.ndarray | None = None) -> np.ndarray:
    """Return a uniform random layout (the "no imagination" ablation); pinned yaws stay pinned."""
    out = np.zeros((problem.n, 4)) if poses is None else poses.copy()
    out[:, 2] = problem.z
    width, depth, _ = problem.room
    for i in objects if objects is not None else range(problem.n):
        half = 0.5 * min(problem.sizes[i, 0], problem.sizes[i, 1])
        out[i, 0] = rng.uniform(min(half, width / 2), max(width - half, width / 2))
        out[i, 1] = rng.uniform(min(half, depth / 2), max(depth - half, depth / 2))
        out[i, 3] = problem.pins.get(i, float(rng.uniform(-180.0, 180.0)))
    return out

