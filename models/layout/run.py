"""run(params, progress): parse, check feasibility and consistency, lay out (optimiser, then the MILP
for small scenes), compare ablations, and say honestly whether everything holds."""

from __future__ import annotations

from models.common import Progress
from models.common.progress import MonotoneProgress
from models.layout.certify import certify_conflicts
from models.layout.consistency import ConsistencyReport, check_consistency, infeasibility
from models.layout.generator import random_scene
from models.layout.inputs import gather_relations, relation_verdicts, validate_scene
from models.layout.milp import MilpOutcome, solve_milp
from models.layout.mus import milp_conflict
from models.layout.params import MILP_MAX_OBJECTS, Params
from models.layout.pipeline import Flags, LayoutOutcome, layout_scene
from models.layout.report import ConflictInfo, RunFacts, SolvedLayout, early_result, from_milp, layout_result
from models.layout.resolve import grounded
from models.layout.result import LayoutMetrics, RelationVerdict, Result
from models.layout.scene import Relation, Scene

__all__ = ["run", "validate_scene"]

ABLATION_FLAGS = {
    "no_decomposition": Flags(decomposition=False),
    "no_imagination": Flags(imagination=False),
    "no_reparameterisation": Flags(reparameterisation=False),
}


def run(params: Params, progress: Progress) -> Result:
    """One seed's run: lay out a scene from relative relations (R^3L), naming contradictions before optimising
    (`models.layout.seeds.run` runs every seed and measures the claims)."""
    report_progress = MonotoneProgress(progress)
    scene = random_scene(params.random.seed, params.random.objects, params.random.relations_per_object).scene \
        if params.random is not None else params.scene
    validate_scene(scene)
    report_progress(0.0, "reading relations")
    relations, sources, unparsed = gather_relations(params, scene, report_progress.stage(0.0, 0.02))
    verdicts = relation_verdicts(relations, sources)
    facts = RunFacts(relations=verdicts, unparsed=unparsed, room=scene.room, boxes=scene.objects,
                     openings=scene.openings, scores=LayoutMetrics(relation_count=len(relations)),
                     scene=scene if params.random is not None else None)
    report_progress(0.02, "checking feasibility")
    reasons, culprits = infeasibility(scene, relations)
    if reasons:
        return early_result(facts, "infeasible", reasons[0], reasons=reasons, objects=culprits)
    report_progress(0.04, "checking consistency")
    report = check_consistency(scene, relations)
    conflict = _conflict_info(params, scene, relations, verdicts, report)
    if report.conflicts and (not params.revise or not report.complete):
        message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; "
                   f"dropping {len(report.drop)} relation(s) would restore consistency (turn on revise)")
        if not report.complete:
            message = (f"{len(report.conflicts)} minimal set(s) of relations contradict each other; the search for "
                       "more ran out of time, so revise cannot promise consistency: remove the named conflicts first")
        return early_result(facts, "contradiction", message, conflict)
    dropped = set(report.drop) if report.conflicts else set()
    for k in dropped:
        verdicts[k].dropped = True
    return _lay_out(params, scene, relations, facts, conflict, dropped, report_progress)


def _conflict_info(params: Params, scene: Scene, relations: list[Relation], verdicts: list[RelationVerdict],
                   report: ConsistencyReport) -> ConflictInfo:
    """Mark the relations in a conflict and describe the conflicts (MILP-certified unless the MILP is off)."""
    for conflict in report.conflicts:
        for k in conflict:
            verdicts[k].in_conflict = True
    return ConflictInfo(
        conflicts=report.conflicts, conflict_reasons=report.reasons, suggested_drop=report.drop,
        conflict_sentences=[[verdicts[k].sentence for k in c] for c in report.conflicts],
        conflict_certified=certify_conflicts(scene, relations, report.conflicts) if params.milp != "off" else [])


def _lay_out(params: Params, scene: Scene, relations: list[Relation], facts: RunFacts,
             conflict: ConflictInfo, dropped: set[int], report_progress: MonotoneProgress) -> Result:
    """Lay out the relations left after revising: MILP first (if asked), the optimiser and its ablations,
    the MILP again when the optimiser left violations, and a minimal infeasible set when it proves none."""
    names = [o.name for o in scene.objects]
    active_index = [k for k in range(len(relations)) if k not in dropped]
    active = [relations[k] for k in active_index]
    small = len(scene.objects) <= MILP_MAX_OBJECTS and params.milp != "off"
    milp_budget = params.milp_seconds

    milp_outcome: MilpOutcome | None = None
    chosen: SolvedLayout | None = None
    variants = [("full method", Flags())] + [(name, ABLATION_FLAGS[name]) for name in params.ablations]
    layout_end = 0.85 if small else 0.98
    if small and params.milp == "first":
        report_progress(0.05, "MILP solver (HiGHS)")
        milp_outcome = solve_milp(scene, active, time_limit=milp_budget)
        if milp_outcome.status == "feasible":
            chosen = from_milp(scene, active, milp_outcome)
    outcomes: list[LayoutOutcome] = []
    for v, (label, flags) in enumerate(variants):
        stage = report_progress.stage(0.05 + (layout_end - 0.05) * v / len(variants),
                                      0.05 + (layout_end - 0.05) * (v + 1) / len(variants))

        def tick(fraction: float, message: str, stage: Progress = stage, label: str = label) -> None:
            stage(fraction, f"{label}: {message}")

        outcomes.append(layout_scene(scene, active, flags, params.seed, params.stage1_iterations,
                                     params.stage2_iterations, params.repair_rounds, tick, starts=params.starts))
    full = outcomes[0]
    optimised = SolvedLayout(full.poses, full.verdicts, full.collisions, full.out_of_room, full.blocked, "optimiser")
    if chosen is None or optimised.clean:
        chosen = optimised
    milp_conflict_set: list[int] = []
    if not chosen.clean and small and milp_outcome is None:
        report_progress(layout_end, "the optimiser left violations: MILP solver (HiGHS)")
        milp_outcome = solve_milp(scene, active, time_limit=milp_budget)
        if milp_outcome.status == "feasible":
            chosen = from_milp(scene, active, milp_outcome)
    if milp_outcome is not None and milp_outcome.status == "infeasible":
        report_progress(0.92, "MILP: shrinking the infeasible relations to a minimal set")
        floor = grounded(scene, active)
        milp_conflict_set = [active_index[k] for k in milp_conflict(scene, active, floor, budget_s=milp_budget)]
    report_progress(0.99, "reporting")
    return layout_result(params, scene, names, facts, conflict, dropped, active_index, variants, outcomes, chosen,
                         milp_outcome, milp_conflict_set)


