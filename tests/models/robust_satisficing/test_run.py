"""run(): result keys, determinism, bad input, the data shifts, and the issue's headline check (slow)."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.contract import MethodInputError, no_progress
from models.robust_satisficing import SPEC
from models.robust_satisficing.data import IMBALANCE, MINORITY_KEEP, build
from models.robust_satisficing.params import Params
from models.robust_satisficing.result import AVERAGE_TOLERANCE, METHODS, WORST_GAIN

SMALL = {"epochs": 30, "tau_sweep": [1.5], "train_size": 400}


def test_result_has_the_cli_keys() -> None:
    result = SPEC.run(Params(**SMALL), no_progress)
    dumped = result.model_dump(mode="json")
    assert set(METHODS) <= set(dumped["methods"])
    for key in METHODS:
        entry = dumped["methods"][key]
        assert 0 <= entry["average_accuracy"] <= 1 and 0 <= entry["worst_group_accuracy"] <= entry["average_accuracy"]
        assert entry["backward_passes_per_step"] == 1.0
    assert [p.tau_factor for p in result.sweep] == [1.5]
    assert set(SPEC.figures(result)) == {"tradeoff", "fragility", "groups", "trace"}
    assert result.verdict().tone in ("success", "warning")


def test_diabetes_reports_mse() -> None:
    result = SPEC.run(Params(dataset="diabetes", epochs=30, tau_sweep=[1.5]), no_progress)
    erm = result.model_dump(mode="json")["methods"]["erm"]
    assert erm["average_accuracy"] is None and erm["average_mse"] > 0
    assert erm["worst_group_mse"] >= min(g["score"] for g in erm["groups"])


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    a = SPEC.run(Params(**SMALL, seed=3), no_progress)
    b = SPEC.run(Params(**SMALL, seed=3), no_progress)
    c = SPEC.run(Params(**SMALL, seed=4), no_progress)
    assert a.model_dump() == b.model_dump()
    assert a.erm_train_loss != c.erm_train_loss


def test_too_much_work_names_the_field() -> None:
    with pytest.raises(MethodInputError, match="epochs"):
        SPEC.run(Params(epochs=3000, train_size=20000, hidden=128, tau_sweep=[1.1, 1.2, 1.3]), no_progress)


def test_shifts_are_applied() -> None:
    rng = np.random.default_rng(0)
    tail = build("long_tail", rng)
    counts = np.bincount(tail.train.y, minlength=10)
    assert counts[0] > 80 and counts[9] <= round(90 * IMBALANCE) + 1
    assert np.bincount(tail.test.y).min() > 80  # the test half is balanced
    diabetes = build("diabetes", np.random.default_rng(0))
    assert diabetes.train.groups is not None and diabetes.test.groups is not None
    train_share = diabetes.train.groups.mean()
    test_share = diabetes.test.groups.mean()
    assert train_share == pytest.approx(MINORITY_KEEP * test_share / (1 - test_share + MINORITY_KEEP * test_share),
                                        abs=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_headline_check_on_spurious_data(seed: int) -> None:
    """The issue's check at tau = 1.1 x ERM loss, with the defaults. With the KL form on a linear model it does
    not hold (about +2 points of worst-group accuracy, not +10): this test records the verdict honestly, i.e.
    that the verdict is a success exactly when the numbers meet the check."""
    result = SPEC.run(Params(seed=seed), no_progress)
    erm, irs = result.methods.erm, result.methods.irs
    holds = irs.worst - erm.worst >= WORST_GAIN and erm.average - irs.average <= AVERAGE_TOLERANCE
    assert irs.backward_passes_per_step == 1.0
    assert (result.verdict().tone == "success") == holds
    assert irs.worst >= erm.worst - 0.01  # IRS at least does not hurt the worst group
    assert result.methods.group_dro.worst > erm.worst + 0.05  # the group-aware baseline does help
