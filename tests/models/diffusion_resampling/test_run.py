"""run(): the CLI keys, reproducibility, monotone progress, input limits, and the claims."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common.claims import evaluate_claims
from models.common.contract import MethodInputError
from models.diffusion_resampling import SPEC
from models.diffusion_resampling.claims import CLAIMS, measure
from models.diffusion_resampling.params import Params
from models.diffusion_resampling.result import Convergence, PairedComparison, SeedSummary
from models.diffusion_resampling.run import run
from tests.models.diffusion_resampling.conftest import small_params


def test_small_run_has_the_cli_keys_and_is_reproducible() -> None:
    fractions: list[float] = []
    result = run(small_params(), lambda f, m="": fractions.append(f))
    dumped = result.model_dump()
    for key in ("moment_error", "derivative", "gradient", "kalman_gradient", "claims", "per_seed"):
        assert key in dumped
    assert [p["n"] for p in dumped["moment_error"]["diffusion"]] == [16, 64]
    assert {"bias", "std"} <= set(dumped["gradient"]["soft"])
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    again = run(small_params(), lambda f, m="": None)
    assert again.model_dump() == dumped
    other = run(small_params(seed=5), lambda f, m="": None)
    assert other.model_dump()["moment_error"] != dumped["moment_error"]
    assert set(result.artifacts()) == {"moment_error.csv", "observation_derivative.csv", "gradient.csv", "estimation.csv"}
    assert set(SPEC.figures(result)) == {"moment_error", "derivative", "gradient", "paired", "estimation"}
    two = run(small_params(seeds=2), lambda f, m="": None)
    assert [c.seeds[0].value for c in two.claims] == [c.seeds[0].value for c in result.claims]
    assert len(two.per_seed) == 2 and two.per_seed[1].seed == 1


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


def _summary(high_ot: float = -0.1, ratio: float = 1.2, change: float = 0.02) -> SeedSummary:
    pair = PairedComparison(rival="ot", point=high_ot - 0.2, low=high_ot - 0.4, high=high_ot)
    conv = Convergence(n=512, steps=32, rmse=0.3, doubled_rmse=0.3 / (1 + change), relative_change=change)
    return SeedSummary(seed=0, gradient_rmse={"diffusion": 1.0, "ot": 1.2}, comparisons={"ot": pair},
                       moment_ratio=ratio, derivative_ratio=1.0, convergence=conv)


def _holds(summary: SeedSummary, filters: int = 64) -> dict[str, str]:
    measured = measure(summary, filters)
    return {c.id: c.holds for c in evaluate_claims(CLAIMS, {k: [v] for k, v in measured.items()}, [0])}


def test_claims_hold_and_fail_on_synthetic_numbers() -> None:
    good = _holds(_summary())
    assert good["beats_ot"] == "held" and good["consistent"] == "held" and good["ode_converged"] == "held"
    assert good["beats_soft"] == "not_tested"  # soft not in the comparisons
    assert _holds(_summary(high_ot=0.05))["beats_ot"] == "not_held"  # the interval reaches 0
    assert _holds(_summary(), filters=16)["beats_ot"] == "not_held"  # too few filters: refused by the floor
    assert _holds(_summary(ratio=2.3))["consistent"] == "not_held"
    unconverged = _holds(_summary(change=0.3))
    assert unconverged["consistent"] == "not_held" and unconverged["ode_converged"] == "not_held"


@pytest.mark.slow
def test_default_run_converged_ode_and_the_paired_comparison() -> None:
    """Seed 0 defaults: the ODE is converged at 32 steps, the consistency claim holds, and the paired
    interval against soft resampling lies below 0; the standing names every resampler."""
    result = run(Params(), lambda f, m="": None)
    conv = result.per_seed[0].convergence
    assert conv is not None and conv.relative_change <= 0.1
    claims = {c.id: c for c in result.claims}
    assert claims["consistent"].holds == "held"
    assert result.standing is not None and set(result.standing.scores) == set(result.resamplers)
    if result.verdict().tone == "success":
        assert not result.standing.beaten_by()
