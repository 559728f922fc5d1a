"""Consistency first: contradiction oracle, minimal conflict sets (MUS) and the fewest relations to drop."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from models.layout.geometry import COLLISION_AREA, OUT_OF_ROOM_TOL
from models.layout.resolve import grounded
from models.layout.scene import Relation, Scene
from models.layout.witness import Conflict, find_inconsistency

__all__ = ["Conflict", "ConsistencyReport", "check_consistency", "find_inconsistency", "infeasibility"]


def _shrink(candidate: list[int], inconsistent: Callable[[list[int]], bool]) -> list[int]:
    """Deletion-based MUS extraction: drop each relation whose removal keeps the set inconsistent."""
    core = sorted(candidate)
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1:]
        if inconsistent(trial):
            core = trial
        else:
            i += 1
    return core


def _min_hitting_set(sets: list[frozenset[int]], budget: int = 200_000) -> set[int]:
    """Return a smallest set meeting every set (exhaustive by size, greedy beyond the budget);
    ties prefer dropping later relations."""
    universe = sorted(set().union(*sets), reverse=True)
    tried = 0
    for size in range(1, len(universe) + 1):
        for combo in itertools.combinations(universe, size):
            tried += 1
            if tried > budget:
                break
            chosen = set(combo)
            if all(s & chosen for s in sets):
                return chosen
        if tried > budget:
            break
    greedy: set[int] = set()
    remaining = list(sets)
    while remaining:
        best = max(universe, key=lambda x: sum(x in s for s in remaining))
        greedy.add(best)
        remaining = [s for s in remaining if best not in s]
    return greedy


@dataclass
class ConsistencyReport:
    """Minimal conflict sets found, their reasons, and a minimum set of relations whose removal
    restores consistency (the "revise" suggestion)."""

    conflicts: list[list[int]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    drop: list[int] = field(default_factory=list)
    complete: bool = True  # False when the time budget ran out before `drop` restored consistency

    @property
    def consistent(self) -> bool:
        return not self.conflicts


def check_consistency(scene: Scene, relations: list[Relation], max_rounds: int = 60,
                      budget_s: float = 30.0) -> ConsistencyReport:
    """Find minimal conflicts by implicit hitting sets: drop a minimum hitting set of the conflicts
    known so far, look for a new witness in what is left, shrink it to a MUS, repeat."""
    floor = grounded(scene, relations)
    everything = list(range(len(relations)))

    def inconsistent(subset: list[int]) -> bool:
        return find_inconsistency(scene, relations, subset, floor) is not None

    report = ConsistencyReport()
    found: list[frozenset[int]] = []
    drop: set[int] = set()
    deadline = time.perf_counter() + budget_s
    for _ in range(max_rounds):
        kept = [k for k in everything if k not in drop]
        witness = find_inconsistency(scene, relations, kept, floor)
        if witness is None:
            break
        if time.perf_counter() > deadline:
            report.complete = False
            break
        start = sorted(witness.relations) if inconsistent(sorted(witness.relations)) else kept
        core = _shrink(start, inconsistent)
        if not core or frozenset(core) in found:
            break
        found.append(frozenset(core))
        final = find_inconsistency(scene, relations, core, floor)
        report.conflicts.append(core)
        report.reasons.append(final.reason if final else witness.reason)
        drop = _min_hitting_set(found)
    report.drop = sorted(drop) if found else []
    if found and find_inconsistency(scene, relations, [k for k in everything if k not in drop], floor) is not None:
        report.complete = False
    return report


def _fits(width: float, depth: float, room_w: float, room_d: float, yaw: float | None) -> bool:
    yaws = [yaw] if yaw is not None else [0.25 * k for k in range(361)]
    for y in yaws:
        t = math.radians(y)
        c, s = abs(math.cos(t)), abs(math.sin(t))
        if width * c + depth * s <= room_w + 0.02 and width * s + depth * c <= room_d + 0.02:
            return True
    return False


def infeasibility(scene: Scene, relations: list[Relation]) -> tuple[list[str], list[str]]:
    """Return (reasons, objects) that make the scene infeasible whatever the relations say."""
    room = scene.room
    reasons: list[str] = []
    culprits: list[str] = []
    for obj in scene.objects:
        if obj.height > room.height + 0.01:
            reasons.append(f"{obj.name} is {obj.height:.2f} m tall, above the {room.height:.2f} m ceiling")
            culprits.append(obj.name)
        if not _fits(obj.width, obj.depth, room.width, room.depth, obj.yaw):
            reasons.append(
                f"{obj.name} ({obj.width:.2f} x {obj.depth:.2f} m) does not fit in the "
                f"{room.width:.2f} x {room.depth:.2f} m room at any yaw")
            if obj.name not in culprits:
                culprits.append(obj.name)
    floor = grounded(scene, relations)
    area = sum(o.width * o.depth for o, f in zip(scene.objects, floor, strict=True) if f)
    count = sum(floor)
    # the exact checks let footprints poke OUT_OF_ROOM_TOL past each wall and overlap by COLLISION_AREA
    allowed = (room.width + 2 * OUT_OF_ROOM_TOL) * (room.depth + 2 * OUT_OF_ROOM_TOL) + count * (count - 1) / 2 * COLLISION_AREA
    if area > allowed:
        names = [o.name for o, f in zip(scene.objects, floor, strict=True) if f]
        reasons.append(f"objects on the floor cover {area:.2f} m^2, more than the {room.width * room.depth:.2f} m^2 floor")
        culprits.extend(n for n in names if n not in culprits)
    return reasons, culprits
