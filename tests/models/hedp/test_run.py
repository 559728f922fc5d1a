"""run(): the claims, determinism (also across thread counts), bad input, artifacts and (slow) the seeds."""

from __future__ import annotations

import pytest
import torch
from pydantic import ValidationError

from models.common import no_progress
from models.hedp import SPEC
from models.hedp.params import LAMBDAS, Params

KEYS = {"hybrid", "energy_only", "distance_only", "nearest_centroid"}
TINY = Params(seeds=1, epochs=2, pretrain_epochs=2, keys=2)


def _numbers(result) -> dict:
    dumped = result.model_dump()
    dumped.pop("seconds")
    return dumped


def test_result_has_claims_per_seed_and_fractions() -> None:
    result = SPEC.run(TINY.model_copy(update={"seeds": 2}), no_progress)
    assert [s.seed for s in result.per_seed] == [0, 1]
    for s in result.per_seed:
        for metric in (s.selection_accuracy, s.seen_accuracy, s.unseen_accuracy):
            assert set(metric) == KEYS and all(0.0 <= v <= 1.0 for v in metric.values())
    assert {c.id for c in result.claims} == {"separability", "selection", "seen", "unseen", "unseen_sprompts"}
    for s in result.per_seed:  # every selector's λ is from the grid; the energy users always regularise
        assert s.energy_weight["hybrid"] in LAMBDAS and s.energy_weight["energy_only"] in LAMBDAS
        assert s.energy_weight["distance_only"] in (0.0, *LAMBDAS)
    assert all(len(c.seeds) == 2 for c in result.claims)
    for c in result.claims:  # paired per test point: the interval uses the points, and a null was measured
        assert c.test is not None and c.test.interval is not None and c.units == "test points"
        assert (c.null is None) == (c.id == "separability")
    assert result.standing is not None and len(result.standing.unit_scores["hybrid"]) == 2
    confusion = result.regularised.confusion
    assert len(confusion) == 5 and all(sum(row) == sum(confusion[0]) for row in confusion)


def test_same_seed_same_numbers_at_any_thread_count() -> None:
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        a = _numbers(SPEC.run(TINY, no_progress))
        torch.set_num_threads(1)
        b = _numbers(SPEC.run(TINY, no_progress))
    finally:
        torch.set_num_threads(before)
    assert a == b
    c = _numbers(SPEC.run(TINY.model_copy(update={"seed": 3}), no_progress))
    assert c["regularised"]["energies"] != a["regularised"]["energies"]


def test_no_regulariser_refuses_the_separability_claim() -> None:
    result = SPEC.run(TINY.model_copy(update={"tune_energy_weight": False, "energy_weight": 0.0}), no_progress)
    claim = next(c for c in result.claims if c.id == "separability")
    assert claim.holds == "not_held" and not claim.seeds[0].floor_ok


def test_progress_is_monotone() -> None:
    seen: list[float] = []
    SPEC.run(TINY, lambda f, m="": seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 16


def test_bad_energy_levels_are_refused() -> None:
    with pytest.raises(ValidationError, match="energy_midline"):
        Params(energy_midline=-5.0, energy_border=-6.0)
    with pytest.raises(ValidationError):
        Params(epochs=0)
    with pytest.raises(ValidationError):
        Params(seeds=6)


def test_artifacts_and_figures() -> None:
    result = SPEC.run(TINY, no_progress)
    files = result.all_artifacts()
    assert {"result.json", "seeds.csv", "accuracy.csv", "confusion.csv", "energies.csv"} <= set(files)
    figs = SPEC.figures(result)
    assert set(figs) == {"energy_histograms", "selection_confusion", "accuracy", "per_domain"}


@pytest.mark.slow
def test_three_seeds_the_regulariser_separates_and_the_verdict_follows_the_claims() -> None:
    result = SPEC.run(Params(seeds=3), no_progress)
    separability = next(c for c in result.claims if c.id == "separability")
    # the claim's value is the energy-only selection gap in points, computed from the per-seed records
    gaps = [100 * (s.selection_accuracy["energy_only"] - s.energy_selection_without_regulariser)
            for s in result.per_seed]
    assert [o.value for o in separability.seeds] == pytest.approx(gaps)
    green = all(c.holds == "held" for c in result.claims) and not result.standing.beaten_by()
    assert (result.verdict().tone == "success") == green
