"""Runs: reproducible, bounded, the evaluation mesh decides what is judged, and the claims decide the verdict."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from models.apt_operator import SPEC
from models.apt_operator.claims import CLAIMS, measure
from models.apt_operator.params import Params
from models.apt_operator.result import MeshErrors, Result, SeedSummary, SuperResolution, Transfer
from models.common import no_progress
from models.common.claims import Standing, evaluate_claims

TINY = {"test_samples": 4, "retrain": True, "train_samples": 8, "epochs": 1}


def test_same_seed_same_numbers_and_keys() -> None:
    a = SPEC.run(Params(**TINY, seed=3), no_progress)
    b = SPEC.run(Params(**TINY, seed=3), no_progress)
    assert a.per_seed == b.per_seed and a.losses == b.losses
    c = SPEC.run(Params(**TINY, seed=4), no_progress)
    assert c.per_seed[0].errors != a.per_seed[0].errors
    assert a.steps == b.steps > 0 and all(len(curve) >= 1 for curve in a.losses.model_dump().values())
    assert {c.id for c in a.claims} == {c.id for c in CLAIMS}
    assert a.solver_time_s > 0 and a.inference_time_s > 0
    assert Result.model_validate_json(a.model_dump_json()) == a


@pytest.mark.parametrize(("field", "value"), [("train_samples", 1000), ("epochs", 0), ("mesh", "voronoi"),
                                              ("test_samples", 2), ("seed", -5), ("seeds", 99)])
def test_bad_input_names_the_field(field: str, value: object) -> None:
    with pytest.raises(ValidationError, match=field):
        Params(**{field: value})


def test_the_evaluation_mesh_changes_what_is_judged() -> None:
    grid = SPEC.run(Params(mesh="regular", test_samples=4), no_progress)
    adaptive = SPEC.run(Params(mesh="adaptive", test_samples=4), no_progress)
    assert grid.per_seed[0].errors.mesh == "regular" and adaptive.per_seed[0].errors.mesh == "adaptive"
    assert grid.per_seed[0].errors.fused != adaptive.per_seed[0].errors.fused
    assert grid.standing.scores != adaptive.standing.scores and "regular" in grid.standing.metric
    assert len(grid.sample.x) == 1024 and len(adaptive.sample.x) == 448
    assert not grid.retrain and grid.train_samples >= 100


def test_the_finer_input_is_genuinely_finer_and_the_encoder_transfers() -> None:
    """Super-resolution reads the 64 x 64 input (4096 points), and the radius encoder keeps the error close."""
    r = SPEC.run(Params(test_samples=4), no_progress)
    assert len(r.sample.high_truth) == len(r.sample.high_fused) == 4096
    sr = r.per_seed[0].super_resolution
    assert 0 < sr.same_resolution < 1 and sr.higher_resolution < 1.5 * sr.same_resolution


def _summary(fused: float, fno: float) -> SeedSummary:
    errors = MeshErrors(mesh="adaptive", fused=fused, local_only=0.9, global_only=0.9, fno=fno)
    return SeedSummary(seed=0, errors=errors, gate=0.5,
                       super_resolution=SuperResolution(same_resolution=0.4, higher_resolution=0.42, fno_same=0.3,
                                                        fno_higher=0.3),
                       transfer=Transfer(regular=0.4, adaptive=0.42, finer=0.41))


@pytest.mark.parametrize(("fused", "fno", "green"), [(0.3, 0.4, True), (0.4, 0.3, False)])
def test_not_green_while_the_fno_wins(fused: float, fno: float, green: bool) -> None:
    shipped = SPEC.run(Params(test_samples=4), no_progress)
    m = measure(_summary(fused, fno))
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])
    standing = Standing(metric="relative L2", lower_is_better=True, method="fused",
                        scores={"fused": fused, "local_only": 0.9, "global_only": 0.9, "fno": fno})
    result = shipped.model_copy(update={"claims": claims, "standing": standing})
    assert (result.verdict().tone == "success") is green
    assert (next(c for c in claims if c.id == "beats_fno").holds == "held") is green


def test_an_untrained_model_cannot_pass() -> None:
    """Errors at or above 1 (no better than predicting zero) refuse every claim, however the ratios fall."""
    s = _summary(1.05, 1.1)
    s = s.model_copy(update={"transfer": Transfer(regular=1.02, adaptive=1.0, finer=1.0),
                             "super_resolution": SuperResolution(same_resolution=1.05, higher_resolution=1.0,
                                                                 fno_same=1.1, fno_higher=1.1)})
    m = measure(s)
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])
    assert all(c.holds != "held" for c in claims)
