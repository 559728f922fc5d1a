"""The whole run: seeded, keys of the CLI contract, coverage near 1 - alpha, an honest verdict, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from models.common import no_progress
from models.pine_pruning import SPEC
from models.pine_pruning.params import Params
from models.pine_pruning.result import AGREEMENT_BAR, Result
from models.pine_pruning.run import run

TINY = {"trees": 10, "alphas": [0.1, 0.5], "oracle_rounds": 2, "search_size": 200, "check_size": 300,
        "samples": 300}


def test_same_seed_same_numbers_and_the_cli_keys() -> None:
    first = run(Params(**TINY), no_progress).model_dump(mode="json")
    second = run(Params(**TINY), no_progress).model_dump(mode="json")
    assert first == second
    assert {"alpha", "trees_kept", "test_agreement"} <= set(first["curve"][0])
    assert {"trees_kept", "test_agreement"} <= set(first["whole_space"])
    assert {"trees_kept", "test_agreement", "test_accuracy"} <= set(first["accuracy_pruning"])
    assert {"trees", "test_accuracy"} <= set(first["full_ensemble"])
    other = run(Params(**{**TINY, "seed": 1}), no_progress).model_dump(mode="json")
    assert other != first


def test_exact_on_the_program_and_inside_the_region_at_convergence() -> None:
    result = run(Params(**{**TINY, "oracle_rounds": 30, "search_size": 1000, "add_per_round": 200}), no_progress)
    for point in result.curve:
        assert point.exact_on_constraints
        if point.converged and point.fresh_disagreements == 0:
            assert point.region_test_agreement == 1.0


@pytest.mark.parametrize("dataset", ["breast_cancer", "wine", "digits"])
def test_bundled_datasets_run(dataset: str) -> None:
    result = run(Params(dataset=dataset, trees=10, alphas=[0.3], oracle_rounds=1, search_size=100, check_size=100),
                 no_progress)
    assert result.dataset == dataset and result.full_ensemble.test_accuracy > 0.5


def _verdict_matches_the_numbers(result: Result) -> None:
    point = next(p for p in result.curve if p.alpha == 0.1)
    holds = (result.monotone() and point.test_agreement >= AGREEMENT_BAR
             and point.trees_kept < result.whole_space.trees_kept
             and all(p.converged for p in result.curve) and result.whole_space.converged)
    assert (result.verdict().tone == "success") == holds


@pytest.mark.slow
def test_the_headline_check_at_the_defaults_is_reported_as_it_is() -> None:
    result = run(Params(), no_progress)
    _verdict_matches_the_numbers(result)
    coverage = [p.test_coverage - (1 - p.alpha) for p in result.curve]
    assert all(abs(c) < 0.08 for c in coverage)  # split conformal on 180 calibration points, 270 test points


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
