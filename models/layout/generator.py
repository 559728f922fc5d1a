"""random_scene: a feasible scene drawn around a witness layout (objects placed first, then relations
kept only where the witness satisfies them), for benchmarks and the solve-rate claim."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.layout.geometry import collisions, out_of_room
from models.layout.relations import check_relation
from models.layout.scene import CORNER_WALLS, WALL_YAW, Obj, Relation, Room, Scene

__all__ = ["CATALOGUE", "GeneratedScene", "random_scene"]

# name, width, depth, height (m), whether things can stand on it, whether it goes against a wall
CATALOGUE: tuple[tuple[str, float, float, float, bool, bool], ...] = (
    ("bed", 1.5, 2.0, 0.5, False, True),
    ("sofa", 1.9, 0.85, 0.8, False, True),
    ("wardrobe", 1.1, 0.6, 2.0, False, True),
    ("bookshelf", 0.9, 0.35, 1.8, False, True),
    ("desk", 1.2, 0.6, 0.75, True, True),
    ("sideboard", 1.4, 0.45, 0.8, True, True),
    ("table", 1.2, 0.8, 0.75, True, False),
    ("coffee_table", 0.9, 0.5, 0.45, True, False),
    ("nightstand", 0.45, 0.4, 0.55, True, False),
    ("armchair", 0.8, 0.8, 0.9, False, False),
    ("chair", 0.5, 0.5, 0.9, False, False),
    ("plant", 0.4, 0.4, 1.1, False, False),
    ("cabinet", 0.8, 0.5, 0.9, True, True),
    ("stool", 0.4, 0.4, 0.6, False, False),
)
_SMALL: tuple[tuple[str, float, float, float], ...] = (
    ("lamp", 0.25, 0.25, 0.45), ("vase", 0.2, 0.2, 0.3), ("monitor", 0.55, 0.2, 0.4), ("books", 0.3, 0.2, 0.2),
)
_PAIR_KINDS = ("left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of", "north_of",
               "near", "far", "facing", "align")


@dataclass
class GeneratedScene:
    """A scene and the witness layout (N, 4: x, y, z, yaw deg) that satisfies all its relations."""

    scene: Scene
    witness: np.ndarray


def _footprint_ok(poses: np.ndarray, sizes: np.ndarray, room: tuple[float, float, float], k: int) -> bool:
    """Whether object k collides with nothing placed before it (with 5 cm to spare) and stays inside."""
    grown = sizes[: k + 1].copy()
    grown[:, :2] += 0.05
    if out_of_room(poses[k: k + 1], sizes[k: k + 1], room):
        return False
    return not any(k in (i, j) for i, j, _ in collisions(poses[: k + 1], grown))


def _place_floor(rng: np.random.Generator, spec: tuple[str, float, float, float, bool, bool], poses: np.ndarray,
                 sizes: np.ndarray, room: tuple[float, float, float], k: int) -> str | None:
    """Try random poses for floor object k (against a wall when the kind goes there); return the wall or ''."""
    width, depth, _ = room
    w, d = sizes[k, 0], sizes[k, 1]
    for _ in range(200):
        if spec[5] and rng.random() < 0.8:
            wall = str(rng.choice(["south", "north", "west", "east"]))
            yaw = WALL_YAW[wall]
            along = (width if wall in ("south", "north") else depth) - w
            if along < 0:
                continue
            t = rng.uniform(0.0, along) + w / 2
            gap = rng.uniform(0.0, 0.06) + d / 2
            x, y = {"south": (t, gap), "north": (t, depth - gap), "west": (gap, t), "east": (width - gap, t)}[wall]
        else:
            wall = ""
            yaw = float(rng.choice([0.0, 90.0, 180.0, -90.0]))
            r = 0.5 * math.hypot(w, d)
            x, y = rng.uniform(r, max(width - r, r)), rng.uniform(r, max(depth - r, r))
        poses[k] = (x, y, 0.0, yaw)
        if _footprint_ok(poses, sizes, room, k):
            return wall
    return None


def random_scene(seed: int, objects: int = 15, relations_per_object: float = 3.0) -> GeneratedScene:
    """Return a feasible random scene of `objects` objects with about `relations_per_object` relations
    each, all satisfied by the returned witness layout (no collisions, inside the room)."""
    rng = np.random.default_rng(seed)
    n_small = max(1, objects // 5)
    room, kinds, objs = _draw_floor_objects(rng, objects - n_small)
    room_t = (room.width, room.depth, room.height)
    size_arr = np.array([(o.width, o.depth, o.height) for o in objs])
    poses = np.zeros((len(kinds), 4))
    relations: list[Relation] = []
    keep: list[int] = []
    for k, spec in enumerate(kinds):
        wall = _place_floor(rng, spec, poses, size_arr, room_t, k)
        if wall is None:  # no room left: move it out of the way (dropped below)
            poses[k] = (-100.0, -100.0, 0.0, 0.0)
            continue
        keep.append(k)
        if wall:
            relations.append(Relation(type="against_wall", a=objs[k].name, wall=wall))  # type: ignore[arg-type]
    objs = [objs[k] for k in keep]
    kinds = [kinds[k] for k in keep]
    all_poses, all_sizes = _stack_small(rng, objects, kinds, objs, poses[keep], size_arr[keep], relations)
    witness = np.array(all_poses, dtype=float)
    target = int(round(relations_per_object * len(objs)))
    _draw_relations(rng, relations, objs, witness, np.array(all_sizes, dtype=float), room, target)
    scene = Scene(room=room, objects=objs, relations=relations)
    return GeneratedScene(scene=scene, witness=witness)


_Spec = tuple[str, float, float, float, bool, bool]


def _draw_floor_objects(rng: np.random.Generator, n_floor: int) -> tuple[Room, list[_Spec], list[Obj]]:
    """Draw the floor objects' kinds and sizes, and a room whose floor they cover by about 30%."""
    kinds = [CATALOGUE[int(rng.integers(len(CATALOGUE)))] for _ in range(n_floor)]
    area = sum(s[1] * s[2] for s in kinds)
    side = math.sqrt(area / 0.3)
    aspect = rng.uniform(0.8, 1.25)
    room = Room(width=round(min(max(side * aspect, 3.0), 30.0), 2), depth=round(min(max(side / aspect, 3.0), 30.0), 2),
                height=2.8)
    counts: dict[str, int] = {}
    objs: list[Obj] = []
    for spec in kinds:
        counts[spec[0]] = counts.get(spec[0], 0) + 1
        scale = rng.uniform(0.9, 1.1)
        objs.append(Obj(name=f"{spec[0]}_{counts[spec[0]]}", width=round(spec[1] * scale, 2),
                        depth=round(spec[2] * scale, 2), height=spec[3]))
    return room, kinds, objs


