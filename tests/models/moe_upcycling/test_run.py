"""run(): the CLI keys, determinism, the compute bound and (slow) the paper's check at the defaults."""

from __future__ import annotations

import pytest

from models.common import MethodInputError, no_progress
from models.moe_upcycling import SPEC
from models.moe_upcycling.params import Params


def test_result_has_the_cli_keys_and_fractions(tiny: Params) -> None:
    dumped = SPEC.run(tiny, no_progress).model_dump(mode="json")
    assert set(dumped["methods"]) == {"naive", "replay", "full_upcycling", "selective"}
    for m in dumped["methods"].values():
        assert 0.0 <= m["average_accuracy"] <= 1.0
        assert m["backward_transfer"] == pytest.approx(-m["forgetting"])
        assert isinstance(m["added_parameters"], int)
    assert dumped["methods"]["naive"]["added_parameters"] == 0
    assert dumped["methods"]["selective"]["added_parameters"] <= dumped["methods"]["full_upcycling"]["added_parameters"]
    assert set(dumped["accuracy_matrix"]) == set(dumped["methods"])
    assert all(len(rows) == 2 and len(rows[0]) == 2 for rows in dumped["accuracy_matrix"].values())
    assert list(dumped["cka_drift"]) == ["layer_1", "layer_2"]
    assert all(0.0 <= v <= 1.0 for v in dumped["cka_drift"].values())


def test_same_seed_same_numbers_and_another_seed_differs(tiny: Params) -> None:
    a = SPEC.run(tiny, no_progress).model_dump()
    b = SPEC.run(tiny, no_progress).model_dump()
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    c = SPEC.run(tiny.model_copy(update={"seed": 1}), no_progress).model_dump()
    assert c["accuracy_matrix"] != a["accuracy_matrix"]


def test_progress_is_monotone_and_ends_at_one(tiny: Params) -> None:
    seen: list[float] = []
    SPEC.run(tiny, lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 8


def test_too_much_work_is_refused_with_the_limit() -> None:
    with pytest.raises(MethodInputError, match="above the limit of 300"):
        SPEC.run(Params(epochs_per_task=40, experts=8, layers=4, width=128), no_progress)


def test_artifacts_and_figures(tiny: Params) -> None:
    result = SPEC.run(tiny, no_progress)
    files = result.all_artifacts()
    assert {"result.json", "methods.csv", "accuracy_matrix.csv", "cka_drift.csv", "search.csv"} <= set(files)
    assert files["accuracy_matrix.csv"].content.decode().count("\n") == 1 + 4 * 4
    figs = SPEC.figures(result)
    assert set(figs) == {"cka_drift", "accuracy_matrix", "trade_off", "search"}
    assert figs["cka_drift"].layout.yaxis.title.text


@pytest.mark.slow
def test_default_run_reduces_forgetting_and_reports_the_claim_honestly() -> None:
    result = SPEC.run(Params(), no_progress)
    m = result.methods
    # forgetting of selective upcycling is at most half of naive fine-tuning's (holds at the defaults)
    assert m["selective"].forgetting <= 0.5 * m["naive"].forgetting
    assert m["naive"].forgetting > 0.8  # class-incremental fine-tuning forgets almost everything
    # deep layers drift more than the first block under naive fine-tuning (the paper's motivation)
    assert result.cka_drift["layer_3"] > result.cka_drift["layer_1"]
    c = result.checks
    assert result.verdict().tone == ("success" if c.parameters_at_most_half and c.accuracy_within_two_points
                                     and c.forgetting_at_most_half_of_naive else "warning")
