"""run(): the CLI contract, input errors, determinism, artifacts and figures."""

from __future__ import annotations

import csv
import io

import pytest
from pydantic import ValidationError

from models.bilateral_trade import SPEC
from models.bilateral_trade.learners import LEARNERS
from models.bilateral_trade.params import Params
from models.common import Cancelled, MethodInputError, no_progress

SMALL = {"horizon": 4096, "seeds": 2, "grid_size": 41}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_contract_names_are_top_level() -> None:
    learners = ["fixed_price", "wbb_one_bit", "gbb_one_bit", "gbb_one_bit_paper"]
    result = _run(distribution={"kind": "factor_two", "eta": 0.01}, learners=learners)
    dumped = result.model_dump(mode="json")
    for key in ("first_best", "fixed_price", "wbb", "gbb", "gbb_lower", "gbb_upper"):
        assert isinstance(dumped["benchmarks"][key], float)
    assert set(dumped["learners"]) == set(learners)
    for summary in dumped["learners"].values():
        for key in (
            "final_regret_vs_gbb",
            "final_regret_vs_wbb",
            "regret_slope_vs_gbb",
            "regret_slope_iqr",
            "crossing_round",
            "min_cumulative_profit",
        ):
            assert key in summary
        assert set(summary["regret_by_phase"]) == {"collection", "exploration", "exploitation", "guard"}
        assert sum(summary["regret_by_phase"].values()) == pytest.approx(summary["final_regret_vs_gbb"])
        assert summary["min_cumulative_profit"] >= 0.0
    bench = dumped["benchmarks"]
    exact = 0.245 * 2 * 1.02 / 1.06
    assert bench["gbb"] == pytest.approx(exact) and bench["gbb"] == bench["gbb_lower"]
    assert bench["gbb_lower"] == pytest.approx(exact) and bench["gbb_upper"] == pytest.approx(exact)
    assert bench["fixed_le_gbb"] and bench["gbb_le_first_best"] and bench["gbb_le_twice_fixed"]
    assert dumped["distribution"]["density_bound"] is None  # atoms: infinite
    assert not dumped["distribution"]["guarantee_applies"]


def _check_examples(examples: dict[str, dict[str, object]]) -> None:
    """Every named example validates, and keeps the values it names (nothing silently dropped)."""
    for label, example in examples.items():
        try:
            params = Params.model_validate(example)
        except ValidationError as error:
            pytest.fail(f"example {label!r} is invalid: {error}")
        dumped = params.model_dump(mode="json")
        for key, value in example.items():
            if isinstance(value, dict):
                assert {k: dumped[key][k] for k in value} == value, (label, key)
            else:
                assert dumped[key] == value, (label, key)


def test_default_params_and_every_example_are_valid() -> None:
    params = Params()
    assert params.horizon == 1 << 20 and params.seeds == 5 and params.distribution.kind == "two_markets"
    assert params.learners == list(LEARNERS)
    assert SPEC.order == 3 and SPEC.name == "bilateral_trade"
    assert SPEC.examples is not None
    _check_examples(dict(SPEC.examples()))


def test_the_example_check_fails_on_a_broken_example() -> None:
    """The check above can fail: an example with an unknown learner is reported by its name."""
    broken = {"Broken": {"horizon": 4096, "learners": ["magic"]}}
    with pytest.raises(pytest.fail.Exception, match="example 'Broken' is invalid"):
        _check_examples(broken)


def test_input_summary_names_distribution_horizon_and_seeds() -> None:
    assert SPEC.input_summary is not None
    assert SPEC.input_summary(Params()) == "two_markets, T = 2^20, 5 seeds"
    assert SPEC.input_summary(Params(horizon=3000, seeds=2)) == "two_markets, T = 3,000, 2 seeds"


def test_runs_are_deterministic_given_the_seed() -> None:
    first = _run(seed=7).model_dump(mode="json")
    second = _run(seed=7).model_dump(mode="json")
    third = _run(seed=8).model_dump(mode="json")
    assert first == second
    assert first["learners"] != third["learners"]


def test_regret_csv_rows() -> None:
    result = _run(learners=["gbb_one_bit", "wbb_one_bit"])
    files = result.artifacts()
    assert set(files) == {"regret.csv", "phases.csv"}
    rows = list(csv.DictReader(io.StringIO(files["regret.csv"].content.decode())))
    assert set(rows[0]) == {
        "T",
        "round",
        "learner",
        "seed",
        "regret_vs_gbb",
        "regret_vs_wbb",
        "cumulative_profit",
    }
    per_learner_seed = len(result.checkpoints) + len(result.scan_horizons) - 1
    assert len(rows) == 2 * 2 * per_learner_seed
    assert all(float(r["cumulative_profit"]) >= 0 for r in rows)
    last = [r for r in rows if r["learner"] == "gbb_one_bit" and r["seed"] == "0" and r["round"] == "4096"]
    assert float(last[0]["regret_vs_gbb"]) == pytest.approx(
        result.curves["gbb_one_bit"].regret_vs_gbb[0][-1], abs=1e-5
    )


