"""Imagine, optimise, check exactly, repair: one layout run with the ablation switches."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from models.layout.gate import exact_violations
from models.layout.geometry import collisions, out_of_room
from models.layout.imagination import imagine, place_cluster, random_layout
from models.layout.optimize import optimise
from models.layout.problem import Problem, build_problem
from models.layout.relations import blocked_openings, check_all
from models.layout.scene import Relation, Scene

__all__ = ["Evaluation", "Flags", "LayoutOutcome", "evaluate", "exact_violations", "layout_scene"]


@dataclass(frozen=True)
class Flags:
    """Which parts of the method are on (all of them for the full method)."""

    decomposition: bool = True
    imagination: bool = True
    reparameterisation: bool = True


@dataclass
class LayoutOutcome:
    """Final poses (N, 4: x, y, z, yaw deg), the imagined start, exact verdicts and bookkeeping."""

    poses: np.ndarray
    initial: np.ndarray
    verdicts: list[bool]
    collisions: list[tuple[int, int, float]]
    out_of_room: list[int]
    seconds: float
    loss: list[float] = field(default_factory=list)
    repairs: int = 0
    problem: Problem | None = None
    blocked: list[tuple[str, str]] = field(default_factory=list)  # (opening, object) in a door/window zone
    starts: int = 1  # optimiser starts used
    start_clean: list[bool] = field(default_factory=list)  # per start tried: whether it was clean
    start_seconds: list[float] = field(default_factory=list)
    solver: str = "optimiser"

    @property
    def violations(self) -> int:
        return len(self.collisions) + len(self.out_of_room) + len(self.blocked) + sum(not v for v in self.verdicts)

    @property
    def clean(self) -> bool:
        return self.violations == 0

    def score(self) -> tuple[int, int]:
        return (len(self.collisions) + len(self.out_of_room) + len(self.blocked), sum(not v for v in self.verdicts))


Evaluation = tuple[list[bool], list[tuple[int, int, float]], list[int], list[tuple[str, str]]]


def evaluate(problem: Problem, poses: np.ndarray) -> Evaluation:
    """Exact verdicts, collisions, objects out of the room and blocked openings of a layout."""
    verdicts = check_all(problem.relations, problem.index, poses, problem.sizes, problem.room)
    return (verdicts, collisions(poses, problem.sizes), out_of_room(poses, problem.sizes, problem.room),
            blocked_openings(problem.scene, poses, problem.sizes))


def _is_clean(problem: Problem, poses: np.ndarray) -> bool:
    verdicts, hits, outside, blocked = evaluate(problem, poses)
    return all(verdicts) and not hits and not outside and not blocked


def _culprit_clusters(problem: Problem, verdicts: list[bool], hits: list[tuple[int, int, float]],
                      outside: list[int], rng: np.random.Generator) -> list[int]:
    """Pick the clusters to re-imagine: the smaller side of each collision, objects out of the room,
    subjects of violated relations."""
    owner = problem.decomposition.owner
    clusters = problem.decomposition.clusters
    walled = {problem.index[r.a] for r in problem.relations if r.type == "against_wall"}
    chosen: list[int] = []

    def add(c: int) -> None:
        if c not in chosen:
            chosen.append(c)

    for i, j, _ in hits:
        ci, cj = owner[i], owner[j]
        if ci == cj:
            add(ci)
            continue
        key = [(clusters[c].anchor in walled, len(clusters[c].objects), -c) for c in (ci, cj)]
        add(ci if key[0] <= key[1] else cj)
    for i in outside:
        add(owner[i])
    for k, ok in enumerate(verdicts):
        if not ok:
            add(owner[problem.index[problem.relations[k].a]])
    return chosen[:2]


def layout_scene(scene: Scene, relations: list[Relation], flags: Flags, seed: int, stage1: int, stage2: int,
                 repair_rounds: int, tick: Callable[[float, str], None] | None = None, starts: int = 1) -> LayoutOutcome:
    """Lay a consistent scene out from up to `starts` starts (start s uses seed + s) and return the first
    clean layout, else the best one (fewest physical violations, then fewest violated relations)."""
    started = time.perf_counter()
    problem = build_problem(scene, relations, decomposition=flags.decomposition)
    best: LayoutOutcome | None = None
    used = 0
    clean_by_start: list[bool] = []
    seconds_by_start: list[float] = []
    for s in range(starts):
        used = s + 1
        began = time.perf_counter()
        lo, hi = s / starts, (s + 1) / starts

        def note(fraction: float, message: str, lo: float = lo, hi: float = hi, s: int = s) -> None:
            if tick is not None:
                tick(lo + (hi - lo) * fraction, f"start {s + 1}/{starts}: {message}" if starts > 1 else message)

        outcome = _one_start(problem, flags, seed + s, s, stage1, stage2, repair_rounds, note)
        clean_by_start.append(outcome.clean)
        seconds_by_start.append(time.perf_counter() - began)
        if best is None or outcome.score() < best.score():
            best = outcome
        if best.clean:
            break
    assert best is not None
    best.starts = used
    best.start_clean, best.start_seconds = clean_by_start, seconds_by_start
    best.seconds = time.perf_counter() - started
    return best


def _one_start(problem: Problem, flags: Flags, seed: int, start: int, stage1: int, stage2: int, repair_rounds: int,
               note: Callable[[float, str], None]) -> LayoutOutcome:
    """One start: imagination (or a random start), two-stage optimisation, exact check, then up to
    `repair_rounds` rounds that re-imagine the violating clusters and refine again."""
    rng = np.random.default_rng(seed)
    note(0.0, "imagining an initial layout")
    initial = imagine(problem, rng, shuffle=start > 0) if flags.imagination else random_layout(problem, rng)
    note(0.1, "optimising (stage 1: relations, stage 2: physics)")
    poses, loss = optimise(problem, initial, flags.reparameterisation, stage1, stage2,
                           tick=lambda f: note(0.1 + 0.5 * f, "optimising"), done=lambda p: _is_clean(problem, p))
    verdicts, hits, outside, blocked = evaluate(problem, poses)
    best = LayoutOutcome(poses, initial, verdicts, hits, outside, 0.0, loss, 0, problem, blocked)
    rounds = 0
    while best.violations and rounds < repair_rounds:
        rounds += 1
        note(0.6 + 0.35 * rounds / max(repair_rounds, 1), f"repair round {rounds}")
        targets = _culprit_clusters(problem, best.verdicts, best.collisions,
                                    best.out_of_room + [problem.index[o] for _, o in best.blocked], rng)
        trial = best.poses.copy()
        moving = [o for c in targets for o in problem.decomposition.clusters[c].objects]
        if flags.imagination:
            placed = set(range(problem.n)) - set(moving)
            for c in targets:
                place_cluster(problem, problem.decomposition.clusters[c], trial, placed, rng)
        else:
            trial = random_layout(problem, rng, moving, trial)
        poses, extra = optimise(problem, trial, flags.reparameterisation, 0, max(stage2 // 2, 20), lr=0.02,
                                done=lambda p: _is_clean(problem, p))
        verdicts, hits, outside, blocked = evaluate(problem, poses)
        candidate = LayoutOutcome(poses, initial, verdicts, hits, outside, 0.0, loss + extra, rounds, problem, blocked)
        if candidate.score() < best.score():
            best = candidate
    best.repairs = rounds
    return best
