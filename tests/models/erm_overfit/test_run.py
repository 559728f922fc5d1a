"""run(): the CLI keys, the ERM claim over seeds, the GD monotonicity, budgets, determinism, figures."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common import MethodInputError, no_progress
from models.erm_overfit import SPEC
from models.erm_overfit.params import Params

SMALL = {"dimension": 31, "samples": 6, "etas": [0.01, 0.1], "horizons": [10, 50]}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_keys() -> None:
    dumped = _run().model_dump(mode="json")
    for key in ("erm_train_loss", "min_train_loss", "erm_population_excess", "excess_lower_bound"):
        assert isinstance(dumped[key], float), key
    assert len(dumped["gd"]) == 4
    for row in dumped["gd"]:
        assert set(row) >= {"eta", "horizon", "gap", "lower_bound", "upper_bound"}
        assert row["upper_bound"] == pytest.approx(row["eta"] * row["horizon"] / 6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_default_size_erm_overfits_with_the_exact_excess(seed: int) -> None:
    result = SPEC.run(Params(seed=seed, etas=[0.01], horizons=[10]), no_progress)
    assert result.unseen_vectors > 0
    assert result.erm_train_loss == result.min_train_loss == 0.5
    assert result.erm_population_excess == pytest.approx(0.25 + result.strong_convexity / 2)
    assert result.erm_population_excess >= result.excess_lower_bound
    assert result.erm_holds()


def test_gd_gap_grows_with_eta_t() -> None:
    result = _run()
    assert result.gd_monotone
    ordered = sorted(result.gd, key=lambda p: p.eta * p.horizon)
    assert ordered[-1].gap > ordered[0].gap > 0


def test_without_an_unseen_vector_there_is_no_bad_erm() -> None:
    result = _run(samples=24)
    assert result.unseen_vectors == 0 and result.erm_train_loss is None
    assert result.verdict().tone in {"info", "warning"}


def test_budget_and_bounds() -> None:
    with pytest.raises(MethodInputError, match="horizons: .* above the limit"):
        _run(dimension=511, etas=[0.1] * 1 + [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], horizons=[2000])
    with pytest.raises(ValidationError):
        Params(dimension=100)
    with pytest.raises(ValidationError, match="etas"):
        Params(etas=[0.0])


def test_same_seed_same_numbers_and_figures() -> None:
    assert _run(seed=3).model_dump() == _run(seed=3).model_dump()
    assert _run(seed=3).gd != _run(seed=4).gd
    result = _run()
    assert set(SPEC.figures(result)) == {"erm_losses", "gd_gap", "code_inner_products"}
    assert {"result.json", "gd_gaps.csv"} <= set(result.all_artifacts())
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        Params.model_validate(example)
