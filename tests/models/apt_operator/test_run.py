"""Runs: reproducible, bounded, and the paper's headline checks with the shipped checkpoint."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.apt_operator import SPEC
from models.apt_operator.params import Params
from models.apt_operator.result import Result
from models.common import no_progress

TINY = {"test_samples": 4, "retrain": True, "train_samples": 8, "epochs": 1}


def test_same_seed_same_numbers_and_keys() -> None:
    a = SPEC.run(Params(**TINY, seed=3), no_progress)
    b = SPEC.run(Params(**TINY, seed=3), no_progress)
    assert a.relative_l2 == b.relative_l2 and a.super_resolution == b.super_resolution
    assert a.losses == b.losses
    c = SPEC.run(Params(**TINY, seed=4), no_progress)
    assert c.relative_l2 != a.relative_l2
    dumped = a.model_dump()
    assert set(dumped["relative_l2"]) >= {"fused", "local_only", "global_only", "fno"}
    assert set(dumped["super_resolution"]) == {"same_resolution", "higher_resolution", "ratio"}
    assert a.solver_time_s > 0 and a.inference_time_s > 0
    assert Result.model_validate_json(a.model_dump_json()) == a


@pytest.mark.parametrize(("field", "value"), [("train_samples", 1000), ("epochs", 0), ("mesh", "voronoi"),
                                              ("test_samples", 2)])
def test_bad_input_names_the_field(field: str, value: object) -> None:
    with pytest.raises(ValidationError, match=field):
        Params(**{field: value})


def test_shipped_checkpoint_run_is_fast_and_sane() -> None:
    result = SPEC.run(Params(test_samples=8), no_progress)
    assert not result.retrain and result.train_samples >= 100
    errors = result.adaptive()
    assert 0 < errors.fused < 1 and 0 < errors.fno < 1


@pytest.mark.slow
def test_headline_checks_with_the_shipped_checkpoint() -> None:
    """The paper's claims at this scale, seed 0, 24 test media: fused beats both ablations on the adaptive
    mesh, and decoding at 64 x 64 costs at most 1.5 x the 32 x 32 error."""
    result = SPEC.run(Params(seed=0), no_progress)
    errors = result.adaptive()
    assert errors.fused < errors.local_only and errors.fused < errors.global_only
    assert result.super_resolution.ratio <= 1.5
    assert result.verdict().tone == "success"
