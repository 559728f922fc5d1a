"""The R^3L vocabulary added in v2: corner, align, around, walkway clearance, doors and windows, with exact
checks on hand-built poses (true and false), sentences, losses that vanish when they hold, and the MILP."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.layout.losses import CompiledRelations, opening_residuals, relation_residuals
from models.layout.milp import solve_milp
from models.layout.pipeline import exact_violations
from models.layout.relations import blocked_openings, check_relation, rectangle
from models.layout.scene import Opening, Relation, Scene
from models.layout.sentences import parse_sentence, render
from tests.models.layout.helpers import boxes, rel, scene

ROOM = (5.0, 4.0, 2.6)
INDEX = {"a": 0, "b": 1, "c": 2}
SIZES = np.array([[0.6, 0.4, 0.8], [1.2, 0.8, 0.75], [0.5, 0.5, 0.9]])


def poses(*rows: tuple[float, float, float]) -> np.ndarray:
    return np.array([[x, y, 0.0, yaw] for x, y, yaw in rows])


def holds(relation: Relation, p: np.ndarray) -> bool:
    return check_relation(relation, INDEX, p, SIZES, ROOM)


def test_corner() -> None:
    corner = Relation(type="corner", a="a", corner="north_east")
    assert holds(corner, poses((5.0 - 0.3 - 0.05, 4.0 - 0.2 - 0.05, 0.0), (2, 2, 0), (1, 1, 0)))
    assert not holds(corner, poses((5.0 - 0.3 - 0.15, 4.0 - 0.2 - 0.05, 0.0), (2, 2, 0), (1, 1, 0)))  # 15 cm off east
    assert not holds(Relation(type="corner", a="a", corner="south_west"), poses((4.65, 3.75, 0.0), (2, 2, 0), (1, 1, 0)))


def test_align_on_an_axis_or_either() -> None:
    p = poses((1.0, 1.0, 0.0), (1.015, 3.0, 0.0), (4, 1, 0))
    assert holds(Relation(type="align", a="a", b="b", axis="x"), p)
    assert not holds(Relation(type="align", a="a", b="b", axis="y"), p)
    assert holds(Relation(type="align", a="a", b="b"), p)
    assert not holds(Relation(type="align", a="a", b="b", axis="x"), poses((1.0, 1.0, 0.0), (1.05, 3.0, 0.0), (4, 1, 0)))


def test_around_is_near_and_facing_the_centre() -> None:
    # b at (2.5, 2); a south of it, 0.5 m gap, facing north (yaw 0) -> holds; facing east -> fails; 1.5 m away -> fails
    assert holds(Relation(type="around", a="a", b="b"), poses((2.5, 1.1, 0.0), (2.5, 2.0, 0.0), (4, 1, 0)))
    assert not holds(Relation(type="around", a="a", b="b"), poses((2.5, 1.1, -90.0), (2.5, 2.0, 0.0), (4, 1, 0)))
    assert not holds(Relation(type="around", a="a", b="b"), poses((2.5, 0.2, 0.0), (4.0, 3.5, 0.0), (1, 3, 0)))


def test_clearance_zone_must_be_free_and_inside() -> None:
    free = Relation(type="clearance", a="a", distance=0.6)
    # a faces north (yaw 0) at (1, 1): its zone is y in [1.2, 1.8], x in [0.7, 1.3]
    assert holds(free, poses((1.0, 1.0, 0.0), (3.5, 2.5, 0.0), (4.5, 0.5, 0.0)))
    assert not holds(free, poses((1.0, 1.0, 0.0), (1.0, 2.0, 0.0), (4.5, 0.5, 0.0)))  # b stands in it
    assert not holds(free, poses((1.0, 3.5, 0.0), (3.5, 1.5, 0.0), (4.5, 0.5, 0.0)))  # the zone leaves the room
    assert holds(Relation(type="clearance", a="a", distance=0.3), poses((1.0, 3.5, 0.0), (3.5, 1.5, 0.0), (4.5, 0.5, 0.0)))


def test_doors_block_everything_windows_only_tall_furniture() -> None:
    door = Opening(name="door", kind="door", wall="south", offset=1.0, width=0.9, clearance=0.9)
    window = Opening(name="window", kind="window", wall="north", offset=1.0, width=1.2, clearance=0.5, sill=0.85)
    s = Scene.model_validate({"room": {"width": 5, "depth": 4, "height": 2.6},
                              "objects": [{"name": n, "width": float(w), "depth": float(d), "height": float(h)}
                                          for n, (w, d, h) in zip("abc", SIZES, strict=True)],
                              "openings": [door.model_dump(), window.model_dump()]})
    assert door.zone(s.room) == (1.0, 0.0, 1.9, 0.9) and window.zone(s.room) == (1.0, 3.5, 2.2, 4.0)
    clear = poses((4.0, 2.0, 0.0), (3.0, 1.5, 0.0), (0.3, 2.0, 0.0))
    assert blocked_openings(s, clear, SIZES) == []
    in_door = poses((1.4, 0.5, 0.0), (3.0, 1.5, 0.0), (0.3, 2.0, 0.0))
    assert blocked_openings(s, in_door, SIZES) == [("door", "a")]
    under_window = poses((4.0, 2.0, 0.0), (1.6, 3.6, 0.0), (1.5, 3.7, 0.0))  # b 0.75 m (below the sill), c 0.9 m
    assert blocked_openings(s, under_window, SIZES) == [("window", "c")]
    zone = torch.tensor(rectangle(*door.zone(s.room)))[None]
    blocked = torch.ones(1, 3, dtype=torch.float64)
    as_torch = torch.tensor(np.column_stack([clear[:, :3], np.radians(clear[:, 3])]))[None]
    assert float(opening_residuals(as_torch, torch.tensor(SIZES), zone, blocked)[0]) == 0.0
    inside = torch.tensor(np.column_stack([in_door[:, :3], np.radians(in_door[:, 3])]))[None]
    assert float(opening_residuals(inside, torch.tensor(SIZES), zone, blocked)[0]) > 0.1


@pytest.mark.parametrize("relation", [
    Relation(type="corner", a="a", corner="south_west"),
    Relation(type="align", a="a", b="b", axis="y"),
    Relation(type="align", a="a", b="b"),
    Relation(type="around", a="c", b="b"),
    Relation(type="clearance", a="a", distance=0.8),
    Relation(type="clearance", a="a"),
])
def test_sentences_round_trip(relation: Relation) -> None:
    assert parse_sentence(render(relation), ["a", "b", "c"]) == relation


@pytest.mark.parametrize("relation,good,bad", [
    (Relation(type="corner", a="a", corner="south_west"), ((0.32, 0.22, 0.0),), ((1.5, 0.22, 0.0),)),
    (Relation(type="align", a="a", b="b", axis="x"), ((2.5, 1.0, 0.0),), ((1.0, 1.0, 0.0),)),
    (Relation(type="clearance", a="a", distance=0.6), ((2.5, 0.5, 0.0),), ((2.5, 1.5, 0.0),)),
])
def test_losses_vanish_exactly_when_the_relation_holds_with_margin(relation: Relation, good: tuple, bad: tuple) -> None:  # type: ignore[type-arg]
    compiled = CompiledRelations.build([relation], INDEX)
    rest = [(2.5, 2.5, 0.0), (4.5, 3.5, 0.0)]
    for rows, expect_zero in ((good, True), (bad, False)):
        p = poses(*rows, *rest)
        assert holds(relation, p) == expect_zero
        t = torch.tensor(np.column_stack([p[:, :3], np.radians(p[:, 3])]))[None]
        value = float(relation_residuals(t, torch.tensor(SIZES), compiled, ROOM)[0, 0])
        assert (value < 1e-9) == expect_zero, value


def test_milp_lays_out_the_new_vocabulary_and_the_exact_checks_accept_it() -> None:
    objs = boxes(("table", 1.2, 0.8, 0.75), ("chair_1", 0.5, 0.5, 0.9), ("chair_2", 0.5, 0.5, 0.9),
                 ("shelf", 0.9, 0.35, 1.8), ("plant", 0.4, 0.4, 1.1))
    rels = [rel("around", "chair_1", "table"), rel("around", "chair_2", "table"),
            Relation(type="corner", a="plant", corner="north_east"), rel("against_wall", "shelf", wall="west"),
            Relation(type="clearance", a="shelf", distance=0.7), Relation(type="align", a="chair_1", b="table", axis="x")]
    s = scene(objs, rels, room=(4.0, 3.5, 2.6))
    s.openings.append(Opening(name="door", wall="south", offset=0.2, width=0.9))
    proof = solve_milp(s, rels, time_limit=30)
    assert proof.status == "feasible" and proof.poses is not None
    assert exact_violations(s, rels, proof.poses) == []
