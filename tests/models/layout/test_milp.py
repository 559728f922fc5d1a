"""The complete MILP solver: feasible scenes come back with a layout the exact checks accept, infeasible
ones (that the consistency stage cannot see) are proved so, and the minimal infeasible set is minimal."""

from __future__ import annotations

import pytest

from models.common import no_progress
from models.layout.consistency import check_consistency
from models.layout.examples import examples
from models.layout.generator import random_scene
from models.layout.milp import solve_milp, yaw_options
from models.layout.mus import milp_conflict, milp_infeasible
from models.layout.params import Params
from models.layout.pipeline import exact_violations
from models.layout.resolve import grounded
from models.layout.run import run
from tests.models.layout.helpers import boxes, rel, scene


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_small_scenes_are_proved_feasible_with_a_checked_layout(seed: int) -> None:
    s = random_scene(100 + seed, 8).scene
    proof = solve_milp(s, s.relations, time_limit=30)
    assert proof.status == "feasible" and proof.poses is not None
    assert exact_violations(s, s.relations, proof.poses) == []


def test_five_squares_do_not_fit_a_two_metre_room() -> None:
    # 5 squares of 0.9 m need a 2.44 m square (even turned); area 4.05 m^2 < 4.08 m^2 passes the area test
    s = scene(boxes(*[(f"s{k}", 0.9, 0.9, 0.5) for k in range(5)]), [], room=(2.0, 2.0, 2.6))
    assert check_consistency(s, []).consistent
    assert solve_milp(s, [], time_limit=30).status == "infeasible"
    four = scene(boxes(*[(f"s{k}", 0.9, 0.9, 0.5) for k in range(4)]), [], room=(2.0, 2.0, 2.6))
    assert solve_milp(four, [], time_limit=30).status == "feasible"


def test_yaw_options_follow_the_wall_relations() -> None:
    s = scene(boxes(("a", 1, 0.5, 1), ("b", 1, 0.5, 1), ("c", 1, 0.5, 1)),
              [rel("against_wall", "a", wall="east"), rel("facing", "b", wall="north"), rel("facing", "c", "a")])
    options = yaw_options(s, s.relations)
    assert options[0] == [90.0]
    assert options[1] == [-29.5, 0.0, 29.5]
    assert options[2] == [-180.0, -135.0, -90.0, -45.0, 0.0, 45.0, 90.0, 135.0]


def test_door_wall_example_is_unsolved_with_a_minimal_milp_set() -> None:
    params = Params.model_validate(examples()["Door in a full wall (unsolved, the MILP proves why)"])
    s = params.scene
    assert check_consistency(s, s.relations).consistent  # the door is beyond the consistency stage
    floor = grounded(s, s.relations)
    core = milp_conflict(s, s.relations, floor)
    assert core == [0, 1, 2]
    for k in core:
        assert not milp_infeasible(s, s.relations, [j for j in core if j != k], floor)
    result = run(params, no_progress)
    assert result.status == "unsolved" and result.layout and result.milp is not None
    assert result.milp.status == "infeasible" and result.milp.conflict == [0, 1, 2]
    assert result.verdict().label == "Unsolved" and result.verdict().tone == "warning"
    assert result.blocked or result.collisions or result.violations or result.out_of_room


def test_milp_first_gives_a_proof_and_names_its_solver() -> None:
    s = random_scene(5, 7).scene
    result = run(Params(scene=s, milp="first", starts=1), no_progress)
    assert result.status == "ok" and result.milp is not None and result.milp.status == "feasible"
    assert result.solver in ("optimiser", "milp")
