"""Result of the layout method: status, poses, exact metrics, conflicts, verdicts and downloads."""

from __future__ import annotations

import io
import math
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, model_serializer

from models.common import Artifact, MethodResult
from models.layout.scene import Obj, Room

__all__ = ["AblationRow", "ClusterOut", "LayoutMetrics", "PoseOut", "RelationVerdict", "Result"]


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
    seconds: float = 0.0
    repair_rounds: int = 0


class RelationVerdict(BaseModel):
    """One relation, its sentence, where it came from, and its fate."""

    index: int
    type: str
    a: str
    b: str | None = None
    wall: str | None = None
    sentence: str
    source: Literal["scene", "statement", "llm"] = "scene"
    satisfied: bool | None = None
    in_conflict: bool = False
    dropped: bool = False


class ClusterOut(BaseModel):
    """An anchor and its members (invariant spatial decomposition)."""

    anchor: str
    members: list[str]


class AblationRow(BaseModel):
    """One variant of the method on the same scene."""

    variant: str
    collision_count: int
    out_of_room_count: int
    relation_fraction: float
    seconds: float
    repair_rounds: int


class Result(MethodResult):
    """`status` ok | contradiction | infeasible; `metrics` is serialised under that name (CLI contract)."""

    status: Literal["ok", "contradiction", "infeasible"]
    message: str = ""
    layout: dict[str, PoseOut] = Field(default_factory=dict)
    scores: LayoutMetrics = Field(default_factory=LayoutMetrics, validation_alias=AliasChoices("metrics", "scores"))
    conflicts: list[list[int]] = Field(default_factory=list)
    conflict_sentences: list[list[str]] = Field(default_factory=list)
    conflict_reasons: list[str] = Field(default_factory=list)
    suggested_drop: list[int] = Field(default_factory=list)
    dropped: list[int] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    objects: list[str] = Field(default_factory=list)
    relations: list[RelationVerdict] = Field(default_factory=list)
    unparsed: list[str] = Field(default_factory=list)
    room: Room = Field(default_factory=lambda: Room())
    boxes: list[Obj] = Field(default_factory=list)
    clusters: list[ClusterOut] = Field(default_factory=list)
    initial_layout: dict[str, PoseOut] = Field(default_factory=dict)
    collisions: list[tuple[str, str]] = Field(default_factory=list)
    out_of_room: list[str] = Field(default_factory=list)
    loss: list[float] = Field(default_factory=list)
    ablations: list[AblationRow] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _rename_scores(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        data["metrics"] = data.pop("scores")
        return data

    def metrics(self) -> dict[str, float | int | str]:
        table: dict[str, float | int | str] = {"status": self.status}
        m = self.scores
        if self.status == "ok":
            table["collisions"] = int(m.collision_count or 0)
            table["objects out of room"] = int(m.out_of_room_count or 0)
            table["relations satisfied (%)"] = round(100.0 * (m.relation_fraction or 0.0), 1)
            table["relations satisfied"] = f"{m.relations_satisfied} / {m.relation_count}"
            table["clusters"] = len(self.clusters)
            table["repair rounds"] = m.repair_rounds
            table["time (s)"] = round(m.seconds, 2)
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
            "metrics": self.scores.model_dump(mode="json"),
            "relations": [r.model_dump(mode="json") for r in self.relations],
            "conflicts": self.conflicts,
            "conflict_sentences": self.conflict_sentences,
            "conflict_reasons": self.conflict_reasons,
            "suggested_drop": self.suggested_drop,
            "dropped": self.dropped,
            "reasons": self.reasons,
            "objects": self.objects,
            "collisions": self.collisions,
            "out_of_room": self.out_of_room,
            "ablations": [a.model_dump(mode="json") for a in self.ablations],
        }

    def scene_glb(self) -> bytes:
        """Return the layout as a binary glTF scene of named boxes (trimesh)."""
        import trimesh

        scene = trimesh.Scene()
        floor = trimesh.creation.box(extents=(self.room.width, self.room.depth, 0.01))
        floor.apply_translation((self.room.width / 2, self.room.depth / 2, -0.005))
        scene.add_geometry(floor, geom_name="floor")
        for box in self.boxes:
            pose = self.layout[box.name]
            mesh = trimesh.creation.box(extents=(box.width, box.depth, box.height))
            transform = trimesh.transformations.rotation_matrix(math.radians(pose.yaw), (0, 0, 1))
            transform[:3, 3] = (pose.x, pose.y, pose.z + box.height / 2)
            mesh.apply_transform(transform)
            scene.add_geometry(mesh, geom_name=box.name)
        buffer = io.BytesIO()
        buffer.write(scene.export(file_type="glb"))
        return buffer.getvalue()

    def artifacts(self) -> dict[str, Artifact]:
        files = {"report.json": Artifact.json(self.report())}
        if self.status == "ok":
            poses = {name: p.model_dump(mode="json") for name, p in self.layout.items()}
            files = {"layout.json": Artifact.json({"room": self.room.model_dump(mode="json"), "poses": poses}), **files}
            files["scene.glb"] = Artifact("model/gltf-binary", self.scene_glb())
        return files