def _stack_small(rng: np.random.Generator, objects: int, kinds: list[_Spec], objs: list[Obj], poses: np.ndarray,
                 size_arr: np.ndarray, relations: list[Relation]) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Put small objects (at most two a surface) on the placed surfaces, appending them to `objs` and their
    on_top_of relations to `relations`; return every object's pose and size."""
    surfaces = [i for i, s in enumerate(kinds) if s[4]]
    all_poses = [tuple(p) for p in poses]
    all_sizes = [tuple(s) for s in size_arr]
    used: dict[int, int] = {}
    for m in range(objects - len(objs)):
        if not surfaces:
            break
        base = surfaces[int(rng.integers(len(surfaces)))]
        if used.get(base, 0) >= 2:
            continue
        used[base] = used.get(base, 0) + 1
        name, w, d, h = _SMALL[int(rng.integers(len(_SMALL)))]
        bx, by, bz, byaw = poses[base]
        bw, bd, bh = size_arr[base]
        slot = -0.25 if used[base] == 1 else 0.25
        t = math.radians(byaw)
        u, v = slot * bw, rng.uniform(-0.15, 0.15) * bd
        x = bx + u * math.cos(t) - v * math.sin(t)
        y = by + u * math.sin(t) + v * math.cos(t)
        trial_poses = np.array([*all_poses, (x, y, bz + bh, byaw)])
        trial_sizes = np.array([*all_sizes, (w, d, h)])
        if any(len(trial_poses) - 1 in (i, j) for i, j, _ in collisions(trial_poses, trial_sizes)):
            continue
        objs.append(Obj(name=f"{name}_{m + 1}", width=w, depth=d, height=h))
        all_sizes.append((w, d, h))
        all_poses.append((x, y, bz + bh, byaw))
        relations.append(Relation(type="on_top_of", a=objs[-1].name, b=objs[base].name))
    return all_poses, all_sizes


def _draw_relations(rng: np.random.Generator, relations: list[Relation], objs: list[Obj], witness: np.ndarray,
                    sizes_all: np.ndarray, room: Room, target: int) -> None:
    """Append random relations the witness satisfies to `relations` until there are `target` of them."""
    room_t = (room.width, room.depth, room.height)
    index = Scene(room=room, objects=objs, relations=[]).index()
    names = [o.name for o in objs]
    attempts = 0
    while len(relations) < target and attempts < 60 * target:
        attempts += 1
        if rng.random() < 0.1:  # a one-object relation: a corner or a walkway in front
            a = int(rng.integers(len(objs)))
            single = Relation(type="corner", a=names[a], corner=str(rng.choice(list(CORNER_WALLS)))) \
                if rng.random() < 0.5 else Relation(type="clearance", a=names[a], distance=0.5)  # type: ignore[arg-type]
            if all(r.key() != single.key() for r in relations) and check_relation(single, index, witness, sizes_all, room_t):
                relations.append(single)
            continue
        a, b = (int(v) for v in rng.choice(len(objs), size=2, replace=False))
        kind = _PAIR_KINDS[int(rng.integers(len(_PAIR_KINDS)))]
        extra: dict[str, str] = {"axis": "x" if rng.random() < 0.5 else "y"} if kind == "align" else {}
        rel = Relation(type=kind, a=names[a], b=names[b], **extra)  # type: ignore[arg-type]
        if any(r.key() == rel.key() for r in relations):
            continue
        if check_relation(rel, index, witness, sizes_all, room_t):
            relations.append(rel)
