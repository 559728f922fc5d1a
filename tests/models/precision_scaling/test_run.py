"""run(): the CLI keys, the headline dichotomy (seeded), budgets, determinism, progress, artifacts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common import MethodInputError, no_progress
from models.precision_scaling import SPEC
from models.precision_scaling.params import Params

SMALL = {"model_sizes": [4, 8, 16, 32], "n_samples": 1000, "dimension": 128, "seeds": 2}


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({**SMALL, **overrides}), no_progress)


def test_cli_keys() -> None:
    dumped = _run().model_dump(mode="json")
    for scheme in ("full", "multiplicative", "additive"):
        assert [p["m"] for p in dumped["risk"][scheme]] == [4, 8, 16, 32]
        assert all(p["risk"] > 0 for p in dumped["risk"][scheme])
        ratio = dumped["risk"][scheme][-1]["risk"] / dumped["risk"][scheme][0]["risk"]
        assert dumped["ratio_largest_smallest"][scheme] == pytest.approx(ratio)
        assert [p["m"] for p in dumped["effective_model_size"][scheme]] == [4, 8, 16, 32]
        assert all("m_eff" in p for p in dumped["effective_model_size"][scheme])


def test_full_precision_keeps_every_direction() -> None:
    result = _run()
    assert all(e.m_eff == pytest.approx(e.m) for e in result.effective_model_size["full"])
    assert result.noise_variance_mean["full"] == 0.0


def test_budget_and_bounds_are_enforced_before_work() -> None:
    with pytest.raises(MethodInputError, match="n_samples: .* above the limit"):
        _run(n_samples=50_000, seeds=10, dimension=4096, model_sizes=[8, 16])
    with pytest.raises(ValidationError, match="below the dimension"):
        Params(model_sizes=[8, 512], dimension=512)
    with pytest.raises(ValidationError):
        Params(multiplicative_bits=0)


def test_same_seed_same_numbers() -> None:
    assert _run(seed=4).model_dump(exclude={"seconds"}) == _run(seed=4).model_dump(exclude={"seconds"})
    assert _run(seed=4).risk != _run(seed=5).risk


def test_progress_is_monotone_and_artifacts_and_figures_exist() -> None:
    seen: list[float] = []
    result = SPEC.run(Params.model_validate(SMALL), lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 10
    assert {"result.json", "risk_vs_model_size.csv", "risk_vs_samples.csv", "per_seed.csv"} <= set(result.all_artifacts())
    assert set(SPEC.figures(result)) == {"claims_per_seed", "risk_vs_model_size", "risk_vs_samples", "effective_model_size"}
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        Params.model_validate(example)
