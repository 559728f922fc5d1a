"""run(): claims per seed, the rates against a recount, determinism, bounds, figures and artifacts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.common import no_progress
from models.common.stats import binomial_lower_bound
from models.erm_overfit import SPEC
from models.erm_overfit.claims import CLAIMS
from models.erm_overfit.params import Params


def _run(**overrides: object):
    return SPEC.run(Params.model_validate({"samples": 4, "seeds": 2, "instances": 12, **overrides}), no_progress)


def test_claims_have_one_outcome_per_seed_and_the_result_round_trips() -> None:
    result = _run()
    assert [c.id for c in result.claims] == [c.id for c in CLAIMS]
    assert all(len(c.seeds) == 2 for c in result.claims)
    assert SPEC.result_model.model_validate_json(result.model_dump_json()) == result
    assert result.dimension == 24 and result.code_size == 2**7


def test_rates_and_bounds_match_a_recount_of_the_training_sets() -> None:
    result = _run()
    claim = next(c for c in result.claims if c.id == "unique_erm_overfits")
    for summary, rows, outcome in zip(result.summaries, result.instances, claim.seeds, strict=True):
        over = sum(r.erm_excess >= result.guarantee for r in rows)
        assert summary.overfit_rate == over / len(rows)
        assert outcome.value == pytest.approx(binomial_lower_bound(over, len(rows)))
        for r in rows:
            assert r.approx_bound == pytest.approx(r.erm_excess - (2 * 1e-3) ** 0.5)
            if r.collisions == 0:
                assert r.closed_form and r.erm_train_excess == pytest.approx(0.0, abs=1e-12)
    assert claim.null is not None and claim.null.value == 0.0 and not claim.null.passes


def test_headline_claims_are_cited_in_the_docstring() -> None:
    import models.erm_overfit.claims as module

    for claim in CLAIMS:
        assert (f"- `{claim.id}`:" in (module.__doc__ or "")) == claim.headline
        assert not claim.headline or claim.why


def test_same_seed_same_result() -> None:
    assert _run(seed=4).model_dump() == _run(seed=4).model_dump()
    assert _run(seed=4).instances != _run(seed=5).instances


def test_bounds() -> None:
    for bad in ({"samples": 11}, {"samples": 2}, {"threshold_margin": 1.0}, {"seeds": 11}, {"instances": 5}):
        with pytest.raises(ValidationError):
            Params.model_validate(bad)


def test_artifacts_figures_and_examples() -> None:
    result = _run(seeds=1)
    assert {"result.json", "instances.csv"} <= set(result.all_artifacts())
    assert set(SPEC.figures(result)) == {"excess", "rates"}
    csv_text = result.all_artifacts()["instances.csv"].content.decode()
    assert len(csv_text.strip().splitlines()) == 1 + 12 and "None" not in csv_text and "nan" not in csv_text
    for example in SPEC.examples().values():  # type: ignore[union-attr]
        Params.model_validate(example)
