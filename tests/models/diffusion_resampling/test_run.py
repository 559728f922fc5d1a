"""run(): the CLI keys, reproducibility, monotone progress, input limits, and the claims."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common.claims import evaluate_claims
from models.common.contract import MethodInputError
from models.diffusion_resampling import SPEC
from models.diffusion_resampling.claims import CLAIMS, best_rival, measure
from models.diffusion_resampling.params import Params
from models.diffusion_resampling.result import BenchmarkScores, Convergence, PairedComparison, SeedSummary
from models.diffusion_resampling.run import run
from tests.models.diffusion_resampling.conftest import small_params


def test_small_run_has_the_cli_keys_and_is_reproducible() -> None:
    fractions: list[float] = []
    result = run(small_params(), lambda f, m="": fractions.append(f))
    dumped = result.model_dump()
    for key in ("moment_error", "derivative", "gradient", "kalman_gradient", "claims", "per_seed", "tunings", "grids",
                "landscape"):
        assert key in dumped
    assert [p["n"] for p in dumped["moment_error"]["diffusion"]] == [16, 64]
    assert {"bias", "std"} <= set(dumped["gradient"]["soft"])
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    again = run(small_params(), lambda f, m="": None)
    assert again.model_dump() == dumped
    other = run(small_params(seed=5), lambda f, m="": None)
    assert other.model_dump()["moment_error"] != dumped["moment_error"]
    assert set(result.artifacts()) == {"moment_error.csv", "observation_derivative.csv", "gradient.csv", "estimation.csv",
                                       "benchmark.csv", "tuning.csv"}
    assert set(SPEC.figures(result)) == {"moment_error", "derivative", "gradient", "paired", "estimation", "landscape",
                                         "benchmark"}
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


def _scores(landscape: list[float]) -> BenchmarkScores:
    return BenchmarkScores(landscape=landscape, filtering_kl=landscape, estimation=landscape, estimate=landscape)


def _summary(shift: float = -0.1, ratio: float = 1.2, change: float = 0.02, multinomial: float = 0.5) -> SeedSummary:
    pair = PairedComparison(rival="ot", point=-0.2, low=-0.4, high=-0.1)
    conv = Convergence(n=512, steps=32, rmse=0.3, doubled_rmse=0.3 / (1 + change), relative_change=change)
    ot = [1.0, 1.5, 0.8, 1.2, 1.1, 0.9, 1.3, 1.0]
    bench = {"ot": _scores(ot), "soft": _scores([v + 1.0 for v in ot]),
             "diffusion": _scores([v + shift + 0.01 * (k % 3) for k, v in enumerate(ot)]),
             "multinomial": _scores([v + multinomial for v in ot])}
    return SeedSummary(seed=0, benchmark=bench, gradient_rmse={"diffusion": 1.0, "ot": 1.2},
                       gradient_max_error={"diffusion": 3.0, "ot": 2.0}, gradient_errors={"diffusion": [1.0] * 64,
                       "ot": [1.2] * 64}, comparisons={"ot": pair}, moment_ratio=ratio, derivative_ratio=1.0,
                       convergence=conv)


def _holds(summary: SeedSummary, **params: object) -> dict[str, str]:
    measured = measure(summary, Params.model_validate(params))
    return {c.id: c.holds for c in evaluate_claims(CLAIMS, {k: [v] for k, v in measured.items()}, [0])}


def test_claims_hold_and_fail_on_synthetic_numbers() -> None:
    good = _holds(_summary())
    assert good["landscape"] == "held" and good["consistent"] == "partial"  # one seed, no units: no interval
    assert good["ode_converged"] == "held" and good["no_tails"] == "held" and good["gradient_vs_ot"] == "held"
    assert _holds(_summary(shift=0.1))["landscape"] == "not_held"  # worse than OT, the strongest rival
    assert _holds(_summary(shift=-0.005))["landscape"] != "held"  # within the set-to-set noise: a tie
    assert _holds(_summary(multinomial=-0.5))["landscape"] == "not_held"  # the null beats the rival too: vacuous
    assert _holds(_summary(), data_sets=4)["landscape"] != "held"  # too few data sets: refused by the floor
    assert _holds(_summary(ratio=2.3))["consistent"] == "not_held"
    unconverged = _holds(_summary(change=0.3))
    assert unconverged["consistent"] != "held" and unconverged["ode_converged"] == "not_held"


def test_the_strongest_rival_is_chosen_per_metric() -> None:
    summary = _summary()
    assert best_rival(summary, "landscape") == "ot"
    summary.benchmark["soft"] = _scores([0.1] * 8)
    assert best_rival(summary, "landscape") == "soft"


@pytest.mark.slow
def test_default_run_converged_ode_tuned_grids_and_no_gradient_tails() -> None:
    """Seed 0 defaults: the ODE is converged at 32 steps, every knob's grid report is consistent with its cells,
    diffusion's largest gradient error is within twice the best rival's, and the standing names every resampler."""
    result = run(Params(), lambda f, m="": None)
    conv = result.per_seed[0].convergence
    assert conv is not None and conv.relative_change <= 0.1
    maxima = result.per_seed[0].gradient_max_error
    assert maxima["diffusion"] <= 2.0 * min(v for n, v in maxima.items() if n != "diffusion")
    assert {g.tuned for g in result.grids} == {"soft", "gumbel", "ot", "diffusion"}
    for name, tuning in result.tunings.items():
        assert min(tuning.cells, key=lambda c: c.landscape).point == tuning.best, name
    assert result.standing is not None and set(result.standing.scores) == set(result.resamplers)
