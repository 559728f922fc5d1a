"""Reporting: the layout the run reports (from the optimiser or the MILP), its exact evaluation, the
ablation rows and the honest status message, as a Result."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.layout.milp import MilpOutcome
from models.layout.params import Params
from models.layout.pipeline import Flags, LayoutOutcome, evaluate
from models.layout.problem import build_problem
from models.layout.result import (
    AblationRow,
    ClusterOut,
    LayoutMetrics,
    MilpReport,
    PoseOut,
    RelationVerdict,
    Result,
    Status,
)
from models.layout.scene import Obj, Opening, Relation, Room, Scene

__all__ = ["ConflictInfo", "RunFacts", "SolvedLayout", "early_result", "from_milp", "layout_result"]


@dataclass(frozen=True)
class RunFacts:
    """What every Result of one run reports, whatever its status: the relations read (with their verdicts),
    the LLM lines left unparsed, the room, objects and openings, the scores so far, and the generated scene
    (None unless `random` was given)."""

    relations: list[RelationVerdict]
    unparsed: list[str]
    room: Room
    boxes: list[Obj]
    openings: list[Opening]
    scores: LayoutMetrics
    scene: Scene | None


@dataclass(frozen=True)
class ConflictInfo:
    """The minimal conflicting sets of relations, their reasons, the suggested drop (revise), each set's
    sentences and whether the MILP certifies it (empty when the relations are consistent)."""

    conflicts: list[list[int]] = field(default_factory=list)
    conflict_reasons: list[str] = field(default_factory=list)
    suggested_drop: list[int] = field(default_factory=list)
    conflict_sentences: list[list[str]] = field(default_factory=list)
    conflict_certified: list[bool | None] = field(default_factory=list)


def _poses(names: list[str], poses: np.ndarray) -> dict[str, PoseOut]:
    return {n: PoseOut(x=round(float(p[0]), 6), y=round(float(p[1]), 6), z=round(float(p[2]), 6), yaw=round(float(p[3]), 4))
            for n, p in zip(names, poses, strict=True)}


def _fraction(verdicts: list[bool]) -> float:
    return sum(verdicts) / len(verdicts) if verdicts else 1.0


@dataclass
class SolvedLayout:
    """The layout the run reports: poses, exact evaluation, which solver made it."""

    poses: np.ndarray
    verdicts: list[bool]
    collisions: list[tuple[int, int, float]]
    out_of_room: list[int]
    blocked: list[tuple[str, str]]
    solver: str

    @property
    def clean(self) -> bool:
        return all(self.verdicts) and not self.collisions and not self.out_of_room and not self.blocked


def milp_report(outcome: MilpOutcome, conflict: list[int]) -> MilpReport:
    return MilpReport(status=outcome.status, seconds=round(outcome.seconds, 3), binaries=outcome.binaries,
                      detail=outcome.detail, conflict=conflict)


def from_milp(scene: Scene, active: list[Relation], outcome: MilpOutcome) -> SolvedLayout:
    assert outcome.poses is not None
    problem = build_problem(scene, active)
    verdicts, hits, outside, blocked = evaluate(problem, outcome.poses)
    return SolvedLayout(outcome.poses, verdicts, hits, outside, blocked, "milp")


def early_result(facts: RunFacts, status: Status, message: str, conflict: ConflictInfo | None = None,
                 reasons: list[str] | None = None, objects: list[str] | None = None) -> Result:
    """The Result of a run that ends before any layout: infeasible (its reasons and the objects at fault)
    or contradiction (its conflicts)."""
    conflict = conflict or ConflictInfo()
    return Result(
        status=status, message=message, reasons=reasons or [], objects=objects or [],
        conflicts=conflict.conflicts, conflict_reasons=conflict.conflict_reasons,
        suggested_drop=conflict.suggested_drop, conflict_sentences=conflict.conflict_sentences,
        conflict_certified=conflict.conflict_certified, relations=facts.relations, unparsed=facts.unparsed,
        room=facts.room, boxes=facts.boxes, openings=facts.openings, scores=facts.scores, scene=facts.scene,
    )


def layout_result(params: Params, scene: Scene, names: list[str], facts: RunFacts, conflict: ConflictInfo,
            dropped: set[int], active_index: list[int], variants: list[tuple[str, Flags]],
            outcomes: list[LayoutOutcome], chosen: SolvedLayout, milp_outcome: MilpOutcome | None,
            milp_conflict_set: list[int]) -> Result:
    """The Result of a laid-out run: the chosen layout's exact evaluation and scores, the ablation rows,
    the status (ok only when the layout is clean) and its message."""
    verdicts = facts.relations
    full = outcomes[0]
    for k, ok in zip(active_index, chosen.verdicts, strict=True):
        verdicts[k].satisfied = ok
    assert full.problem is not None
    clusters = [ClusterOut(anchor=names[c.anchor], members=[names[m] for m in c.members])
                for c in full.problem.decomposition.clusters]
    rows = [AblationRow(variant=label, collision_count=len(o.collisions), out_of_room_count=len(o.out_of_room),
                        relation_fraction=round(_fraction(o.verdicts), 4), relations_violated=sum(not v for v in o.verdicts),
                        seconds=round(o.seconds, 3), repair_rounds=o.repairs, starts=o.starts, clean=o.clean)
            for (label, _), o in zip(variants, outcomes, strict=True)]
    step = max(1, len(full.loss) // 300)
    violated = [k for k, ok in zip(active_index, chosen.verdicts, strict=True) if not ok]
    seconds = sum(o.seconds for o in outcomes[:1]) + (milp_outcome.seconds if milp_outcome else 0.0)
    metrics = LayoutMetrics(
        collision_count=len(chosen.collisions), out_of_room_count=len(chosen.out_of_room),
        relation_fraction=round(_fraction(chosen.verdicts), 4), relations_satisfied=sum(chosen.verdicts),
        relation_count=len(chosen.verdicts), blocked_openings=len(chosen.blocked), seconds=round(seconds, 3),
        repair_rounds=full.repairs, starts=full.starts)
    if chosen.clean:
        by = "the MILP solver (HiGHS)" if chosen.solver == "milp" else f"the optimiser ({full.starts} start(s))"
        status, message = "ok", f"feasible layout by {by}: no collisions, everything inside the room, every relation holds"
    else:
        status = "unsolved"
        message = (f"best layout found: {len(chosen.collisions)} collision(s), {len(chosen.out_of_room)} object(s) out of "
                   f"the room, {len(chosen.blocked)} blocked door/window zone(s), {len(violated)} relation(s) violated")
        if milp_outcome is not None and milp_outcome.status == "infeasible":
            message += ("; the MILP proves no layout exists with yaws from its finite set"
                        + (f" (minimal set: relations {milp_conflict_set})" if milp_conflict_set else ""))
        elif milp_outcome is not None:
            message += f"; the MILP solver did not decide ({milp_outcome.detail})"
    return Result(
        status=status, message=message, solver=chosen.solver, layout=_poses(names, chosen.poses),
        initial_layout=_poses(names, full.initial), violations=violated,
        dropped=sorted(dropped), clusters=clusters, ablations=rows if params.ablations else [],
        collisions=[(names[i], names[j]) for i, j, _ in chosen.collisions], out_of_room=[names[i] for i in chosen.out_of_room],
        blocked=chosen.blocked, loss=[round(v, 5) for v in full.loss[::step]],
        milp=milp_report(milp_outcome, milp_conflict_set) if milp_outcome else None,
        conflicts=conflict.conflicts, conflict_reasons=conflict.conflict_reasons,
        suggested_drop=conflict.suggested_drop, conflict_sentences=conflict.conflict_sentences,
        conflict_certified=conflict.conflict_certified, relations=facts.relations, unparsed=facts.unparsed,
        room=facts.room, boxes=facts.boxes, openings=facts.openings, scores=metrics, scene=facts.scene,
    )
