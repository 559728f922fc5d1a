"""run(params, progress): parse, check feasibility and consistency, lay out (optimiser, then the MILP
for small scenes), compare ablations, and say honestly whether everything holds."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from models.common import MethodInputError, Progress
from models.common.llm import llm_config
from models.common.progress import MonotoneProgress
from models.layout.consistency import check_consistency, infeasibility
from models.layout.generator import random_scene
from models.layout.llm import DEFAULT_MODEL, propose_statements
from models.layout.milp import MilpOutcome, solve_milp
from models.layout.mus import milp_conflict
from models.layout.params import MILP_MAX_OBJECTS, Params
from models.layout.pipeline import Flags, LayoutOutcome, evaluate, layout_scene
from models.layout.problem import build_problem
from models.layout.resolve import grounded
from models.layout.result import (
    AblationRow,
    ClusterOut,
    LayoutMetrics,
    MilpReport,
    PoseOut,
    RelationVerdict,
    Result,
)
from models.layout.scene import Relation, Scene
from models.layout.sentences import parse_statements, render

__all__ = ["run", "validate_scene"]

ABLATION_FLAGS = {
    "no_decomposition": Flags(decomposition=False),
    "no_imagination": Flags(imagination=False),
    "no_reparameterisation": Flags(reparameterisation=False),
}


def validate_scene(scene: Scene) -> None:
    """Raise MethodInputError (one line naming the field) for a scene the method cannot process."""
    if not scene.objects:
        raise MethodInputError("scene.objects is empty: add at least one object")
    seen: set[str] = set()
    for obj in scene.objects:
        if obj.name in seen:
            raise MethodInputError(f"scene.objects has two objects named '{obj.name}': names must be unique")
        seen.add(obj.name)
    for k, opening in enumerate(scene.openings):
        length = scene.room.width if opening.wall in ("south", "north") else scene.room.depth
        if opening.offset + opening.width > length + 1e-9:
            raise MethodInputError(f"scene.openings[{k}] ({opening.name}) ends {opening.offset + opening.width:.2f} m "
                                   f"along the {opening.wall} wall, which is {length:.2f} m long")
    for k, rel in enumerate(scene.relations):
        _validate_relation(f"scene.relations[{k}] ({rel.type})", rel, seen)


def _validate_relation(where: str, rel: Relation, names: set[str]) -> None:
    for name in rel.objects():
        if name not in names:
            raise MethodInputError(f"{where} names '{name}', which is not in scene.objects")
    single = {"against_wall": "wall", "corner": "corner", "clearance": None}
    if rel.type in single:
        needed = single[rel.type]
        if rel.b is not None or (needed == "wall") != (rel.wall is not None) or (needed == "corner") != (rel.corner is not None):
            wanted = f"'{needed}'" if needed else "only 'a' (and optionally 'distance')"
            raise MethodInputError(f"{where} needs {wanted} and no 'b'" if needed else f"{where} needs {wanted}")
    elif rel.type == "facing":
        if (rel.wall is None) == (rel.b is None):
            raise MethodInputError(f"{where} needs exactly one of 'b' (an object) or 'wall'")
    elif rel.b is None or rel.wall is not None or rel.corner is not None:
        raise MethodInputError(f"{where} needs 'b' (the reference object) and no 'wall'")
    if rel.axis is not None and rel.type != "align":
        raise MethodInputError(f"{where} has an 'axis', which only align takes")
    if rel.distance is not None and rel.type != "clearance":
        raise MethodInputError(f"{where} has a 'distance', which only clearance takes")
    if rel.b == rel.a:
        raise MethodInputError(f"{where} relates '{rel.a}' to itself")


def _gather(params: Params, scene: Scene, progress: Progress) -> tuple[list[Relation], list[str], list[str]]:
    """Return the relations from the scene, the sentences and the LLM, their sources, and LLM lines
    the parser could not read."""
    names = [o.name for o in scene.objects]
    relations = list(scene.relations)
    sources = ["scene"] * len(relations)
    if params.statements:
        parsed = parse_statements(params.statements, names)
        if parsed.errors:
            more = f" (and {len(parsed.errors) - 3} more)" if len(parsed.errors) > 3 else ""
            raise MethodInputError("; ".join(parsed.errors[:3]) + more)
        relations += parsed.relations
        sources += ["statement"] * len(parsed.relations)
    unparsed: list[str] = []
    if params.use_llm:
        config = llm_config(DEFAULT_MODEL)
        if not config.configured:
            raise MethodInputError("use_llm is on but this server has no LLM configured (LLM_BASE_URL): turn use_llm off")
        if not params.description.strip():
            raise MethodInputError("use_llm is on but description is empty: describe the room in a few sentences")
        progress(0.5, "asking the LLM for relations")
        lines = propose_statements(params.description, names, config)
        proposed = parse_statements(lines, names)
        relations += proposed.relations
        sources += ["llm"] * len(proposed.relations)
        unparsed = proposed.errors
    return relations, sources, unparsed


def _poses(names: list[str], poses: np.ndarray) -> dict[str, PoseOut]:
    return {n: PoseOut(x=round(float(p[0]), 6), y=round(float(p[1]), 6), z=round(float(p[2]), 6), yaw=round(float(p[3]), 4))
            for n, p in zip(names, poses, strict=True)}


def _fraction(verdicts: list[bool]) -> float:
    return sum(verdicts) / len(verdicts) if verdicts else 1.0


@dataclass
class _Layout:
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


def _milp_report(outcome: MilpOutcome, conflict: list[int]) -> MilpReport:
    return MilpReport(status=outcome.status, seconds=round(outcome.seconds, 3), binaries=outcome.binaries,
                      detail=outcome.detail, conflict=conflict)


def _from_milp(scene: Scene, active: list[Relation], outcome: MilpOutcome) -> _Layout:
    assert outcome.poses is not None
    problem = build_problem(scene, active)
    verdicts, hits, outside, blocked = evaluate(problem, outcome.poses)
    return _Layout(outcome.poses, verdicts, hits, outside, blocked, "milp")


def _verdicts(relations: list[Relation], sources: list[str]) -> list[RelationVerdict]:
    return [RelationVerdict(index=k, type=r.type, a=r.a, b=r.b, wall=r.wall, corner=r.corner, axis=r.axis,
                            distance=r.distance, sentence=render(r), source=s)  # type: ignore[arg-type]
            for k, (r, s) in enumerate(zip(relations, sources, strict=True))]


def run(params: Params, progress: Progress) -> Result:
    """One seed's run: lay out a scene from relative relations (R^3L), naming contradictions before optimising
    (`models.layout.seeds.run` runs every seed and measures the claims)."""
    report_progress = MonotoneProgress(progress)
    scene = random_scene(params.random.seed, params.random.objects, params.random.relations_per_object).scene \
        if params.random is not None else params.scene
    validate_scene(scene)
    report_progress(0.0, "reading relations")
    relations, sources, unparsed = _gather(params, scene, report_progress.stage(0.0, 0.02))
    names = [o.name for o in scene.objects]
    verdicts = _verdicts(relations, sources)
    base: dict[str, Any] = dict(relations=verdicts, unparsed=unparsed, room=scene.room, boxes=scene.objects,
                                openings=scene.openings, scores=LayoutMetrics(relation_count=len(relations)),
                                scene=scene if params.random is not None else None)
    report_progress(0.02, "checking feasibility")
    reasons, culprits = infeasibility(scene, relations)
    if reasons:
        return Result(status="infeasible", message=reasons[0], reasons=reasons, objects=culprits, **base)
    report_progress(0.04, "checking consistency")
    report = check_consistency(scene, relations)
    for conflict in report.conflicts:
        for k in conflict:
            verdicts[k].in_conflict = True
    conflict_info: dict[str, Any] = dict(
        conflicts=report.conflicts, conflict_reasons=report.reasons, suggested_drop=report.drop,
        conflict_sentences=[[verdicts[k].sentence for k in c] for c in report.conflicts],
        conflict_certified=_certify_all(scene, relations, report.conflicts) if params.milp != "off" else [])
    if report.conflicts and (not params.revise or not report.complete):
        message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; "
                   f"dropping {len(report.drop)} relation(s) would restore consistency (turn on revise)")
        if not report.complete:
            message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; the search for "
                       "more ran out of time, so revise cannot promise consistency: remove the named conflicts first")
        return Result(status="contradiction", message=message, **conflict_info, **base)
    dropped = set(report.drop) if report.conflicts else set()
    for k in dropped:
        verdicts[k].dropped = True
    active_index = [k for k in range(len(relations)) if k not in dropped]
    active = [relations[k] for k in active_index]
    small = len(scene.objects) <= MILP_MAX_OBJECTS and params.milp != "off"
    milp_budget = params.milp_seconds

    milp_outcome: MilpOutcome | None = None
    chosen: _Layout | None = None
    variants = [("full method", Flags())] + [(name, ABLATION_FLAGS[name]) for name in params.ablations]
    layout_end = 0.85 if small else 0.98
    if small and params.milp == "first":
        report_progress(0.05, "MILP solver (HiGHS)")
        milp_outcome = solve_milp(scene, active, time_limit=milp_budget)
        if milp_outcome.status == "feasible":
            chosen = _from_milp(scene, active, milp_outcome)
    outcomes: list[LayoutOutcome] = []
    for v, (label, flags) in enumerate(variants):
        stage = report_progress.stage(0.05 + (layout_end - 0.05) * v / len(variants),
                                      0.05 + (layout_end - 0.05) * (v + 1) / len(variants))

        def tick(fraction: float, message: str, stage: Progress = stage, label: str = label) -> None:
            stage(fraction, f"{label}: {message}")

        outcomes.append(layout_scene(scene, active, flags, params.seed, params.stage1_iterations,
                                     params.stage2_iterations, params.repair_rounds, tick, starts=params.starts))
    full = outcomes[0]
    optimised = _Layout(full.poses, full.verdicts, full.collisions, full.out_of_room, full.blocked, "optimiser")
    if chosen is None or optimised.clean:
        chosen = optimised
    milp_conflict_set: list[int] = []
    if not chosen.clean and small and milp_outcome is None:
        report_progress(layout_end, "the optimiser left violations: MILP solver (HiGHS)")
        milp_outcome = solve_milp(scene, active, time_limit=milp_budget)
        if milp_outcome.status == "feasible":
            chosen = _from_milp(scene, active, milp_outcome)
    if milp_outcome is not None and milp_outcome.status == "infeasible":
        report_progress(0.92, "MILP: shrinking the infeasible relations to a minimal set")
        floor = grounded(scene, active)
        milp_conflict_set = [active_index[k] for k in milp_conflict(scene, active, floor, budget_s=milp_budget)]
    report_progress(0.99, "reporting")
    return _result(params, scene, names, base, conflict_info, dropped, active_index, variants, outcomes, chosen,
                   milp_outcome, milp_conflict_set)


def _certify_all(scene: Scene, relations: list[Relation], conflicts: list[list[int]], budget_s: float = 15.0) -> list[bool | None]:
    """MILP confirmation of each conflict set, within a total time budget (None once it is spent)."""
    deadline = time.perf_counter() + budget_s
    out: list[bool | None] = []
    for conflict in conflicts:
        left = deadline - time.perf_counter()
        out.append(_certify(scene, relations, conflict, min(5.0, left)) if left > 0.2 else None)
    return out


def _certify(scene: Scene, relations: list[Relation], conflict: list[int], time_limit: float = 5.0) -> bool | None:
    """Whether the MILP confirms that no layout satisfies a conflict set (None: not decided in time).

    Only the objects the set names are kept (fewer objects is a relaxation); they stand on the floor or
    not as in the whole scene."""
    subset = [relations[k] for k in conflict]
    names = {n for r in subset for n in r.objects()}
    floor = dict(zip([o.name for o in scene.objects], grounded(scene, relations), strict=True))
    objects = [o for o in scene.objects if o.name in names]
    sub = Scene(room=scene.room, objects=objects, relations=[])
    outcome = solve_milp(sub, subset, time_limit=time_limit, floor=[floor[o.name] for o in objects], check=False)
    return None if outcome.status == "unknown" else outcome.status == "infeasible"


def _result(params: Params, scene: Scene, names: list[str], base: dict[str, Any], conflict_info: dict[str, Any],
            dropped: set[int], active_index: list[int], variants: list[tuple[str, Flags]],
            outcomes: list[LayoutOutcome], chosen: _Layout, milp_outcome: MilpOutcome | None,
            milp_conflict_set: list[int]) -> Result:
    verdicts: list[RelationVerdict] = base["relations"]
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
    base = {**base, "scores": metrics}
    return Result(
        status=status, message=message, solver=chosen.solver, layout=_poses(names, chosen.poses),  # type: ignore[arg-type]
        initial_layout=_poses(names, full.initial), violations=violated,
        dropped=sorted(dropped), clusters=clusters, ablations=rows if params.ablations else [],
        collisions=[(names[i], names[j]) for i, j, _ in chosen.collisions], out_of_room=[names[i] for i in chosen.out_of_room],
        blocked=chosen.blocked, loss=[round(v, 5) for v in full.loss[::step]],
        milp=_milp_report(milp_outcome, milp_conflict_set) if milp_outcome else None, **conflict_info, **base,
    )
