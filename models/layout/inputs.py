"""Reading the input: validate the scene, gather the relations from the scene, the sentences and the LLM,
and start each relation's verdict row."""

from __future__ import annotations

from models.common import MethodInputError, Progress
from models.common.llm import llm_config
from models.layout.llm import DEFAULT_MODEL, propose_statements
from models.layout.params import Params
from models.layout.result import RelationVerdict
from models.layout.scene import Relation, Scene
from models.layout.sentences import parse_statements, render

__all__ = ["gather_relations", "relation_verdicts", "validate_scene"]


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


def gather_relations(params: Params, scene: Scene, progress: Progress) -> tuple[list[Relation], list[str], list[str]]:
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


def relation_verdicts(relations: list[Relation], sources: list[str]) -> list[RelationVerdict]:
    return [RelationVerdict(index=k, type=r.type, a=r.a, b=r.b, wall=r.wall, corner=r.corner, axis=r.axis,
                            distance=r.distance, sentence=render(r), source=s)  # type: ignore[arg-type]
            for k, (r, s) in enumerate(zip(relations, sources, strict=True))]
