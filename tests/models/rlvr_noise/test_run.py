"""run(): the CLI keys, the three claims on the defaults, input errors, determinism, progress, artifacts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common import MethodInputError, no_progress
from models.rlvr_noise import SPEC
from models.rlvr_noise.params import Params
from models.rlvr_noise.run import hitting_time

SMALL = {"steps": 200, "seeds": 8, "phase_grid": 7, "j_values": [-0.2, 0.0, 0.3, 0.6]}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_keys_and_types() -> None:
    dumped = _run().model_dump(mode="json")
    for row in dumped["final_incorrect_mass"]:
        assert set(row) >= {"j", "fnr", "mean_field", "bandit_mean"}
        assert row["fnr"] == pytest.approx(1 - 0.3 - row["j"])
    for row in dumped["time_to_threshold"]:
        assert set(row) >= {"j", "mean_field", "bandit_mean"}
    never = [r for r in dumped["time_to_threshold"] if r["j"] <= 0]
    assert all(r["mean_field"] is None and r["bandit_mean"] is None for r in never)


def test_default_run_shows_the_phase_transition() -> None:
    result = SPEC.run(Params(), no_progress)
    assert result.checks.boundary and result.checks.neutral
    assert result.verdict().tone in {"success", "warning"}
    zero = next(r for r in result.final_incorrect_mass if r.j == 0)
    assert zero.mean_field == pytest.approx(0.5, abs=1e-9)
    learned = [r for r in result.final_incorrect_mass if r.j > 0]
    assert all(r.bandit_mean < 0.05 and r.mean_field < 0.05 for r in learned)
    collapsed = [r for r in result.final_incorrect_mass if r.j < 0]
    assert all(r.bandit_mean > 0.9 for r in collapsed)


def test_phase_diagram_sign_follows_the_j_zero_line() -> None:
    result = _run(phase_grid=11)
    phase = result.phase
    for i, fnr in enumerate(phase.fnr):
        for k, fpr in enumerate(phase.fpr):
            j = 1 - fnr - fpr
            if j > 1e-9:
                assert phase.mass[i][k] < 0.5
            elif j < -1e-9:
                assert phase.mass[i][k] > 0.5
            else:
                assert phase.mass[i][k] == pytest.approx(0.5, abs=1e-6)


def test_impossible_j_is_rejected_with_the_field_and_the_range() -> None:
    with pytest.raises(MethodInputError, match=r"j_values: J = 0.9 .* \[-0.300, 0.700\]"):
        _run(j_values=[0.9])
    with pytest.raises(ValidationError):
        Params(j_values=[1.5])
    with pytest.raises(ValidationError):
        Params(steps=10**6)


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    assert _run(seed=3).model_dump() == _run(seed=3).model_dump()
    assert _run(seed=3).final_incorrect_mass != _run(seed=4).final_incorrect_mass


def test_progress_is_monotone_and_reaches_one() -> None:
    seen: list[float] = []
    SPEC.run(Params.model_validate(SMALL), lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= len(SMALL["j_values"])


def test_artifacts_and_figures() -> None:
    result = _run()
    files = result.all_artifacts()
    assert {"result.json", "incorrect_mass_curves.csv", "final_and_hitting_times.csv", "phase_diagram.csv"} <= set(files)
    assert files["phase_diagram.csv"].content.decode().count("\n") == 7 * 7 + 1
    figs = SPEC.figures(result)
    assert set(figs) == {"mass_curves", "phase_diagram", "rate"}
    assert figs["phase_diagram"].layout.xaxis.title.text == "false-positive rate FPR"
    for label, example in SPEC.examples().items():  # type: ignore[misc]
        Params.model_validate(example), label


def test_hitting_time() -> None:
    import numpy as np

    assert hitting_time(np.array([0.5, 0.2, 0.05, 0.01])) == 2
    assert hitting_time(np.array([0.5, 0.4])) is None
