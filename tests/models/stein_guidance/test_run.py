"""run(): CLI keys, reproducibility, pairing, the tuning grid's extension, bad input, claims on summaries."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common.grids import best_on_grid
from models.stein_guidance import SPEC
from models.stein_guidance.claims import best_baseline, measure
from models.stein_guidance.params import Params
from models.stein_guidance.result import SeedSummary
from models.stein_guidance.run import run, tuning_grid


def _small(**overrides: object) -> Params:
    values: dict[str, object] = {"particles": 32, "steps": 12, "methods": ["dps", "sdg", "sdg_no_stein"]}
    values.update(overrides)
    return Params.model_validate(values)


def test_small_run_has_the_cli_keys_and_is_reproducible() -> None:
    fractions: list[float] = []
    result = run(_small(), lambda f, m="": fractions.append(f))
    dumped = result.model_dump()
    assert set(dumped["curves"]) == {"dps", "sdg"}  # the tuned methods; the ablation runs at SDG's beta
    first = result.per_seed[0]
    assert first.strength["sdg_no_stein"] == first.strength["sdg"]
    assert {len(v) for v in first.success.values()} == {32}
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert run(_small(), lambda f, m="": None).model_dump() == dumped
    assert run(_small(seed=4), lambda f, m="": None).model_dump()["per_seed"] != dumped["per_seed"]
    assert set(SPEC.figures(result)) == {"hit_ratio", "tradeoff", "final_samples", "trajectories"}
    assert set(result.artifacts()) == {"outcomes.csv", "tuning_curves.csv", "final_samples.csv", "trajectories.csv"}
    ids = [c.id for c in result.claims]
    assert ids[:5] == ["beats_baselines", "stein_hits", "stein_fidelity", "annealing", "stein_vs_langevin"]
    assert result.claims[3].holds == "not_tested"  # alpha = 0 not selected
    assert all(not g.at_edge or len(g.values) == 13 for g in result.grids)  # extended twice at most
    two = run(_small(seeds=2), lambda f, m="": None)
    assert [o.seed for o in two.claims[0].seeds] == [0, 1]
    assert two.claims[1].seeds[0].value == result.claims[1].seeds[0].value


def test_sdg_is_always_run_and_eight_dimensions_work() -> None:
    result = run(_small(dimension=8, methods=["sdg_langevin"]), lambda f, m="": None)
    assert result.dimension == 8 and result.methods == ["sdg", "sdg_langevin"]


def test_grid_extends_past_the_edge_it_sits_on() -> None:
    low = best_on_grid("x", "lambda", [1.0, 2.0, 4.0], [0.5, 0.3, 0.1], lower_is_better=False)
    assert tuning_grid(low) == [0.25, 0.5, 1.0, 2.0, 4.0]
    high = best_on_grid("x", "lambda", [1.0, 2.0, 4.0], [0.1, 0.3, 0.5], lower_is_better=False)
    assert tuning_grid(high) == [1.0, 2.0, 4.0, 8.0, 16.0]


def _summary(sdg: list[float], dps: list[float], ugd: list[float]) -> SeedSummary:
    return SeedSummary(seed=0, strength={"sdg": 8.0, "dps": 8.0, "ugd": 2.0},
                       success={"sdg": sdg, "dps": dps, "ugd": ugd, "sdg_no_stein": [0.0] * 4, "unguided": [0.0] * 4},
                       energy={"sdg": [0.01] * 4, "sdg_no_stein": [0.03] * 4, "unguided": [3.0] * 4},
                       exact_energy=0.0, exact_success=0.6, unguided_on_manifold=[1.0] * 4, grids=[])


def test_claims_are_paired_against_the_best_baseline() -> None:
    summary = _summary([1, 1, 0, 1], [1, 0, 0, 0], [1, 1, 0, 0])
    assert best_baseline(summary) == "ugd"
    m = measure(summary)
    assert m["beats_baselines"].units == [0, 0, 0, 1] and m["beats_baselines"].value == pytest.approx(0.25)
    assert m["beats_baselines"].null == pytest.approx(-0.5)  # the unguided sampler against UGD
    assert m["stein_hits"].value == pytest.approx(0.75)
    assert m["stein_fidelity"].value == pytest.approx(-0.02) and m["stein_fidelity"].null == pytest.approx(2.97)
    assert m["annealing"].value is None


def test_bad_inputs_name_the_field_and_the_limit() -> None:
    with pytest.raises(ValidationError):
        Params(dimension=3)
    with pytest.raises(ValidationError, match="less than or equal to 0.9"):
        Params(alpha=0.95)
    with pytest.raises(ValidationError, match="only once"):
        Params(methods=["dps", "dps"])


@pytest.mark.slow
def test_default_run_exact_floor_and_sampler() -> None:
    """Defaults, seed 0: the exact sampler's energy distance is at the noise floor, well below the distances
    the Stein claim compares, and the unguided sampler is sane."""
    result = run(Params(), lambda f, m="": None)
    first = result.per_seed[0]
    assert abs(first.exact_energy) < 0.005
    assert first.distance("sdg_no_stein") > 3 * abs(first.exact_energy)
    assert sum(first.unguided_on_manifold) / len(first.unguided_on_manifold) > 0.95
    assert all(not g.at_edge for g in result.grids)
