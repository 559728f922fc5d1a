"""Differentiable residuals in torch: relations, rotated-box overlap (SAT), walls and support.

Every function takes poses of shape (B, N, 4) = x, y, z, yaw in radians (B candidate layouts at once)
and returns non-negative residuals in metres that vanish when the target holds with a small margin,
in the spirit of R^3L's relation losses (the official code's solvers/r3l/losses.py; paper sections not checked here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from models.layout.relations import FAR_GAP, NEAR_GAP, WALL_NORMAL_IN
from models.layout.scene import CORNER_WALLS, DEFAULT_CLEARANCE, Relation

__all__ = [
    "CompiledRelations",
    "clearance_corners",
    "collision_residuals",
    "opening_residuals",
    "corners",
    "pair_gap",
    "relation_residuals",
    "room_residuals",
    "sat_overlap",
    "support_residuals",
]

_FACING_TARGET = math.cos(math.radians(22.0))
_WALL_INDEX = {"south": 0, "north": 1, "west": 2, "east": 3}
_CORNER_INDEX = {name: k for k, name in enumerate(CORNER_WALLS)}
_CORNER_WALLS = torch.tensor([[_WALL_INDEX[w] for w in walls] for walls in CORNER_WALLS.values()])


def corners(poses: torch.Tensor, sizes: torch.Tensor) -> torch.Tensor:
    """Return footprint corners (B, N, 4, 2), counter-clockwise, from poses (B, N, 4) and sizes (N, 3)."""
    yaw = poses[..., 3]
    r = torch.stack([torch.cos(yaw), torch.sin(yaw)], dim=-1)  # (B, N, 2)
    f = torch.stack([-torch.sin(yaw), torch.cos(yaw)], dim=-1)
    hw = (sizes[:, 0] / 2).view(1, -1, 1)
    hd = (sizes[:, 1] / 2).view(1, -1, 1)
    c = poses[..., :2]
    return torch.stack([c - hw * r - hd * f, c + hw * r - hd * f, c + hw * r + hd * f, c - hw * r + hd * f], dim=2)


def _axes(poses: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    yaw = poses[..., 3]
    return (torch.stack([torch.cos(yaw), torch.sin(yaw)], -1), torch.stack([-torch.sin(yaw), torch.cos(yaw)], -1))


def sat_overlap(ca: torch.Tensor, cb: torch.Tensor) -> torch.Tensor:
    """Return the smallest projected overlap over the 4 edge normals of two boxes (B, K): positive
    means the rotated boxes overlap (the penetration depth), negative is a separation."""
    ea = ca[:, :, 1] - ca[:, :, 0]
    fa = ca[:, :, 3] - ca[:, :, 0]
    eb = cb[:, :, 1] - cb[:, :, 0]
    fb = cb[:, :, 3] - cb[:, :, 0]
    axes = torch.stack([ea, fa, eb, fb], dim=2)
    axes = axes / axes.norm(dim=-1, keepdim=True).clamp_min(1e-9)  # (B, K, 4, 2)
    pa = torch.einsum("bkcd,bkad->bkac", ca, axes)  # (B, K, 4 axes, 4 corners)
    pb = torch.einsum("bkcd,bkad->bkac", cb, axes)
    overlap = torch.minimum(pa.amax(-1), pb.amax(-1)) - torch.maximum(pa.amin(-1), pb.amin(-1))
    return overlap.amin(-1)


def _vertex_edge(src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    """Smallest distance from the 4 vertices of src to the 4 edges of dst, (B, K)."""
    a = dst.unsqueeze(2)  # (B, K, 1, 4, 2) edge starts
    ab = (torch.roll(dst, -1, dims=2) - dst).unsqueeze(2)
    p = src.unsqueeze(3)  # (B, K, 4, 1, 2)
    t = (((p - a) * ab).sum(-1) / (ab * ab).sum(-1).clamp_min(1e-12)).clamp(0.0, 1.0)
    return (p - a - t.unsqueeze(-1) * ab).norm(dim=-1).flatten(2).amin(-1)


def pair_gap(ca: torch.Tensor, cb: torch.Tensor) -> torch.Tensor:
    """Return the vertex-to-edge distance between two footprints (B, K); exact when they are apart."""
    return torch.minimum(_vertex_edge(ca, cb), _vertex_edge(cb, ca))


@dataclass
class CompiledRelations:
    """Relations grouped by type as index tensors, for batched residuals."""

    groups: dict[str, tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]]  # pos, a, other, value
    count: int

    @classmethod
    def build(cls, relations: list[Relation], index: dict[str, int], subset: list[int] | None = None) -> CompiledRelations:
        keep = range(len(relations)) if subset is None else subset
        raw: dict[str, tuple[list[int], list[int], list[int], list[float]]] = {}
        for pos, k in enumerate(keep):
            rel = relations[k]
            kind = rel.type + ("_wall" if rel.wall is not None else "")
            value = 0.0
            if rel.type == "corner":
                other = _CORNER_INDEX[str(rel.corner)]
            elif rel.type == "clearance":
                other = index[rel.a]
                value = rel.distance if rel.distance is not None else DEFAULT_CLEARANCE
            elif rel.wall is not None:
                other = _WALL_INDEX[rel.wall]
            else:
                other = index[rel.b]  # type: ignore[index]
            if rel.type == "align":
                value = {"x": 0.0, "y": 1.0, None: -1.0}[rel.axis]
            slot = raw.setdefault(kind, ([], [], [], []))
            slot[0].append(pos)
            slot[1].append(index[rel.a])
            slot[2].append(other)
            slot[3].append(value)
        groups = {kind: (*(torch.tensor(v, dtype=torch.long) for v in vals[:3]), torch.tensor(vals[3], dtype=torch.float64))
                  for kind, vals in raw.items()}
        return cls(groups=groups, count=len(keep))  # type: ignore[arg-type]


def relation_residuals(poses: torch.Tensor, sizes: torch.Tensor, compiled: CompiledRelations,
                       room: tuple[float, float, float]) -> torch.Tensor:
    """Return (B, R) residuals of the compiled relations, zero when each holds with margin."""
    batch = poses.shape[0]
    out = poses.new_zeros(batch, compiled.count)
    box = corners(poses, sizes)
    right, fwd = _axes(poses)
    for kind, (pos, ia, ib, val) in compiled.groups.items():
        ca = box[:, ia]  # (B, K, 4, 2)
        if kind == "corner":
            dist = _wall_distances(ca, room)  # (B, K, 4 walls)
            walls = _CORNER_WALLS[ib]  # (K, 2)
            mine = dist.gather(-1, walls.unsqueeze(0).expand(dist.shape[0], -1, -1))
            out[:, pos] = (torch.relu(mine - 0.04) + torch.relu(-mine)).sum(-1)
            continue
        if kind == "clearance":
            out[:, pos] = _clearance(poses, sizes, box, ia, val, room)
            continue
        if kind.endswith("_wall"):
            if kind == "against_wall_wall":
                dist = _wall_distances(ca, room)
                mine = dist.gather(-1, ib.view(1, -1, 1).expand(dist.shape[0], -1, 1)).squeeze(-1)
                value = torch.relu(mine - 0.04) + torch.relu(-mine)
            else:  # facing a wall
                normals = torch.tensor([[-WALL_NORMAL_IN[w][0], -WALL_NORMAL_IN[w][1]] for w in _WALL_INDEX])
                toward = normals[ib].unsqueeze(0)
                value = 2.0 * torch.relu(_FACING_TARGET - (fwd[:, ia] * toward).sum(-1))
            out[:, pos] = value
            continue
        out[:, pos] = _pair_residual(kind, poses, sizes, box, (right, fwd), ia, ib, val)
    return out


def _pair_residual(kind: str, poses: torch.Tensor, sizes: torch.Tensor, box: torch.Tensor,
                   axes: tuple[torch.Tensor, torch.Tensor], ia: torch.Tensor, ib: torch.Tensor,
                   val: torch.Tensor) -> torch.Tensor:
    """(B, K) residuals of one two-object relation kind, a = objects ia, b = objects ib."""
    right, fwd = axes
    ca = box[:, ia]
    cb = poses[:, ib, :2].unsqueeze(2)
    wb = sizes[ib, 0].unsqueeze(0)
    db = sizes[ib, 1].unsqueeze(0)
    rb = right[:, ib].unsqueeze(2)
    fb = fwd[:, ib].unsqueeze(2)
    box_b = box[:, ib]
    if kind == "left_of":
        value = torch.relu(((ca - cb) * rb).sum(-1).amax(-1) + wb / 2)
    elif kind == "right_of":
        value = torch.relu(wb / 2 - ((ca - cb) * rb).sum(-1).amin(-1))
    elif kind == "in_front_of":
        value = torch.relu(db / 2 - ((ca - cb) * fb).sum(-1).amin(-1))
    elif kind == "behind":
        value = torch.relu(((ca - cb) * fb).sum(-1).amax(-1) + db / 2)
    elif kind == "west_of":
        value = torch.relu(ca[..., 0].amax(-1) - box_b[..., 0].amin(-1))
    elif kind == "east_of":
        value = torch.relu(box_b[..., 0].amax(-1) - ca[..., 0].amin(-1))
    elif kind == "south_of":
        value = torch.relu(ca[..., 1].amax(-1) - box_b[..., 1].amin(-1))
    elif kind == "north_of":
        value = torch.relu(box_b[..., 1].amax(-1) - ca[..., 1].amin(-1))
    elif kind == "facing":
        direction = poses[:, ib, :2] - poses[:, ia, :2]
        unit = direction / direction.norm(dim=-1, keepdim=True).clamp_min(1e-6)
        value = 2.0 * torch.relu(_FACING_TARGET - (fwd[:, ia] * unit).sum(-1))
    elif kind == "near":
        value = torch.relu(pair_gap(ca, box_b) - (NEAR_GAP - 0.1))
    elif kind == "around":
        direction = poses[:, ib, :2] - poses[:, ia, :2]
        unit = direction / direction.norm(dim=-1, keepdim=True).clamp_min(1e-6)
        value = torch.relu(pair_gap(ca, box_b) - (NEAR_GAP - 0.1)) + 2.0 * torch.relu(
            _FACING_TARGET - (fwd[:, ia] * unit).sum(-1))
    elif kind == "align":
        gaps = (poses[:, ia, :2] - poses[:, ib, :2]).abs() - 0.005  # (B, K, 2)
        either = gaps.amin(-1)
        value = torch.relu(torch.where(val < 0, either, gaps.gather(
            -1, val.clamp_min(0).long().view(1, -1, 1).expand(gaps.shape[0], -1, 1)).squeeze(-1)))
    elif kind == "far":
        value = torch.relu(FAR_GAP + 0.1 - pair_gap(ca, box_b)) + torch.relu(sat_overlap(ca, box_b) + 0.1)
    elif kind == "on_top_of":
        local = poses[:, ia, :2] - poses[:, ib, :2]
        u = (local * right[:, ib]).sum(-1).abs()
        v = (local * fwd[:, ib]).sum(-1).abs()
        value = torch.relu(u - (wb / 2 - torch.clamp(wb / 4, max=0.05))) + torch.relu(
            v - (db / 2 - torch.clamp(db / 4, max=0.05)))
    else:
        raise ValueError(kind)
    return value


def _wall_distances(ca: torch.Tensor, room: tuple[float, float, float]) -> torch.Tensor:
    """Distance from each wall (south, north, west, east) to the nearest footprint corner, (B, K, 4)."""
    return torch.stack([ca[..., 1].amin(-1), room[1] - ca[..., 1].amax(-1),
                        ca[..., 0].amin(-1), room[0] - ca[..., 0].amax(-1)], dim=-1)


def clearance_corners(poses: torch.Tensor, sizes: torch.Tensor, ia: torch.Tensor, depth: torch.Tensor) -> torch.Tensor:
    """Corners (B, K, 4, 2) of the free floor zones of depth `depth` (K,) in front of objects `ia`."""
    yaw = poses[:, ia, 3]
    fwd = torch.stack([-torch.sin(yaw), torch.cos(yaw)], -1)
    centre = poses[:, ia, :2] + fwd * (sizes[ia, 1] / 2 + depth / 2).view(1, -1, 1)
    zone_pose = torch.cat([centre, poses[:, ia, 2:3], yaw.unsqueeze(-1)], dim=-1)  # (B, K, 4)
    zone_sizes = torch.stack([sizes[ia, 0], depth, sizes[ia, 2]], dim=-1)
    return _box_corners(zone_pose, zone_sizes)


def _box_corners(pose: torch.Tensor, size: torch.Tensor) -> torch.Tensor:
    """Corners (B, K, 4, 2) of boxes with per-box sizes (K, 3)."""
    yaw = pose[..., 3]
    r = torch.stack([torch.cos(yaw), torch.sin(yaw)], dim=-1)
    f = torch.stack([-torch.sin(yaw), torch.cos(yaw)], dim=-1)
    hw = (size[:, 0] / 2).view(1, -1, 1)
    hd = (size[:, 1] / 2).view(1, -1, 1)
    c = pose[..., :2]
    return torch.stack([c - hw * r - hd * f, c + hw * r - hd * f, c + hw * r + hd * f, c - hw * r + hd * f], dim=2)


def _clearance(poses: torch.Tensor, sizes: torch.Tensor, box: torch.Tensor, ia: torch.Tensor, depth: torch.Tensor,
               room: tuple[float, float, float]) -> torch.Tensor:
    """(B, K) how far each clearance zone pokes out of the room or into any other object."""
    zone = clearance_corners(poses, sizes, ia, depth)  # (B, K, 4, 2)
    x, y = zone[..., 0], zone[..., 1]
    outside = (torch.relu(-x.amin(-1)) + torch.relu(x.amax(-1) - room[0])
               + torch.relu(-y.amin(-1)) + torch.relu(y.amax(-1) - room[1]))
    n = box.shape[1]
    k = zone.shape[1]
    za = zone.unsqueeze(2).expand(-1, -1, n, -1, -1).reshape(zone.shape[0], k * n, 4, 2)
    ob = box.unsqueeze(1).expand(-1, k, -1, -1, -1).reshape(zone.shape[0], k * n, 4, 2)
    overlap = torch.relu(sat_overlap(za, ob) + 0.01).view(zone.shape[0], k, n)
    own = torch.nn.functional.one_hot(ia, n).to(torch.bool).unsqueeze(0)
    return outside + overlap.masked_fill(own, 0.0).sum(-1)


def opening_residuals(poses: torch.Tensor, sizes: torch.Tensor, zones: torch.Tensor, blocked: torch.Tensor) -> torch.Tensor:
    """(B,) total penetration of objects into door and window zones; zones (Z, 4, 2), blocked (Z, N) bool."""
    if zones.shape[0] == 0:
        return poses.new_zeros(poses.shape[0])
    box = corners(poses, sizes)  # (B, N, 4, 2)
    batch, n = box.shape[:2]
    z = zones.shape[0]
    za = zones.unsqueeze(0).unsqueeze(2).expand(batch, -1, n, -1, -1).reshape(batch, z * n, 4, 2)
    ob = box.unsqueeze(1).expand(-1, z, -1, -1, -1).reshape(batch, z * n, 4, 2)
    overlap = torch.relu(sat_overlap(za.to(box.dtype), ob) + 0.01).view(batch, z, n)
    return (overlap * blocked.unsqueeze(0)).sum((-1, -2))


def collision_residuals(poses: torch.Tensor, sizes: torch.Tensor, pairs: torch.Tensor, margin: float = 0.01) -> torch.Tensor:
    """Return (B, P) penetration depths (plus a margin) of the rotated-box pairs (2, P)."""
    if pairs.shape[1] == 0:
        return poses.new_zeros(poses.shape[0], 0)
    box = corners(poses, sizes)
    return torch.relu(sat_overlap(box[:, pairs[0]], box[:, pairs[1]]) + margin)


def room_residuals(poses: torch.Tensor, sizes: torch.Tensor, room: tuple[float, float, float]) -> torch.Tensor:
    """Return (B, N) how far each footprint pokes out of the room (summed over the four walls)."""
    box = corners(poses, sizes)
    x, y = box[..., 0], box[..., 1]
    return (torch.relu(-x.amin(-1)) + torch.relu(x.amax(-1) - room[0])
            + torch.relu(-y.amin(-1)) + torch.relu(y.amax(-1) - room[1]))


def support_residuals(poses: torch.Tensor, sizes: torch.Tensor, supports: torch.Tensor) -> torch.Tensor:
    """Return (B, S) how far the footprint of each supported object (supports[0]) overhangs its
    support (supports[1]), measured in the support's frame."""
    if supports.shape[1] == 0:
        return poses.new_zeros(poses.shape[0], 0)
    top, base = supports[0], supports[1]
    box = corners(poses, sizes)[:, top]
    right, fwd = _axes(poses)
    rel = box - poses[:, base, :2].unsqueeze(2)
    u = (rel * right[:, base].unsqueeze(2)).sum(-1).abs()
    v = (rel * fwd[:, base].unsqueeze(2)).sum(-1).abs()
    wb = sizes[base, 0].view(1, -1, 1) / 2
    db = sizes[base, 1].view(1, -1, 1) / 2
    return (torch.relu(u - wb) + torch.relu(v - db)).sum(-1)
