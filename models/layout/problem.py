"""A scene compiled for layout: sizes, yaw pins, support heights, clusters and collision pairs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.layout.decomposition import Decomposition, decompose
from models.layout.geometry import VERTICAL_TOL
from models.layout.losses import CompiledRelations
from models.layout.relations import rectangle
from models.layout.resolve import yaw_pins
from models.layout.scene import Relation, Scene

__all__ = ["Problem", "build_problem"]


@dataclass
class Problem:
    """Everything that stays fixed while objects move (z comes from the support chain)."""

    scene: Scene
    relations: list[Relation]
    index: dict[str, int]
    sizes: np.ndarray  # (N, 3) width, depth, height
    room: tuple[float, float, float]
    pins: dict[int, float]  # object -> yaw in degrees
    z: np.ndarray  # (N,) base elevation
    supports: list[tuple[int, int]]  # (object on top, support)
    decomposition: Decomposition
    compiled: CompiledRelations
    pairs: torch.Tensor  # (2, P) object pairs that can collide (vertical overlap > 0.01 m)
    zones: torch.Tensor  # (Z, 4, 2) free zones of the doors and windows
    blocked: torch.Tensor  # (Z, N) which objects must keep out of each zone

    @property
    def n(self) -> int:
        return len(self.scene.objects)


def _support_heights(n: int, sizes: np.ndarray, supports: list[tuple[int, int]]) -> np.ndarray:
    """Return base elevations: z_a = z_b + h_b along each support chain (the chain is acyclic here)."""
    below = dict(supports)
    z = np.zeros(n)
    for i in range(n):
        chain: list[int] = []
        node = i
        while node in below and len(chain) <= n:
            chain.append(node)
            node = below[node]
        height = 0.0
        for obj in reversed(chain):
            height += sizes[below[obj], 2]
            z[obj] = height
    return z


def build_problem(scene: Scene, relations: list[Relation], decomposition: bool = True) -> Problem:
    """Compile a consistent scene for imagination and optimisation."""
    index = scene.index()
    n = len(scene.objects)
    sizes = np.array([[o.width, o.depth, o.height] for o in scene.objects], dtype=float)
    room = (scene.room.width, scene.room.depth, scene.room.height)
    pin_table, _ = yaw_pins(scene, relations, list(range(len(relations))))
    pins = {i: p.yaw for i, p in pin_table.items()}
    supports: list[tuple[int, int]] = []
    seen: set[int] = set()
    for rel in relations:
        if rel.type == "on_top_of" and rel.b is not None and index[rel.a] not in seen:
            supports.append((index[rel.a], index[rel.b]))
            seen.add(index[rel.a])
    z = _support_heights(n, sizes, supports)
    pairs = [
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if min(z[i] + sizes[i, 2], z[j] + sizes[j, 2]) - max(z[i], z[j]) > VERTICAL_TOL
    ]
    pair_tensor = torch.tensor(pairs, dtype=torch.long).T if pairs else torch.zeros(2, 0, dtype=torch.long)
    zones = [rectangle(*o.zone(scene.room)) for o in scene.openings]
    blocked = [[o.blocks(float(z[i] + sizes[i, 2])) for i in range(n)] for o in scene.openings]
    return Problem(
        scene=scene,
        relations=relations,
        index=index,
        sizes=sizes,
        room=room,
        pins=pins,
        z=z,
        supports=supports,
        decomposition=decompose(scene, relations, enabled=decomposition),
        compiled=CompiledRelations.build(relations, index),
        pairs=pair_tensor,
        zones=torch.tensor(np.array(zones), dtype=torch.float64) if zones else torch.zeros(0, 4, 2, dtype=torch.float64),
        blocked=torch.tensor(blocked, dtype=torch.float64) if blocked else torch.zeros(0, n, dtype=torch.float64),
    )
