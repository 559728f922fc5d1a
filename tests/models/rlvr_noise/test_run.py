"""run(): claims on the defaults (slow) and on a small run, each claim refusing a broken prediction,
input errors, determinism, progress, artifacts."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from pydantic import ValidationError

from models.common import MethodInputError, no_progress
from models.rlvr_noise import SPEC
from models.rlvr_noise.dynamics import Diffusion
from models.rlvr_noise.params import Params

RUN = importlib.import_module("models.rlvr_noise.run")
SMALL = {"steps": 300, "bandit_seeds": 8, "phase_grid": 5, "j_values": [-0.3, 0.0, 0.3, 0.6], "seeds": 1,
         "learning_rate": 0.5, "group_size": 32}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def _claims(result) -> dict:
    return {c.id: c for c in result.claims}


def test_cli_keys_and_hitting_times() -> None:
    dumped = _run().model_dump(mode="json")
    for row in dumped["final_incorrect_mass"]:
        assert row["fnr"] == pytest.approx(1 - 0.3 - row["j"])
    never = [r for r in dumped["time_to_threshold"] if r["j"] <= 0]
    assert all(r["mean_field"] is None and r["bandit_mean"] is None and r["rate_law"] is None for r in never)
    assert {c["id"] for c in dumped["claims"]} == {"sign", "phase", "rate_mean_field", "rate_bandit", "neutral",
                                                  "phase_line", "decoupling", "winner", "decoupling_mean_field"}
    headline = {c["id"] for c in dumped["claims"] if c["headline"]}
    assert "rate_mean_field" not in headline and "decoupling_mean_field" not in headline  # checks, not evidence


@pytest.mark.slow
def test_default_run_tests_every_claim_on_every_seed_with_an_interval() -> None:
    result = SPEC.run(Params(), no_progress)
    claims = _claims(result)
    assert all(c.holds != "not_tested" and len(c.seeds) == 3 for c in claims.values())
    for c in claims.values():
        assert c.test is not None and (c.test.interval is not None or c.test.kind.startswith("exact")), c.id
    neutral = claims["neutral"]
    assert all(o.units == 1024 for o in neutral.seeds)  # one unit per J = 0 run


def test_small_run_claims_and_phase_diagram_signs() -> None:
    result = _run()
    claims = _claims(result)
    assert claims["sign"].holds == "held" and claims["phase"].holds == "held"
    assert claims["rate_mean_field"].seeds[0].value < 0.05
    p = result.phase
    j = 1 - np.array(p.fnr)[:, None] - np.array(p.fpr)[None, :]
    mass = np.array(p.mass)
    assert np.all(mass[j > 1e-9] < 0.5) and np.all(mass[j < -1e-9] > 0.5)


def test_the_rate_claims_fail_when_the_rate_law_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    true_law = RUN.rate_law_time
    monkeypatch.setattr(RUN, "rate_law_time", lambda *a: None if true_law(*a) is None else 1.3 * true_law(*a))
    claims = _claims(_run())
    assert claims["rate_mean_field"].holds == "not_held" and claims["rate_bandit"].holds == "not_held"


def test_the_neutral_claim_fails_with_a_wrong_diffusion_and_its_floor_refuses_a_moving_mean(
        monkeypatch: pytest.MonkeyPatch) -> None:
    true = RUN.neutral_diffusion
    monkeypatch.setattr(RUN, "neutral_diffusion", lambda *a: Diffusion(2 * true(*a).variance_per_step, 0.0))
    assert _claims(_run())["neutral"].holds == "not_held"
    monkeypatch.setattr(RUN, "neutral_diffusion", lambda *a: Diffusion(true(*a).variance_per_step, 1e-3))
    neutral = _claims(_run())["neutral"]
    assert neutral.holds != "held" and not neutral.seeds[0].floor_ok


def test_the_sign_claims_fail_when_the_verifier_is_flipped(monkeypatch: pytest.MonkeyPatch) -> None:
    real = RUN.bandit_grpo

    def flipped(verifiers, **kwargs):  # a verifier that rewards the incorrect modes: J -> -J
        swap = lambda v: RUN.Verifier(fpr=v.tpr, fnr=1 - v.fpr)  # noqa: E731
        return real([swap(v) for v in verifiers] if isinstance(verifiers, list) else swap(verifiers), **kwargs)

    monkeypatch.setattr(RUN, "bandit_grpo", flipped)
    claims = _claims(_run())
    assert claims["sign"].holds == "not_held" and claims["phase"].holds == "not_held"


def test_sign_claim_needs_both_sides_of_zero() -> None:
    sign = _claims(_run(j_values=[0.3, 0.6]))["sign"]
    assert sign.holds != "held" and not sign.seeds[0].floor_ok


def test_impossible_j_and_too_much_work_are_rejected() -> None:
    with pytest.raises(MethodInputError, match=r"j_values: J = 0.9 .* \[-0.300, 0.700\]"):
        _run(j_values=[0.9])
    with pytest.raises(MethodInputError, match="above the limit"):
        _run(steps=4000, bandit_seeds=256, group_size=128, modes_per_class=32, j_values=[0.1] * 12)
    with pytest.raises(ValidationError):
        Params(j_values=[1.5])
    with pytest.raises(ValidationError):
        Params(seeds=6)


def test_same_seed_same_numbers_other_seed_other_numbers_and_seeds_are_independent() -> None:
    assert _run(seed=3).model_dump() == _run(seed=3).model_dump()
    assert _run(seed=3).final_incorrect_mass != _run(seed=4).final_incorrect_mass
    two = _run(seed=3, seeds=2)
    assert [o.seed for o in two.claims[0].seeds] == [3, 4]
    assert two.final_incorrect_mass == _run(seed=3).final_incorrect_mass  # figures show the first seed


def test_progress_is_monotone_and_reaches_one() -> None:
    seen: list[float] = []
    SPEC.run(Params.model_validate({**SMALL, "seeds": 2}), lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 6


def test_artifacts_figures_and_examples() -> None:
    result = _run()
    files = result.all_artifacts()
    assert {"result.json", "incorrect_mass_curves.csv", "final_and_hitting_times.csv", "phase_diagram.csv"} <= set(files)
    assert files["phase_diagram.csv"].content.decode().count("\n") == 5 * 5 + 1
    figs = SPEC.figures(result)
    assert set(figs) == {"mass_curves", "phase_diagram", "rate", "diffusion", "competition", "winner"}
    assert figs["diffusion"].layout.yaxis.title.text and figs["rate"].layout.xaxis.title.text == "1/J"
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        RUN._check_budget(Params.model_validate(example))
