"""Result of the layout method: status, poses, exact metrics, conflicts, verdicts and downloads."""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, model_serializer, model_validator

from models.common import Answer, Artifact, MethodResult
from models.common.contract import Table
from models.layout.gate import reported_violations
from models.layout.scene import Obj, Opening, Room, Scene
from models.layout.tables import layout_tables

__all__ = ["AblationRow", "ClusterOut", "LayoutMetrics", "MilpReport", "PoseOut", "RelationVerdict", "Result", "Status",
           "kind_colours", "kind_of"]

Status = Literal["ok", "unsolved", "contradiction", "infeasible"]
Solver = Literal["optimiser", "milp"]


class PoseOut(BaseModel):
    """Footprint centre, base elevation (m) and yaw (degrees, counter-clockwise, 0 faces north)."""

    x: float
    y: float
    z: float
    yaw: float


class LayoutMetrics(BaseModel):
    """Exact-check metrics of the final layout (None when no layout was made)."""

    collision_count: int | None = None
    out_of_room_count: int | None = None
    relation_fraction: float | None = None
    relations_satisfied: int | None = None
    relation_count: int = 0
    blocked_openings: int | None = None
    seconds: float = 0.0
    repair_rounds: int = 0
    starts: int = 0


class RelationVerdict(BaseModel):
    """One relation, its sentence, where it came from, and its fate."""

    index: int
    type: str
    a: str
    b: str | None = None
    wall: str | None = None
    corner: str | None = None
    axis: str | None = None
    distance: float | None = None
    sentence: str
    source: Literal["scene", "statement", "llm"] = "scene"
    satisfied: bool | None = None
    in_conflict: bool = False
    dropped: bool = False


class ClusterOut(BaseModel):
    """An anchor and its members (invariant spatial decomposition)."""

    anchor: str
    members: list[str]


class MilpReport(BaseModel):
    """What the complete solver said: feasible (layout checked), infeasible (no layout with yaws from
    the finite set), unknown (time limit); with a minimal set of relations that is already infeasible."""

    status: Literal["feasible", "infeasible", "unknown"]
    seconds: float
    binaries: int = 0
    detail: str = ""
    conflict: list[int] = Field(default_factory=list)


class AblationRow(BaseModel):
    """One variant of the method on the same scene."""

    variant: str
    collision_count: int
    out_of_room_count: int
    relation_fraction: float
    relations_violated: int = 0
    seconds: float
    repair_rounds: int
    starts: int = 1
    clean: bool = False


def kind_of(name: str) -> str:
    """The kind of an object from its name: 'nightstand_a' and 'chair_12' are a nightstand and a chair."""
    return re.sub(r"([ _-]+([0-9]+|[a-z]))+$", "", name.lower()) or name.lower()


