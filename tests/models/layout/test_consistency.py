"""Contradictions are found as minimal conflict sets; revise drops the fewest relations."""

from __future__ import annotations

import itertools

import pytest

from models.common import no_progress
from models.layout.consistency import check_consistency, find_inconsistency, infeasibility
from models.layout.params import Params
from models.layout.run import run
from models.layout.scene import Obj, Room, Scene
from tests.models.layout.helpers import boxes, rel, scene

THREE = boxes(("a", 0.8, 0.5, 0.8), ("b", 0.8, 0.5, 0.8), ("c", 0.8, 0.5, 0.8))


def consistent(s: Scene, subset: list[int]) -> bool:
    return find_inconsistency(s, s.relations, subset) is None


def assert_minimal(s: Scene, conflict: list[int]) -> None:
    assert not consistent(s, conflict)
    for k in conflict:
        assert consistent(s, [j for j in conflict if j != k]), f"{conflict} stays inconsistent without {k}"


def test_pinned_left_of_cycle_names_the_pins() -> None:
    rels = [rel("left_of", "a", "b"), rel("left_of", "b", "c"), rel("left_of", "c", "a"),
            rel("against_wall", "a", wall="south"), rel("against_wall", "b", wall="south"),
            rel("against_wall", "c", wall="south"), rel("near", "a", "b")]
    s = scene(THREE, rels)
    report = check_consistency(s, rels)
    assert report.conflicts == [[0, 1, 2, 3, 4, 5]]  # the pins are part of the minimal set, near is not
    assert_minimal(s, report.conflicts[0])
    assert len(report.drop) == 1 and report.drop[0] in report.conflicts[0]


def test_unpinned_left_of_cycle_is_not_a_contradiction() -> None:
    rels = [rel("left_of", "a", "b"), rel("left_of", "b", "c"), rel("left_of", "c", "a")]
    assert check_consistency(scene(THREE, rels), rels).consistent


def test_pins_on_different_walls_resolve_differently() -> None:
    # b against the north wall faces south: its left is +x; a left_of b and b west_of... a cycle in x
    rels = [rel("against_wall", "b", wall="north"), rel("left_of", "a", "b"), rel("east_of", "b", "a")]
    s = scene(THREE, rels)
    report = check_consistency(s, rels)
    assert report.conflicts == [[0, 1, 2]]


@pytest.mark.parametrize("pair", [("west_of", "east_of"), ("south_of", "north_of"), ("left_of", "right_of"),
                                  ("in_front_of", "behind"), ("near", "far"), ("on_top_of", "far")])
def test_opposite_pairs(pair: tuple[str, str]) -> None:
    rels = [rel(pair[0], "a", "b"), rel("near", "c", "a"), rel(pair[1], "a", "b")]
    report = check_consistency(scene(THREE, rels), rels)
    assert report.conflicts == [[0, 2]]


def test_compass_cycle_and_a_separate_opposite_pair() -> None:
    rels = [rel("north_of", "a", "b"), rel("north_of", "b", "c"), rel("north_of", "c", "a"),
            rel("west_of", "a", "c"), rel("west_of", "c", "a")]
    s = scene(THREE, rels)
    report = check_consistency(s, rels)
    assert sorted(report.conflicts) == [[0, 1, 2], [3, 4]]
    for conflict in report.conflicts:
        assert_minimal(s, conflict)
    assert len(report.drop) == 2
    assert consistent(s, [k for k in range(len(rels)) if k not in report.drop])


def test_support_cycle_and_too_tall_stack() -> None:
    rels = [rel("on_top_of", "a", "b"), rel("on_top_of", "b", "a")]
    assert check_consistency(scene(THREE, rels), rels).conflicts == [[0, 1]]
    tall = boxes(("a", 0.5, 0.5, 1.0), ("b", 0.5, 0.5, 1.0), ("c", 0.5, 0.5, 1.0))
    rels = [rel("on_top_of", "a", "b"), rel("on_top_of", "b", "c")]
    assert check_consistency(scene(tall, rels, room=(4, 4, 2.5)), rels).conflicts == [[0, 1]]
    assert check_consistency(scene(tall, rels, room=(4, 4, 3.1)), rels).consistent


