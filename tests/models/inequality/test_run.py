"""The method contract: CLI field names, limits as MethodInputError, figures, artifacts, progress."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from models.common.contract import Cancelled, MethodInputError, no_progress
from models.inequality import SPEC, examples
from models.inequality.params import Params
from models.inequality.result import Result
from models.inequality.run import run


def test_proved_result_has_the_cli_contract_fields() -> None:
    result = run(Params(problem="x^2 + y^2 >= 2*x*y", refute_starts=2), no_progress)
    data = json.loads(json.dumps(result.model_dump(mode="json")))
    assert data["status"] == "proved" and data["variables"] == ["x", "y"]
    assert data["certificate"] == {"multiplier": None, "margin": "0", "squares": [{"coeff": "1", "poly": "x - y"}],
                                   "products": [], "equalities": []}
    assert data["exact_check"]["status"] == data["independent_check"]["status"] == "passed"
    assert data["lean"]["file"] == "proof.lean" and data["lean"]["status"] in {"accepted", "rejected", "not_available"}
    assert set(result.artifacts()) == {"certificate.json", "proof.lean", "stages.csv"}
    assert result.verdict().label == "Proved" and result.verdict().tone == "success"
    assert {"gram", "stages"} <= set(SPEC.figures(result))
    assert [s.name for s in result.stages][:2] == ["parse", "refute"]


def test_refuted_and_not_proved_fields() -> None:
    refuted = run(Params(problem="x*y >= 0", refute_starts=2), no_progress).model_dump(mode="json")
    assert refuted["status"] == "refuted"
    assert Result.model_validate(refuted).verdict().tone == "error"
    assert set(refuted["counterexample"]) == {"point", "value"} and set(refuted["counterexample"]["point"]) == {"x", "y"}
    # Motzkin without multipliers is true but not SOS: honest "not_proved" with a reason
    motzkin = run(Params(problem="x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2", max_multiplier_power=0, refute_starts=4),
                  no_progress)
    assert motzkin.status == "not_proved" and motzkin.certificate is None
    assert motzkin.reason is not None and "multiplier power" in motzkin.reason
    assert motzkin.verdict().label == "Not proved" and motzkin.verdict().tone == "warning"
    assert "stages" in SPEC.figures(motzkin)


def test_refuted_figure_shows_the_slice() -> None:
    result = run(Params(problem="x^2 + y^2 >= 3*x*y", refute_starts=2), no_progress)
    figures = SPEC.figures(result)
    assert "slice" in figures and min(result.slice_values) < 0


def test_bad_input_is_a_one_line_method_input_error() -> None:
    with pytest.raises(MethodInputError, match="^problem: "):
        run(Params(problem="import os"), no_progress)
    with pytest.raises(MethodInputError, match="Gram"):
        run(Params(problem=" + ".join(f"x{i}^6" for i in range(1, 7)) + " + 1 >= 0", refute_starts=0,
                   max_gram=20, sparsity=False, fast_paths=False), no_progress)
    with pytest.raises(MethodInputError, match="terms"):
        run(Params(problem="(" + " + ".join(f"x{i}" for i in range(1, 13)) + ")^6 >= 0"), no_progress)
    with pytest.raises(ValidationError):
        Params(problem="x", unknown=1)
    with pytest.raises(ValidationError):
        Params(problem="x" * 20001)


def test_cancellation_propagates() -> None:
    def cancel(fraction: float, message: str = "") -> None:
        if fraction > 0.02:
            raise Cancelled()

    with pytest.raises(Cancelled):
        run(Params(problem="x^4 + y^4 >= x*y - 1"), cancel)


def test_examples_load_and_validate() -> None:
    loaded = examples()
    assert len(loaded) >= 5
    assert any("10-variable" in label for label in loaded)
    for params in loaded.values():
        Params(**params)
    assert SPEC.name == "inequality" and SPEC.order == 1


def test_deterministic_given_seed() -> None:
    a = run(Params(problem="x^4 - 3*x^2*y + y^2 + 1/10 >= 0", seed=5, refute_starts=6), no_progress)
    b = run(Params(problem="x^4 - 3*x^2*y + y^2 + 1/10 >= 0", seed=5, refute_starts=6), no_progress)
    assert a.status == b.status and a.counterexample == b.counterexample and a.certificate == b.certificate


def test_a_search_past_its_time_budget_ends_not_proved_with_the_reason() -> None:
    """(x+y+z)^12 drives the exact projection into huge rationals; the budget stops it cleanly."""
    result = run(Params(problem="(x+y+z)^12 >= 0", time_budget_s=2.0, fast_paths=False), no_progress)
    assert result.status == "not_proved"
    assert "time budget of 2 s" in (result.reason or "")
    assert result.stages[-1].name == "time budget"


def test_progress_stages_are_disjoint_and_ordered() -> None:
    from models.inequality.run import STAGES

    ranges = list(STAGES.values())
    assert ranges[0][0] == 0.0 and ranges[-1][1] == 1.0
    assert all(a[1] <= b[0] for a, b in zip(ranges, ranges[1:], strict=False))


def test_input_summary_and_short_stage_chart() -> None:
    from models.inequality import input_summary
    from models.inequality.figures import STAGES_MIN_HEIGHT

    summary = input_summary(Params(problem="x*y*z <= 1/27", hypotheses=["x >= 0", "x + y + z = 1"]))
    assert summary == "x*y*z <= 1/27 given x >= 0, x + y + z = 1"
    assert len(input_summary(Params(problem="x^2 >= 0", hypotheses=["x >= 0"] * 8 + []))) <= 90
    assert SPEC.input_summary is input_summary
    quick = run(Params(problem="x^2 + 1 > 0", refute_starts=1, lean_check=False), no_progress)
    assert SPEC.figures(quick)["stages"].layout.height >= STAGES_MIN_HEIGHT


def test_the_budget_only_interrupts_when_spent() -> None:
    from models.inequality.budget import OutOfTime, check_time, time_budget

    check_time()  # no budget: never raises
    with time_budget(60.0):
        check_time()
    with time_budget(0.0), pytest.raises(OutOfTime):
        check_time()