class Result(MethodResult):
    """`status` ok | unsolved | contradiction | infeasible; `metrics` is serialised under that name (CLI contract)."""

    status: Status
    message: str = ""
    solver: Solver | None = None
    layout: dict[str, PoseOut] = Field(default_factory=dict)
    scores: LayoutMetrics = Field(default_factory=LayoutMetrics, validation_alias=AliasChoices("metrics", "scores"))
    violations: list[int] = Field(default_factory=list, description="Indices of the relations the layout violates")
    conflicts: list[list[int]] = Field(default_factory=list)
    conflict_sentences: list[list[str]] = Field(default_factory=list)
    conflict_reasons: list[str] = Field(default_factory=list)
    conflict_certified: list[bool | None] = Field(
        default_factory=list, description="Per conflict: the MILP confirms no layout satisfies it (None: not decided)")
    suggested_drop: list[int] = Field(default_factory=list)
    dropped: list[int] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    objects: list[str] = Field(default_factory=list)
    relations: list[RelationVerdict] = Field(default_factory=list)
    unparsed: list[str] = Field(default_factory=list)
    room: Room = Field(default_factory=lambda: Room())
    boxes: list[Obj] = Field(default_factory=list)
    openings: list[Opening] = Field(default_factory=list)
    scene: Scene | None = Field(None, description="The generated scene, when `random` was given")
    clusters: list[ClusterOut] = Field(default_factory=list)
    initial_layout: dict[str, PoseOut] = Field(default_factory=dict)
    collisions: list[tuple[str, str]] = Field(default_factory=list)
    out_of_room: list[str] = Field(default_factory=list)
    blocked: list[tuple[str, str]] = Field(default_factory=list, description="(opening, object) pairs")
    loss: list[float] = Field(default_factory=list)
    ablations: list[AblationRow] = Field(default_factory=list)
    milp: MilpReport | None = None

    def tables(self) -> list[Table]:
        return layout_tables(self.relations, self.ablations)

    @model_validator(mode="after")
    def _ok_only_if_every_exact_check_passes(self) -> Result:
        """The last word after every solver: an `ok` layout that fails any exact check becomes `unsolved`."""
        if self.status != "ok":
            return self
        failed = reported_violations(self)
        if failed:
            self.status = "unsolved"
            for _, k in failed:
                if k is not None:
                    self.relations[k].satisfied = False
                    self.violations = sorted({*self.violations, k})
            self.message = ("the final exact check of the reported layout failed: "
                            + "; ".join(text for text, _ in failed[:5]) + (" ..." if len(failed) > 5 else ""))
        return self

    @model_serializer(mode="wrap")
    def _rename_scores(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        data["metrics"] = data.pop("scores")
        return data

    def answer(self) -> Answer:
        m = self.scores
        if self.status == "ok":
            by = "the MILP solver" if self.solver == "milp" else "the optimiser"
            return Answer("OK", "success", f"{len(self.boxes)} objects, all {m.relation_count} relations hold, no collisions ({by})")
        if self.status == "contradiction":
            return Answer("Contradiction", "error", f"{len(self.conflicts)} minimal conflicting set(s); "
                           f"dropping {len(self.suggested_drop)} relation(s) restores consistency")
        if self.status == "infeasible":
            return Answer("Infeasible", "error", self.reasons[0] if self.reasons else self.message)
        problems = len(self.violations) + len(self.collisions) + len(self.out_of_room) + len(self.blocked)
        proof = " (MILP: no layout with the finite yaw set)" if self.milp and self.milp.status == "infeasible" else ""
        return Answer("Unsolved", "warning", f"best layout found has {problems} violation(s){proof}")

    def metrics(self) -> dict[str, float | int | str]:
        table: dict[str, float | int | str] = {"status": self.status}
        m = self.scores
        if self.status in ("ok", "unsolved"):
            table["solver"] = self.solver or ""
            table["collisions"] = int(m.collision_count or 0)
            table["objects out of room"] = int(m.out_of_room_count or 0)
            table["blocked doors/windows"] = int(m.blocked_openings or 0)
            table["relations satisfied (%)"] = round(100.0 * (m.relation_fraction or 0.0), 1)
            table["relations satisfied"] = f"{m.relations_satisfied} / {m.relation_count}"
            table["clusters"] = len(self.clusters)
            table["optimiser starts"] = m.starts
            table["repair rounds"] = m.repair_rounds
            table["time (s)"] = round(m.seconds, 2)
            if self.milp is not None:
                table["MILP"] = f"{self.milp.status} in {self.milp.seconds:.2f} s"
            if self.dropped:
                table["relations dropped (revise)"] = len(self.dropped)
        elif self.status == "contradiction":
            table["minimal conflict sets"] = len(self.conflicts)
            table["relations to drop (revise)"] = len(self.suggested_drop)
        else:
            table["reasons"] = len(self.reasons)
            table["objects at fault"] = ", ".join(self.objects)
        return table

    def report(self) -> dict[str, Any]:
        """The report.json payload: metrics, per-relation verdicts, conflicts."""
        return {
            "status": self.status,
            "message": self.message,
            "solver": self.solver,
            "metrics": self.scores.model_dump(mode="json"),
            "violations": self.violations,
            "relations": [r.model_dump(mode="json") for r in self.relations],
            "conflicts": self.conflicts,
            "conflict_sentences": self.conflict_sentences,
            "conflict_reasons": self.conflict_reasons,
            "conflict_certified": self.conflict_certified,
            "suggested_drop": self.suggested_drop,
            "dropped": self.dropped,
            "reasons": self.reasons,
            "objects": self.objects,
            "collisions": self.collisions,
            "out_of_room": self.out_of_room,
            "blocked": self.blocked,
            "ablations": [a.model_dump(mode="json") for a in self.ablations],
            "milp": self.milp.model_dump(mode="json") if self.milp else None,
        }

    def scene_glb(self) -> bytes:
        """Return the layout as a binary glTF scene: named boxes with one PBR material per object kind,
        in glTF's frame (Y up, metres): room (x, y, z) -> glTF (x, z, -y)."""
        import trimesh

        colours = kind_colours([b.name for b in self.boxes])
        z_up_to_y_up = trimesh.transformations.rotation_matrix(-math.pi / 2, (1, 0, 0))
        scene = trimesh.Scene()

        def add(mesh: trimesh.Trimesh, name: str, rgba: tuple[int, int, int, int]) -> None:
            material = trimesh.visual.material.PBRMaterial(name=name, baseColorFactor=rgba, metallicFactor=0.0,
                                                           roughnessFactor=0.8)
            mesh.visual = trimesh.visual.TextureVisuals(material=material)
            mesh.apply_transform(z_up_to_y_up)
            scene.add_geometry(mesh, geom_name=name)

        floor = trimesh.creation.box(extents=(self.room.width, self.room.depth, 0.01))
        floor.apply_translation((self.room.width / 2, self.room.depth / 2, -0.005))
        add(floor, "floor", (210, 210, 210, 255))
        for box in self.boxes:
            pose = self.layout[box.name]
            mesh = trimesh.creation.box(extents=(box.width, box.depth, box.height))
            transform = trimesh.transformations.rotation_matrix(math.radians(pose.yaw), (0, 0, 1))
            transform[:3, 3] = (pose.x, pose.y, pose.z + box.height / 2)
            mesh.apply_transform(transform)
            add(mesh, box.name, _rgba(colours[box.name]))
        buffer = io.BytesIO()
        buffer.write(scene.export(file_type="glb"))
        return buffer.getvalue()

    def _csv(self, header: list[str], rows: list[list[Any]]) -> Artifact:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows(rows)
        return Artifact.csv(out.getvalue())

    def artifacts(self) -> dict[str, Artifact]:
        files = {"report.json": Artifact.json(self.report())}
        files["relations.csv"] = self._csv(
            ["index", "sentence", "type", "a", "b", "wall", "source", "satisfied", "in_conflict", "dropped"],
            [[r.index, r.sentence, r.type, r.a, r.b or "", r.wall or r.corner or r.axis or "", r.source,
              "" if r.satisfied is None else r.satisfied, r.in_conflict, r.dropped] for r in self.relations])
        if self.layout:
            poses = {name: p.model_dump(mode="json") for name, p in self.layout.items()}
            files = {"layout.json": Artifact.json({"room": self.room.model_dump(mode="json"), "poses": poses}), **files}
            files["layout.csv"] = self._csv(["object", "x_m", "y_m", "z_m", "yaw_deg", "width_m", "depth_m", "height_m"], [
                [b.name, self.layout[b.name].x, self.layout[b.name].y, self.layout[b.name].z, self.layout[b.name].yaw,
                 b.width, b.depth, b.height] for b in self.boxes])
            files["scene.glb"] = Artifact("model/gltf-binary", self.scene_glb())
        if self.loss:
            files["loss.csv"] = self._csv(["step", "loss"], [[k, v] for k, v in enumerate(self.loss)])
        if self.ablations:
            files["ablations.csv"] = self._csv(list(AblationRow.model_fields), [
                [getattr(a, f) for f in AblationRow.model_fields] for a in self.ablations])
        return files


PALETTE = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#9D755D", "#72B7B2", "#EECA3B", "#FF9DA6", "#79706E",
           "#E45756", "#A0CBE8", "#8CD17D", "#D4A6C8", "#FABFD2", "#B6992D", "#499894")


def kind_colours(names: list[str]) -> dict[str, str]:
    """One colour per object kind (in order of first appearance), as hex."""
    kinds: dict[str, str] = {}
    for name in names:
        kinds.setdefault(kind_of(name), PALETTE[len(kinds) % len(PALETTE)])
    return {name: kinds[kind_of(name)] for name in names}


def _rgba(hex_colour: str) -> tuple[int, int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16), 255)
