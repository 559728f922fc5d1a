"""run(): the CLI keys, reproducibility, monotone progress, input limits, and the claims."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common.contract import MethodInputError
from models.diffusion_resampling import SPEC
from models.diffusion_resampling.claims import evaluate_claims
from models.diffusion_resampling.params import Params
from models.diffusion_resampling.result import DerivativePoint, GradientSummary, MomentPoint
from models.diffusion_resampling.run import run
from tests.models.diffusion_resampling.conftest import small_params


def test_small_run_has_the_cli_keys_and_is_reproducible() -> None:
    fractions: list[float] = []
    result = run(small_params(), lambda f, m="": fractions.append(f))
    dumped = result.model_dump()
    for key in ("moment_error", "mean_shift_derivative", "gradient", "kalman_gradient"):
        assert key in dumped
    assert [p["n"] for p in dumped["moment_error"]["diffusion"]] == [16, 64]
    assert {"bias", "std"} <= set(dumped["gradient"]["soft"])
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    again = run(small_params(), lambda f, m="": None)
    assert again.model_dump() == dumped
    other = run(small_params(seed=5), lambda f, m="": None)
    assert other.model_dump()["moment_error"] != dumped["moment_error"]
    assert set(result.artifacts()) == {"moment_error.csv", "mean_shift_derivative.csv", "gradient.csv", "estimation.csv"}
    assert set(SPEC.figures(result)) == {"moment_error", "shift_derivative", "gradient", "estimation"}


def test_bad_inputs_name_the_field_and_the_limit() -> None:
    with pytest.raises(ValidationError, match=r"particles\.0[\s\S]*greater than or equal to 8"):
        Params(particles=[4])
    with pytest.raises(ValidationError, match="only once"):
        Params(resamplers=["soft", "soft"])
    with pytest.raises(ValidationError):
        Params(ode_steps=1000)
    with pytest.raises(MethodInputError, match="moment_repeats x max\\(particles\\)"):
        run(Params(particles=[1024], moment_repeats=64), lambda f, m="": None)
    with pytest.raises(MethodInputError, match="the autograd graph"):
        run(Params(particles=[1024], moment_repeats=4, ode_steps=64), lambda f, m="": None)


def _points(values: list[float]) -> list[MomentPoint]:
    return [MomentPoint(n=16 * 4**i, rmse=v, mean_rmse=v, cov_rmse=v) for i, v in enumerate(values)]


def _grad(rmse: float) -> GradientSummary:
    return GradientSummary(bias=0.0, std=rmse, rmse=rmse, mean_log_likelihood=0.0, samples=[])


def test_claims_hold_and_fail_on_synthetic_numbers() -> None:
    moments = {"diffusion": _points([1.0, 0.5]), "soft": _points([1.0, 0.6])}
    derivative = {
        "diffusion": [DerivativePoint(n=512, value=1.02, std=0.01, estimator="autograd")],
        "multinomial": [DerivativePoint(n=512, value=0.9, std=0.5, estimator="fd")],
    }
    good = evaluate_claims(moments, derivative, {"diffusion": _grad(1.0), "soft": _grad(2.0)})
    assert [c.holds for c in good] == [True, True, True]
    bad_derivative = {**derivative, "diffusion": [DerivativePoint(n=512, value=1.3, std=0.01, estimator="a")]}
    bad = evaluate_claims(
        {"diffusion": _points([0.5, 1.0])}, bad_derivative, {"diffusion": _grad(3.0), "soft": _grad(2.0)}
    )
    assert [c.holds for c in bad] == [False, False, False]
    undecided = evaluate_claims({"soft": _points([1.0])}, {"soft": []}, {"soft": _grad(1.0)})
    assert [c.holds for c in undecided] == [None, None, None]


@pytest.mark.slow
def test_default_run_reproduces_the_shift_derivative_and_falling_moment_error() -> None:
    result = run(Params(), lambda f, m="": None)
    diffusion = {p.n: p for p in result.mean_shift_derivative["diffusion"]}[512]
    multinomial = {p.n: p for p in result.mean_shift_derivative["multinomial"]}[512]
    assert abs(diffusion.value - 1.0) <= 0.15
    assert multinomial.std > 10 * diffusion.std
    for name in result.resamplers:
        assert result.moment_error[name][-1].rmse < result.moment_error[name][0].rmse
    assert result.verdict().tone in {"success", "warning"}
