"""Contradictions are guarantees: the issue's false and missed contradictions, and a property test that
the MILP confirms every conflict set the consistency stage reports."""

from __future__ import annotations

import numpy as np
import pytest

from models.layout.consistency import check_consistency, find_inconsistency
from models.layout.generator import random_scene
from models.layout.milp import solve_milp
from models.layout.pipeline import exact_violations
from models.layout.resolve import grounded, half_extent_range
from models.layout.scene import Obj, Relation, Room, Scene
from tests.models.layout.helpers import boxes, rel, scene

THREE = boxes(("a", 0.8, 0.5, 0.8), ("b", 0.8, 0.5, 0.8), ("c", 0.8, 0.5, 0.8))


def test_thin_mirror_behind_a_desk_is_not_a_wall_run_contradiction() -> None:
    # 1.0 m mirror + 1.4 m desk > 2 m wall, but the 5 cm mirror fits in the desk's 10 cm wall gap
    objs = boxes(("mirror", 1.0, 0.05, 1.2), ("desk", 1.4, 0.6, 0.75))
    rels = [rel("against_wall", "mirror", wall="south"), rel("against_wall", "desk", wall="south")]
    s = scene(objs, rels, room=(2.0, 3.0, 2.6))
    assert check_consistency(s, rels).consistent
    witness = np.array([[1.0, 0.03, 0.0, 0.0], [1.0, 0.09 + 0.3, 0.0, 0.0]])  # mirror at the wall, desk 9 cm off it
    assert exact_violations(s, rels, witness) == []


def test_a_deep_wall_run_longer_than_the_wall_is_still_a_contradiction() -> None:
    objs = boxes(("a", 1.0, 0.4, 1.2), ("b", 1.4, 0.6, 0.75))
    rels = [rel("against_wall", "a", wall="south"), rel("against_wall", "b", wall="south")]
    s = scene(objs, rels, room=(2.0, 3.0, 2.6))
    report = check_consistency(s, rels)
    assert report.conflicts == [[0, 1]]
    assert solve_milp(s, rels, time_limit=10).status == "infeasible"


def test_left_of_cycle_facing_the_north_wall_is_not_a_contradiction() -> None:
    # facing a wall allows +-30 degrees: tilted objects can each have the next on their left
    rels = [rel("facing", n, wall="north") for n in "abc"]
    rels += [rel("left_of", "a", "b"), rel("left_of", "b", "c"), rel("left_of", "c", "a")]
    s = scene(THREE, rels, room=(6.0, 6.0, 2.6))
    assert check_consistency(s, rels).consistent
    proof = solve_milp(s, rels, time_limit=30)
    assert proof.status == "feasible" and proof.poses is not None
    assert exact_violations(s, rels, proof.poses) == []  # a witness the exact checker accepts


def test_lamp_on_two_supports_of_different_heights_is_a_contradiction() -> None:
    objs = boxes(("lamp", 0.25, 0.25, 0.4), ("table", 1.2, 0.8, 0.75), ("nightstand", 0.45, 0.4, 0.55))
    rels = [rel("on_top_of", "lamp", "table"), rel("on_top_of", "lamp", "nightstand")]
    s = scene(objs, rels)
    report = check_consistency(s, rels)
    assert report.conflicts == [[0, 1]]
    assert "support" in report.reasons[0]


def test_far_in_a_room_too_small_is_a_contradiction() -> None:
    objs = boxes(("a", 1.0, 1.0, 0.5), ("b", 1.0, 1.0, 0.5))
    rels = [rel("far", "a", "b")]
    s = scene(objs, rels, room=(2.5, 2.0, 2.6))
    report = check_consistency(s, rels)
    assert report.conflicts == [[0]] and "too small" in report.reasons[0]
    assert solve_milp(s, rels, time_limit=10).status == "infeasible"
    assert check_consistency(scene(objs, rels, room=(4.5, 2.0, 2.6)), rels).consistent


@pytest.mark.parametrize("yaw,tol", [(0.0, 0.0), (30.0, 0.0), (180.0, 10.0), (-90.0, 30.0), (45.0, 30.0)])
def test_half_extent_range_bounds_every_yaw_in_the_interval(yaw: float, tol: float) -> None:
    w, d = 1.3, 0.4
    for axis in (0, 1):
        lo, hi = half_extent_range(w, d, yaw, tol, axis)
        for y in np.linspace(yaw - tol, yaw + tol, 401):
            t = np.radians(y)
            c, s_ = abs(np.cos(t)), abs(np.sin(t))
            ext = 0.5 * (w * c + d * s_ if axis == 0 else w * s_ + d * c)
            assert lo - 1e-12 <= ext <= hi + 1e-12


@pytest.mark.parametrize("seed", range(12))
def test_generated_feasible_scenes_are_never_called_contradictions(seed: int) -> None:
    generated = random_scene(seed, 6 + seed % 10)
    s = generated.scene
    assert find_inconsistency(s, s.relations, list(range(len(s.relations)))) is None


_KINDS = ("left_of", "right_of", "in_front_of", "behind", "west_of", "east_of", "south_of", "north_of", "near",
          "far", "on_top_of", "facing", "align", "around")


def _random_small_scene(seed: int) -> Scene:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 5))
    objs = [Obj(name=f"o{i}", width=round(float(rng.uniform(0.3, 1.4)), 2), depth=round(float(rng.uniform(0.3, 1.0)), 2),
                height=round(float(rng.uniform(0.3, 1.2)), 2)) for i in range(n)]
    room = Room(width=round(float(rng.uniform(2.0, 4.0)), 2), depth=round(float(rng.uniform(2.0, 4.0)), 2), height=2.6)
    rels: list[Relation] = []
    for _ in range(int(rng.integers(4, 8))):
        a, b = (int(v) for v in rng.choice(n, size=2, replace=False))
        roll = rng.random()
        if roll < 0.2:
            rels.append(rel("against_wall", f"o{a}", wall=str(rng.choice(["north", "south", "east", "west"]))))
        elif roll < 0.3:
            rels.append(rel("facing", f"o{a}", wall=str(rng.choice(["north", "south", "east", "west"]))))
        else:
            kind = _KINDS[int(rng.integers(len(_KINDS)))]
            extra = {"axis": "x"} if kind == "align" else {}
            rels.append(Relation(type=kind, a=f"o{a}", b=f"o{b}", **extra))  # type: ignore[arg-type]
    return Scene(room=room, objects=objs, relations=rels)


def test_every_reported_conflict_is_confirmed_by_the_milp() -> None:
    """Property: whenever the consistency stage says contradiction, no layout satisfies the reported set
    (the MILP's relaxed model over its yaw set is infeasible)."""
    confirmed = 0
    for seed in range(60):
        s = _random_small_scene(seed)
        if any(r.type == "on_top_of" and r.a == r.b for r in s.relations):
            continue
        report = check_consistency(s, s.relations, budget_s=5.0)
        floor = grounded(s, s.relations)
        for conflict in report.conflicts:
            subset = [s.relations[k] for k in conflict]
            proof = solve_milp(s, subset, time_limit=20, floor=floor, check=False)
            assert proof.status == "infeasible", (seed, conflict, report.reasons)
            confirmed += 1
    assert confirmed >= 20  # the property was exercised, not vacuous