def test_figures_are_complete_and_labelled() -> None:
    result = _run()
    figs = SPEC.figures(result)
    assert list(figs) == [
        "regret_vs_gbb",
        "regret_vs_wbb",
        "regret_loglog",
        "regret_by_phase",
        "cumulative_profit",
        "price_heatmap",
        "valuations",
    ]
    for name, fig in figs.items():
        assert fig.layout.title.text, name
        assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text, name
        assert len(fig.data) > 0


@pytest.mark.parametrize(
    "rectangles",
    [
        [{"s": [0.2, 1.2], "b": [0.5, 1.0], "mass": 1.0}],  # outside [0, 1]^2
        [{"s": [-0.1, 0.2], "b": [0.5, 1.0], "mass": 1.0}],
    ],
)
def test_rectangle_outside_the_unit_square_is_rejected(rectangles: list[dict[str, object]]) -> None:
    with pytest.raises(ValidationError) as info:
        Params.model_validate({"distribution": {"kind": "rectangles", "rectangles": rectangles}})
    assert "distribution" in str(info.value) and "rectangles" in str(info.value)


def test_zero_mass_and_reversed_ranges_get_one_clear_line() -> None:
    zero = {"kind": "rectangles", "rectangles": [{"s": [0, 0.5], "b": [0.5, 1], "mass": 0.0}]}
    with pytest.raises(MethodInputError, match="total mass is 0"):
        _run(distribution=zero)
    reversed_range = {"kind": "rectangles", "rectangles": [{"s": [0.6, 0.2], "b": [0.5, 1], "mass": 1.0}]}
    with pytest.raises(MethodInputError, match=r"rectangles\[0\]\.s = \[0.6, 0.2\]: lo must not exceed hi"):
        _run(distribution=reversed_range)
    with pytest.raises(MethodInputError, match="empty"):
        _run(distribution={"kind": "rectangles", "rectangles": []})


def test_horizon_above_the_bound_is_rejected() -> None:
    with pytest.raises(ValidationError) as info:
        Params.model_validate({"horizon": (1 << 26) + 1, "seeds": 1, "learners": ["gbb_one_bit_paper"]})
    assert "horizon" in str(info.value) and "67108864" in str(info.value)
    with pytest.raises(ValidationError, match="runs only fixed_price and gbb_one_bit_paper"):
        Params.model_validate({"horizon": (1 << 20) + 1})  # the per-round learners stop at 2^20
    assert Params.model_validate({"horizon": 1 << 26, "seeds": 1, "learners": ["gbb_one_bit_paper", "fixed_price"]})
    with pytest.raises(ValidationError, match="above 3 x 2"):  # 3 seeds at 2^26 would outlast the job limit
        Params.model_validate({"horizon": 1 << 26, "seeds": 3, "learners": ["gbb_one_bit_paper"]})
    with pytest.raises(ValidationError):
        Params.model_validate({"learners": ["gbb_one_bit", "gbb_one_bit"]})
    with pytest.raises(ValidationError):
        Params.model_validate({"learners": ["magic"]})
    with pytest.raises(ValidationError):
        Params.model_validate({"surprise": 1})


def test_user_rectangles_run() -> None:
    rects = [
        {"s": [0.0, 0.2], "b": [0.3, 0.5], "mass": 1.0},
        {"s": [0.5, 0.5], "b": [0.9, 0.9], "mass": 2.0},  # an atom
    ]
    result = _run(distribution={"kind": "rectangles", "rectangles": rects}, learners=["gbb_one_bit"])
    assert result.distribution.density_bound is None
    assert result.learners["gbb_one_bit"].min_cumulative_profit >= 0


def test_progress_is_reported_and_cancellation_propagates() -> None:
    seen: list[float] = []

    def record(fraction: float, message: str = "") -> None:
        seen.append(fraction)

    SPEC.run(Params.model_validate(SMALL), record)
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen) and seen == sorted(seen)

    def cancel(fraction: float, message: str = "") -> None:
        if fraction > 0.1:
            raise Cancelled()

    with pytest.raises(Cancelled):
        SPEC.run(Params.model_validate(SMALL), cancel)