def test_wall_run_longer_than_the_wall() -> None:
    wide = boxes(("a", 1.5, 0.5, 0.8), ("b", 1.5, 0.5, 0.8), ("c", 1.5, 0.5, 0.8))
    rels = [rel("against_wall", n, wall="west") for n in "abc"]
    s = scene(wide, rels, room=(5.0, 4.0, 2.6))  # 4.5 m of objects along a 4 m wall
    report = check_consistency(s, rels)
    assert report.conflicts == [[0, 1, 2]]
    assert check_consistency(scene(wide, rels, room=(5.0, 4.6, 2.6)), rels).consistent


def test_pinned_object_too_deep_for_its_wall_and_facing_clash() -> None:
    deep = boxes(("a", 0.5, 3.0, 0.8), ("b", 0.5, 0.5, 0.5), ("c", 0.5, 0.5, 0.5))
    rels = [rel("against_wall", "a", wall="west")]  # 3 m deep along x in a 2.5 m wide room
    assert check_consistency(scene(deep, rels, room=(2.5, 4.0, 2.6)), rels).conflicts == [[0]]
    rels = [rel("against_wall", "b", wall="south"), rel("facing", "b", wall="east")]
    assert check_consistency(scene(deep, rels), rels).conflicts == [[0, 1]]


def test_revise_is_a_minimum_correction_set_by_brute_force() -> None:
    rels = [rel("west_of", "a", "b"), rel("west_of", "b", "c"), rel("west_of", "c", "a"),
            rel("east_of", "a", "b"), rel("north_of", "a", "b"), rel("south_of", "a", "b")]
    s = scene(THREE, rels)
    report = check_consistency(s, rels)
    everything = range(len(rels))
    smallest = next(size for size in range(len(rels) + 1)
                    if any(consistent(s, [k for k in everything if k not in drop])
                           for drop in itertools.combinations(everything, size)))
    assert len(report.drop) == smallest == 2
    assert consistent(s, [k for k in everything if k not in report.drop])
    for conflict in report.conflicts:
        assert_minimal(s, conflict)


def test_contradiction_status_and_revise_through_run() -> None:
    rels = [rel("against_wall", n, wall="south") for n in "abc"]
    rels += [rel("left_of", "a", "b"), rel("left_of", "b", "c"), rel("left_of", "c", "a")]
    s = scene(THREE, rels)
    result = run(Params(scene=s), no_progress)
    assert result.status == "contradiction"
    assert result.conflicts == [[0, 1, 2, 3, 4, 5]]
    assert result.conflict_sentences[0][0] == "the a is against the south wall"
    assert result.conflict_certified == [True]  # the MILP confirms the proof
    dumped = result.model_dump(mode="json")
    assert dumped["conflicts"] == [[0, 1, 2, 3, 4, 5]] and dumped["metrics"]["collision_count"] is None
    revised = run(Params(scene=s, revise=True, stage2_iterations=100), no_progress)
    assert revised.status == "ok" and len(revised.dropped) == 1
    assert revised.scores.collision_count == 0 and revised.scores.relation_fraction == 1.0


def test_object_wider_than_the_room_is_infeasible_not_an_exception() -> None:
    s = Scene(room=Room(width=4, depth=3.6, height=2.6),
              objects=[Obj(name="bed", width=1.6, depth=2.0, height=0.5), Obj(name="piano", width=4.5, depth=3.8, height=1.2)])
    result = run(Params(scene=s), no_progress)
    assert result.status == "infeasible"
    assert result.objects[0] == "piano" and "piano" in result.reasons[0]
    dumped = result.model_dump(mode="json")
    assert dumped["status"] == "infeasible" and dumped["objects"][0] == "piano" and dumped["reasons"]


def test_infeasibility_reasons() -> None:
    s = scene(boxes(("tall", 0.5, 0.5, 3.0), ("rod", 4.5, 0.05, 0.1)), [], room=(4.0, 3.6, 2.6))
    reasons, culprits = infeasibility(s, [])
    assert culprits == ["tall"]  # the 4.5 m rod fits along the diagonal (5.4 m)
    s = scene(boxes(*[(f"o{i}", 2.0, 2.0, 0.5) for i in range(4)]), [], room=(4.0, 3.6, 2.6))
    reasons, culprits = infeasibility(s, [])
    assert "floor" in reasons[0] and len(culprits) == 4
    stacked = [rel("on_top_of", "o1", "o0"), rel("on_top_of", "o3", "o2")]
    assert infeasibility(s, stacked) == ([], [])
