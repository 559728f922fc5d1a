"""run(): claims per seed, determinism at any thread count, the sanity floor, the compute bound, (slow) 3 seeds."""

from __future__ import annotations

import pytest
import torch

from models.common import MethodInputError, no_progress
from models.moe_upcycling import SPEC
from models.moe_upcycling.params import Params

LEARNERS = {"naive", "replay", "lwf", "full_upcycling", "selective"}


def _numbers(result) -> dict:
    dumped = result.model_dump()
    dumped.pop("seconds")
    for s in dumped["per_seed"]:
        for m in s["methods"].values():
            m.pop("seconds")
    dumped.pop("methods")
    dumped["search"].pop("search_seconds")
    return dumped


def test_result_has_every_learner_claims_per_seed_and_fractions(tiny: Params) -> None:
    result = SPEC.run(tiny.model_copy(update={"seeds": 2}), no_progress)
    dumped = result.model_dump(mode="json")
    assert [s["seed"] for s in dumped["per_seed"]] == [0, 1]
    for s in dumped["per_seed"]:
        assert set(s["methods"]) == LEARNERS
        for m in s["methods"].values():
            assert 0.0 <= m["average_accuracy"] <= 1.0
            assert m["backward_transfer"] == pytest.approx(-m["forgetting"])
        assert s["methods"]["naive"]["added_parameters"] == s["methods"]["lwf"]["added_parameters"] == 0
        assert s["methods"]["selective"]["added_parameters"] <= s["methods"]["full_upcycling"]["added_parameters"]
    assert {c["id"] for c in dumped["claims"]} == {"params", "accuracy", "forgetting", "forgetting_full"}
    assert all(len(c["seeds"]) == 2 for c in dumped["claims"])
    assert set(dumped["standing"]["scores"]) == LEARNERS
    assert list(dumped["cka_drift"]) == ["layer_1", "layer_2"]
    assert dumped["search"]["candidate_layers"] and len(dumped["search"]["probe_drift"]) == 2
    # every layer is searched: the CKA probe only sets where the mask starts
    assert all(p > 0.0 for row in dumped["search"]["keep_probability"] for p in row)
    assert dumped["search"]["candidate_blocks"] == tiny.layers * (tiny.experts - 1)


def test_the_claims_are_paired_per_image_against_replay_only(tiny: Params) -> None:
    result = SPEC.run(tiny, no_progress)
    s = result.per_seed[0].methods
    claims = {c.id: c for c in result.claims}
    accuracy = claims["accuracy"]
    assert accuracy.null is not None and accuracy.null.value == pytest.approx(
        100 * (s["replay"].average_accuracy - s["full_upcycling"].average_accuracy))
    assert accuracy.seeds[0].value == pytest.approx(
        100 * (s["selective"].average_accuracy - s["full_upcycling"].average_accuracy))
    assert accuracy.seeds[0].units > 0 and accuracy.test is not None and accuracy.test.interval is not None
    helps = s["full_upcycling"].average_accuracy > s["replay"].average_accuracy
    assert not helps or accuracy.seeds[0].floor_ok or result.per_seed[0].kept_copies == 0
    assert helps or not accuracy.seeds[0].floor_ok  # full upcycling must beat replay before selective is judged
    forgetting = claims["forgetting"]
    assert forgetting.null is not None and forgetting.null.value == pytest.approx(
        s["replay"].forgetting / s["naive"].forgetting)
    unit = result.standing.unit_scores["selective"][0]
    assert sum(unit) / len(unit) == pytest.approx(100 * s["selective"].average_accuracy)


def test_same_seed_same_numbers_at_any_thread_count_and_another_seed_differs(tiny: Params) -> None:
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        a = _numbers(SPEC.run(tiny, no_progress))
        torch.set_num_threads(1)
        b = _numbers(SPEC.run(tiny, no_progress))
    finally:
        torch.set_num_threads(before)
    assert a == b
    c = _numbers(SPEC.run(tiny.model_copy(update={"seed": 1}), no_progress))
    assert c["accuracy_matrix"] != a["accuracy_matrix"]


def test_a_penalty_that_keeps_no_expert_is_never_green(tiny: Params) -> None:
    result = SPEC.run(tiny.model_copy(update={"param_penalty": 10.0}), no_progress)
    params = next(c for c in result.claims if c.id == "params")
    assert result.per_seed[0].kept_copies == 0
    assert params.holds != "held" and not params.seeds[0].floor_ok
    assert result.verdict().tone != "success"


def test_progress_is_monotone_and_ends_at_one(tiny: Params) -> None:
    seen: list[float] = []
    SPEC.run(tiny, lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 8


def test_too_much_work_is_refused_with_the_limit() -> None:
    with pytest.raises(MethodInputError, match="above the limit of 400"):
        SPEC.run(Params(epochs_per_task=40, experts=8, layers=4, width=128), no_progress)


def test_artifacts_and_figures(tiny: Params) -> None:
    result = SPEC.run(tiny, no_progress)
    files = result.all_artifacts()
    assert {"result.json", "methods.csv", "accuracy_matrix.csv", "cka_drift.csv", "search.csv"} <= set(files)
    assert files["accuracy_matrix.csv"].content.decode().count("\n") == 1 + 5 * 4
    figs = SPEC.figures(result)
    assert set(figs) == {"cka_drift", "accuracy_matrix", "trade_off", "search"}
    assert figs["cka_drift"].layout.yaxis.title.text


@pytest.mark.slow
def test_three_seeds_the_search_decides_and_the_verdict_follows_the_claims() -> None:
    result = SPEC.run(Params(seeds=3), no_progress)
    params = next(c for c in result.claims if c.id == "params")
    for s, o in zip(result.per_seed, params.seeds, strict=True):  # the floor is the search's own decision
        assert o.floor_ok == (s.kept_copies > 0 and s.decided >= 0.4)
    for s in result.per_seed:
        assert s.methods["naive"].forgetting > 0.8  # class-incremental fine-tuning forgets almost everything
        assert s.methods["replay"].forgetting < 0.5 * s.methods["naive"].forgetting
    green = all(c.holds == "held" for c in result.claims if c.headline) and not result.standing.beaten_by()
    assert (result.verdict().tone == "success") == green
