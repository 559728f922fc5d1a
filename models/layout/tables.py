"""The result tables of a layout run as data: every relation with whether it holds, and the ablations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from models.common.contract import Cell, Column, Table

__all__ = ["ABLATIONS", "RELATIONS", "layout_tables"]

RELATIONS, ABLATIONS = "Relations", "Ablations (optimiser only, same scene and budget)"


class _Relation(Protocol):
    """What the relations table reads of a `result.RelationVerdict`."""

    @property
    def index(self) -> int: ...
    @property
    def sentence(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def satisfied(self) -> bool | None: ...
    @property
    def in_conflict(self) -> bool: ...
    @property
    def dropped(self) -> bool: ...


class _Ablation(Protocol):
    """What the ablations table reads of a `result.AblationRow`."""

    @property
    def variant(self) -> str: ...
    @property
    def clean(self) -> bool: ...
    @property
    def collision_count(self) -> int: ...
    @property
    def out_of_room_count(self) -> int: ...
    @property
    def relations_violated(self) -> int: ...
    @property
    def starts(self) -> int: ...
    @property
    def seconds(self) -> float: ...


def layout_tables(relations: Sequence[_Relation], ablations: Sequence[_Ablation]) -> list[Table]:
    """The relations (when there are any) and the ablations (when they ran)."""
    tables = []
    if relations:
        rows: list[dict[str, Cell]] = [
            {"index": r.index + 1, "sentence": r.sentence, "source": r.source,
             "holds": "dropped" if r.dropped else r.satisfied, "conflict": "yes" if r.in_conflict else ""}
            for r in relations]
        tables.append(Table(title=RELATIONS, rows=rows, columns=[
            Column(key="index", label="#"), Column(key="sentence", label="Sentence", fmt="text"),
            Column(key="source", label="Source", fmt="text"), Column(key="holds", label="Holds", fmt="mark"),
            Column(key="conflict", label="In a conflict", fmt="text")]))
    if ablations:
        tables.append(Table(title=ABLATIONS, rows=[
            {"variant": a.variant, "clean": a.clean, "collisions": a.collision_count, "out": a.out_of_room_count,
             "violated": a.relations_violated, "starts": a.starts, "seconds": a.seconds} for a in ablations],
            columns=[Column(key="variant", label="Variant", fmt="text"), Column(key="clean", label="Clean", fmt="mark"),
                     Column(key="collisions", label="Collisions"), Column(key="out", label="Out of room"),
                     Column(key="violated", label="Relations violated"), Column(key="starts", label="Starts"),
                     Column(key="seconds", label="Time", unit="s")]))
    return tables
