"""run(): claims per seed, the ERM facts on the default size, determinism, bounds, figures and artifacts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common import no_progress
from models.erm_overfit import SPEC
from models.erm_overfit.claims import SOLVER_TOLERANCE
from models.erm_overfit.params import Params


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({"samples": 5, "seeds": 2, **overrides}), no_progress)


def test_claims_have_one_outcome_per_seed_and_the_result_round_trips() -> None:
    result = _run()
    assert [c.id for c in result.claims] == ["some_erm_overfits", "unique_erm_overfits", "zero_not_minimiser"]
    assert all(len(c.seeds) == 2 for c in result.claims)
    assert [o.seed for o in result.outcomes] == [0, 1]
    assert SPEC.result_model.model_validate_json(result.model_dump_json()) == result
    assert result.dimension == 30 and result.code_size == 2**8


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_default_size_facts(seed: int) -> None:
    """d = 6m; an unseen codeword exists and overfits by (1 - theta)/2; the solver is certified and 0 is not optimal."""
    result = SPEC.run(Params(seed=seed, seeds=1), no_progress)
    o = result.outcomes[0]
    assert result.dimension == 6 * result.samples and result.coherence < result.theta < 1
    assert o.unseen > 0 and o.bad_erm_train_excess == pytest.approx(0.0, abs=1e-12)
    assert o.bad_erm_excess == pytest.approx(result.guarantee, abs=1e-12)
    assert o.solver_gap <= SOLVER_TOLERANCE and o.zero_minus_erm > SOLVER_TOLERANCE
    assert o.erm_excess_total >= o.erm_excess >= 0.0
    assert o.erm_excess_total <= o.erm_excess + result.strong_convexity / 2 + 1e-9


def test_same_seed_same_result() -> None:
    assert _run(seed=4).model_dump() == _run(seed=4).model_dump()
    assert _run(seed=4).outcomes[0].zero_minus_erm != _run(seed=5).outcomes[0].zero_minus_erm


def test_bounds() -> None:
    for bad in ({"samples": 11}, {"samples": 2}, {"threshold_margin": 1.0}, {"seeds": 11}, {"noise_scale": -1}):
        with pytest.raises(ValidationError):
            Params.model_validate(bad)


def test_artifacts_figures_and_examples() -> None:
    result = _run(seeds=1)
    assert {"result.json", "seeds.csv"} <= set(result.all_artifacts())
    assert set(SPEC.figures(result)) == {"excess", "inner_products"}
    assert len(result.inner_products) == len(result.unseen_mask) == result.code_size
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        Params.model_validate(example)
