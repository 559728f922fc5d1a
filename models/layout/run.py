"""run(params, progress): parse, check feasibility and consistency, lay out, compare ablations."""

from __future__ import annotations

import os

from models.common import MethodInputError, Progress
from models.layout.consistency import check_consistency, infeasibility
from models.layout.llm import propose_statements
from models.layout.params import Params
from models.layout.pipeline import Flags, LayoutOutcome, layout_scene
from models.layout.result import AblationRow, ClusterOut, LayoutMetrics, PoseOut, RelationVerdict, Result
from models.layout.scene import Relation, Scene
from models.layout.sentences import parse_statements, render

__all__ = ["run"]

ABLATION_FLAGS = {
    "no_decomposition": Flags(decomposition=False),
    "no_imagination": Flags(imagination=False),
    "no_reparameterisation": Flags(reparameterisation=False),
}


def _validate(scene: Scene) -> None:
    if not scene.objects:
        raise MethodInputError("scene.objects is empty: add at least one object")
    seen: set[str] = set()
    for obj in scene.objects:
        if obj.name in seen:
            raise MethodInputError(f"scene.objects has two objects named '{obj.name}': names must be unique")
        seen.add(obj.name)
    for k, rel in enumerate(scene.relations):
        where = f"scene.relations[{k}] ({rel.type})"
        for name in rel.objects():
            if name not in seen:
                raise MethodInputError(f"{where} names '{name}', which is not in scene.objects")
        if rel.type == "against_wall" and (rel.wall is None or rel.b is not None):
            raise MethodInputError(f"{where} needs 'wall' (north, south, east or west) and no 'b'")
        if rel.type == "facing" and (rel.wall is None) == (rel.b is None):
            raise MethodInputError(f"{where} needs exactly one of 'b' (an object) or 'wall'")
        if rel.type not in ("against_wall", "facing") and (rel.b is None or rel.wall is not None):
            raise MethodInputError(f"{where} needs 'b' (the reference object) and no 'wall'")
        if rel.b == rel.a:
            raise MethodInputError(f"{where} relates '{rel.a}' to itself")


def _gather(params: Params, progress: Progress) -> tuple[list[Relation], list[str], list[str]]:
    """Return the relations from the scene, the sentences and the LLM, their sources, and LLM lines
    the parser could not read."""
    scene = params.scene
    names = [o.name for o in scene.objects]
    relations = list(scene.relations)
    sources = ["scene"] * len(relations)
    if params.statements:
        parsed = parse_statements(params.statements, names)
        if parsed.errors:
            raise MethodInputError("; ".join(parsed.errors[:3]) + (f" (and {len(parsed.errors) - 3} more)" if len(parsed.errors) > 3 else ""))
        relations += parsed.relations
        sources += ["statement"] * len(parsed.relations)
    unparsed: list[str] = []
    if params.use_llm:
        base_url = os.environ.get("LLM_BASE_URL", "").strip()
        if not base_url:
            raise MethodInputError("use_llm is on but this server has no LLM_BASE_URL configured: turn use_llm off")
        if not params.description.strip():
            raise MethodInputError("use_llm is on but description is empty: describe the room in a few sentences")
        progress(0.01, "asking the LLM for relations")
        lines = propose_statements(params.description, names, base_url, os.environ.get("LLM_MODEL", "gpt-4o-mini"),
                                   os.environ.get("LLM_API_KEY") or None)
        proposed = parse_statements(lines, names)
        relations += proposed.relations
        sources += ["llm"] * len(proposed.relations)
        unparsed = proposed.errors
    return relations, sources, unparsed


def _poses(names: list[str], poses: object) -> dict[str, PoseOut]:
    return {n: PoseOut(x=round(float(p[0]), 4), y=round(float(p[1]), 4), z=round(float(p[2]), 4), yaw=round(float(p[3]), 3))
            for n, p in zip(names, poses, strict=True)}  # type: ignore[call-overload]


def _fraction(outcome: LayoutOutcome) -> float:
    return sum(outcome.verdicts) / len(outcome.verdicts) if outcome.verdicts else 1.0


