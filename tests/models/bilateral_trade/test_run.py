"""run(): the CLI contract, input errors, determinism, artifacts and figures."""

from __future__ import annotations

import csv
import io

import pytest
from pydantic import ValidationError

from models.bilateral_trade import SPEC
from models.bilateral_trade.params import Params
from models.common import Cancelled, MethodInputError, no_progress

SMALL = {"horizon": 4096, "seeds": 2, "grid_size": 41}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_contract_names_are_top_level() -> None:
    result = _run(
        distribution={"kind": "factor_two", "eta": 0.01},
        learners=["fixed_price", "wbb_one_bit", "gbb_one_bit"],
    )
    dumped = result.model_dump(mode="json")
    for key in ("first_best", "fixed_price", "wbb", "gbb"):
        assert isinstance(dumped["benchmarks"][key], float)
    assert set(dumped["learners"]) == {"fixed_price", "wbb_one_bit", "gbb_one_bit"}
    for summary in dumped["learners"].values():
        for key in (
            "final_regret_vs_gbb",
            "final_regret_vs_wbb",
            "regret_slope_vs_gbb",
            "min_cumulative_profit",
        ):
            assert key in summary
        assert summary["min_cumulative_profit"] >= 0.0
    bench = dumped["benchmarks"]
    assert bench["gbb"] == pytest.approx(0.245 * 2 * 1.02 / 1.06)
    assert bench["fixed_le_gbb"] and bench["gbb_le_first_best"] and bench["gbb_le_twice_fixed"]
    assert dumped["distribution"]["density_bound"] is None  # atoms: infinite


def test_default_params_are_valid_and_fast_to_describe() -> None:
    params = Params()
    assert params.horizon == 65536 and params.distribution.kind == "two_markets"
    assert SPEC.order == 3 and SPEC.name == "bilateral_trade"
    for label, example in SPEC.examples().items():  # type: ignore[misc]
        Params.model_validate(example), label


def test_runs_are_deterministic_given_the_seed() -> None:
    first = _run(seed=7).model_dump(mode="json")
    second = _run(seed=7).model_dump(mode="json")
    third = _run(seed=8).model_dump(mode="json")
    assert first == second
    assert first["learners"] != third["learners"]


def test_regret_csv_rows() -> None:
    result = _run(learners=["gbb_one_bit", "wbb_one_bit"])
    files = result.artifacts()
    assert set(files) == {"regret.csv"}
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
        Params.model_validate({"horizon": (1 << 20) + 1})
    assert "horizon" in str(info.value) and "1048576" in str(info.value)
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
