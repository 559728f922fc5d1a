"""The whole run: seeded, keys of the CLI contract, claims from the per-seed numbers, coverage near 1 - alpha."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from models.common import no_progress
from models.pine_pruning import SPEC
from models.pine_pruning.params import Params
from models.pine_pruning.run import measure, run

TINY = {"trees": 5, "max_depth": 2, "alphas": [0.1, 0.5], "oracle_rounds": 3, "search_size": 200, "check_size": 300}


def test_same_seed_same_numbers_and_the_cli_keys() -> None:
    first = run(Params(**TINY), no_progress).model_dump(mode="json")
    second = run(Params(**TINY), no_progress).model_dump(mode="json")
    for r in (first, second):
        r.pop("seconds")
        for s in r["per_seed"]:
            for p in [*s["curve"], s["whole_space"]]:
                p.pop("seconds"), p.pop("oracle_seconds")
    assert first == second
    seed = first["per_seed"][0]
    assert {"alpha", "trees_kept", "test_agreement", "converged"} <= set(seed["curve"][0])
    assert {"trees_kept", "test_agreement"} <= set(seed["whole_space"])
    assert {c["id"] for c in first["claims"]} == {"agreement", "compression", "monotone", "converged"}


def test_claims_follow_the_per_seed_numbers() -> None:
    result = run(Params(**{**TINY, "seeds": 2, "oracle_rounds": 40}), no_progress)
    total = result.total_trees
    assert len(result.per_seed) == 2
    for run_ in result.per_seed:
        m = measure(run_, total)
        beyond = [100 * (run_.whole_space.trees_kept - p.trees_kept) / total for p in run_.curve]
        assert m["compression"].value == pytest.approx(np.mean(beyond))
        assert sorted(m["compression"].units or []) == pytest.approx(sorted(beyond))
        assert m["compression"].null == 0.0
        for p in [*run_.curve, run_.whole_space]:
            assert p.trees_kept == total or not p.fell_back  # a fallback is the plain full ensemble
            if p.converged:
                assert p.fresh_disagreements == 0  # proved: the sampling re-check finds nothing
    assert result.standing is not None and result.standing.method == "pine"
    assert {c.id for c in result.claims if c.headline} == {"compression", "monotone"}


def test_snapped_bin_edges_are_split_thresholds_and_quantile_edges_are_not() -> None:
    """Snapped bins: every interior bin edge of a feature is one of the ensemble's split thresholds on it (a cell is
    a union of the ensemble's cells along that edge); features no tree splits on have one bin."""
    from models.pine_pruning.run import prepare

    setting = prepare(Params(**TINY), 0)
    thresholds = setting.ensemble.thresholds(setting.train.d)
    assert setting.density.discrete and sum(len(e) for e in setting.density.edges) > 0
    for j in range(setting.train.d):
        assert set(setting.density.edges[j].tolist()) <= set(thresholds[j].tolist())
        if len(thresholds[j]) == 0:
            assert len(setting.density.edges[j]) == 0
    quantile = prepare(Params(**TINY, bin_edges="quantile"), 0)
    assert not quantile.density.discrete
    assert any(not set(quantile.density.edges[j].tolist()) <= set(thresholds[j].tolist())
               for j in range(setting.train.d))


@pytest.mark.parametrize("dataset", ["wine", "synthetic"])
def test_bundled_datasets_run(dataset: str) -> None:
    result = run(Params(dataset=dataset, trees=3, max_depth=2, alphas=[0.3], oracle_rounds=1, search_size=100,
                        check_size=100), no_progress)
    assert result.dataset == dataset and result.per_seed[0].full_test_accuracy > 0.5


def test_bad_input_names_the_field() -> None:
    with pytest.raises(ValidationError, match="alphas"):
        Params(alphas=[0.1, 1.5])
    with pytest.raises(ValidationError, match="trees"):
        Params(trees=500)
    assert SPEC.smoke_params is not None and Params(**SPEC.smoke_params)
def test_conformal_coverage_on_held_out_data_is_close_to_one_minus_alpha() -> None:
    coverages = {0.1: [], 0.3: []}  # type: dict[float, list[float]]
    from models.common.tabular import classification_blobs, region_threshold, split
    from models.pine_pruning.chow_liu import fit_chow_liu

    for seed in range(30):
        rng = np.random.default_rng(seed)
        train, calibration, test = split(classification_blobs(900, rng), [0.5, 0.2, 0.3], rng)
        density = fit_chow_liu(train.X)
        for alpha in coverages:
            threshold = region_threshold(density.log_likelihood(calibration.X), alpha)
            coverages[alpha].append(float(np.mean(density.log_likelihood(test.X) >= threshold)))
    for alpha, values in coverages.items():
        assert abs(np.mean(values) - (1 - alpha)) < 0.02


def test_citation_names_the_official_code() -> None:
    """The Paper record and the About name the paper's official code (github.com/Haruk1y/pine)."""
    assert SPEC.paper.code_url == "https://github.com/Haruk1y/pine"
    assert "https://github.com/Haruk1y/pine" in SPEC.about
