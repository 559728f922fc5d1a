"""`ok` is impossible while an exact check fails (the result's own validator re-checks the reported layout),
and `far` in a room too small for it is a named contradiction on every seed (a certified gap bound)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.common import no_progress
from models.layout.consistency import check_consistency
from models.layout.far_bound import max_gap_bound
from models.layout.geometry import footprint, footprint_gap
from models.layout.params import Params
from models.layout.result import PoseOut, RelationVerdict, Result
from models.layout.scene import Room
from models.layout.seeds import run
from tests.models.layout.helpers import boxes, rel, scene

TWO = boxes(("a", 1.0, 0.5, 0.8), ("b", 1.0, 0.5, 0.8))


def _result(b_x: float, status: str = "ok") -> Result:
    near = RelationVerdict(index=0, type="near", a="a", b="b", sentence="a is near b", satisfied=True)
    layout = {"a": PoseOut(x=1.0, y=1.0, z=0.0, yaw=0.0), "b": PoseOut(x=b_x, y=1.0, z=0.0, yaw=0.0)}
    return Result(status=status, layout=layout, boxes=TWO, relations=[near],  # type: ignore[arg-type]
                  room=Room(width=6.0, depth=3.0, height=2.6))


def test_an_ok_result_whose_layout_breaks_a_relation_is_reported_unsolved() -> None:
    assert _result(2.5).status == "ok"  # gap 0.5 m: near holds
    broken = _result(4.5)  # gap 2.5 m: near fails, yet a solver claimed ok
    assert broken.status == "unsolved" and broken.violations == [0]
    assert broken.relations[0].satisfied is False and "final exact check" in broken.message
    assert broken.verdict().tone == "warning"
    assert _result(1.2).status == "unsolved"  # the two boxes collide


def _brute_max_gap(a: tuple[float, float], b: tuple[float, float], room: tuple[float, float]) -> float:
    rng, best = np.random.default_rng(0), -math.inf
    for p, q in rng.uniform(0.0, 180.0, size=(1500, 2)):
        ext = []
        for (w, d), yaw in ((a, p), (b, q)):
            t = math.radians(yaw)
            ext.append((0.5 * (w * abs(math.cos(t)) + d * abs(math.sin(t))),
                        0.5 * (w * abs(math.sin(t)) + d * abs(math.cos(t)))))
        if any(2 * hx > room[0] or 2 * hy > room[1] for hx, hy in ext):
            continue
        (hxa, hya), (hxb, hyb) = ext
        for sy in (0, 1):  # opposite corners
            ya, yb = (hya, room[1] - hyb) if sy == 0 else (room[1] - hya, hyb)
            gap = footprint_gap(footprint(hxa, ya, p, *a), footprint(room[0] - hxb, yb, q, *b))
            best = max(best, gap)
    return best


@pytest.mark.parametrize("a,b,room", [((0.5, 0.5), (0.4, 0.4), (3.0, 3.0)), ((2.0, 0.9), (1.0, 0.3), (2.5, 2.5)),
                                      ((3.0, 0.2), (0.3, 0.3), (3.2, 2.0))])
def test_the_gap_bound_is_never_below_a_placement_and_stays_tight(a: tuple[float, float], b: tuple[float, float],
                                                                  room: tuple[float, float]) -> None:
    bound, seen = max_gap_bound(a, b, room), _brute_max_gap(a, b, room)
    assert seen <= bound <= seen + 0.08


def test_far_between_a_sofa_and_a_shelf_in_a_small_room_is_a_named_contradiction_on_every_seed() -> None:
    objs = boxes(("sofa", 2.0, 0.9, 0.8), ("shelf", 1.0, 0.3, 1.8))
    s = scene(objs, [rel("far", "sofa", "shelf")], room=(2.5, 2.5, 2.6))  # the incircle bound misses it
    report = check_consistency(s, s.relations)
    assert report.conflicts == [[0]] and "too small" in report.reasons[0]
    result = run(Params(scene=s, seeds=3), no_progress)
    assert result.status == "contradiction"
    claims = {c.id: c for c in result.claims}
    assert [o.value for o in claims["same_answer"].seeds] == [1.0, 1.0, 1.0]
    assert check_consistency(scene(objs, s.relations, room=(3.5, 2.5, 2.6)), s.relations).consistent


def test_claims_are_measured_on_every_seed_of_a_generated_scene() -> None:
    result = run(Params(random={"seed": 1, "objects": 5}, seeds=2, starts=1, stage2_iterations=60,
                        repair_rounds=1), no_progress)
    claims = {c.id: c for c in result.claims}
    assert all(len(c.seeds) == 2 for c in claims.values())
    if result.status == "ok":
        assert claims["sound"].holds == "held" and claims["feasible"].holds in ("held", "partial")


FAR_CASES = [  # (object a, object b, room): far (gap >= the far threshold) cannot fit in any of these rooms
    (("sofa", 2.0, 0.9, 0.8), ("shelf", 1.0, 0.3, 1.8), (2.5, 2.5, 2.6)),
    (("desk", 1.2, 0.6, 0.8), ("lamp", 0.3, 0.3, 1.5), (2.0, 1.8, 2.6)),
    (("bed", 1.6, 2.0, 0.5), ("chair", 0.5, 0.5, 0.9), (2.4, 2.6, 2.6)),
]


@pytest.mark.parametrize("a,b,room", FAR_CASES)
def test_far_in_a_room_too_small_is_a_named_contradiction_on_each_seed_run_alone(
        a: tuple[str, float, float, float], b: tuple[str, float, float, float],
        room: tuple[float, float, float]) -> None:
    from models.layout.run import run as run_once

    s = scene(boxes(a, b), [rel("far", a[0], b[0])], room=room)
    for seed in range(5):
        result = run_once(Params(scene=s, seed=seed), no_progress)
        assert result.status == "contradiction", (seed, result.status, result.message)
        assert result.conflicts == [[0]] and "too small" in result.conflict_reasons[0], (seed, result.conflict_reasons)