def run(params: Params, progress: Progress) -> Result:
    """Lay out a scene from relative relations (R^3L), naming contradictions before optimising."""
    scene = params.scene
    _validate(scene)
    progress(0.0, "reading relations")
    relations, sources, unparsed = _gather(params, progress)
    names = [o.name for o in scene.objects]
    verdicts = [
        RelationVerdict(index=k, type=r.type, a=r.a, b=r.b, wall=r.wall, sentence=render(r), source=s)  # type: ignore[arg-type]
        for k, (r, s) in enumerate(zip(relations, sources, strict=True))
    ]
    base = dict(relations=verdicts, unparsed=unparsed, room=scene.room, boxes=scene.objects,
                scores=LayoutMetrics(relation_count=len(relations)))
    progress(0.02, "checking feasibility")
    reasons, culprits = infeasibility(scene, relations)
    if reasons:
        return Result(status="infeasible", message=reasons[0], reasons=reasons, objects=culprits, **base)  # type: ignore[arg-type]
    progress(0.04, "checking consistency")
    report = check_consistency(scene, relations)
    for conflict in report.conflicts:
        for k in conflict:
            verdicts[k].in_conflict = True
    conflict_info = dict(conflicts=report.conflicts, conflict_reasons=report.reasons, suggested_drop=report.drop,
                         conflict_sentences=[[verdicts[k].sentence for k in c] for c in report.conflicts])
    if report.conflicts and (not params.revise or not report.complete):
        message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; "
                   f"dropping {len(report.drop)} relation(s) would restore consistency (turn on revise)")
        if not report.complete:
            message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; the search for "
                       "more ran out of time, so revise cannot promise consistency: remove the named conflicts first")
        return Result(status="contradiction", message=message, **conflict_info, **base)  # type: ignore[arg-type]
    dropped = set(report.drop) if report.conflicts else set()
    for k in dropped:
        verdicts[k].dropped = True
    active_index = [k for k in range(len(relations)) if k not in dropped]
    active = [relations[k] for k in active_index]
    variants = [("full method", Flags())] + [(name, ABLATION_FLAGS[name]) for name in params.ablations]
    outcomes: list[LayoutOutcome] = []
    for v, (label, flags) in enumerate(variants):
        lo, hi = 0.05 + 0.95 * v / len(variants), 0.05 + 0.95 * (v + 1) / len(variants)

        def tick(fraction: float, message: str, lo: float = lo, hi: float = hi, label: str = label) -> None:
            progress(lo + (hi - lo) * fraction, f"{label}: {message}")

        outcomes.append(layout_scene(scene, active, flags, params.seed, params.stage1_iterations,
                                     params.stage2_iterations, params.repair_rounds, tick))
    full = outcomes[0]
    for k, ok in zip(active_index, full.verdicts, strict=True):
        verdicts[k].satisfied = ok
    assert full.problem is not None
    clusters = [ClusterOut(anchor=names[c.anchor], members=[names[m] for m in c.members])
                for c in full.problem.decomposition.clusters]
    rows = [AblationRow(variant=label, collision_count=len(o.collisions), out_of_room_count=len(o.out_of_room),
                        relation_fraction=round(_fraction(o), 4), seconds=round(o.seconds, 3), repair_rounds=o.repairs)
            for (label, _), o in zip(variants, outcomes, strict=True)]
    step = max(1, len(full.loss) // 300)
    metrics = LayoutMetrics(
        collision_count=len(full.collisions), out_of_room_count=len(full.out_of_room),
        relation_fraction=round(_fraction(full), 4), relations_satisfied=sum(full.verdicts),
        relation_count=len(active), seconds=round(full.seconds, 3), repair_rounds=full.repairs)
    clean = not full.collisions and not full.out_of_room and all(full.verdicts)
    message = ("feasible layout: no collisions, everything inside the room, every relation holds" if clean else
               f"best layout found: {len(full.collisions)} collision(s), {len(full.out_of_room)} object(s) out of "
               f"the room, {len(full.verdicts) - sum(full.verdicts)} relation(s) violated")
    base["scores"] = metrics
    return Result(
        status="ok", message=message, layout=_poses(names, full.poses), initial_layout=_poses(names, full.initial),
        dropped=sorted(dropped), clusters=clusters, ablations=rows if params.ablations else [],
        collisions=[(names[i], names[j]) for i, j, _ in full.collisions], out_of_room=[names[i] for i in full.out_of_room],
        loss=[round(v, 5) for v in full.loss[::step]], **conflict_info, **base,  # type: ignore[arg-type]
    )
