"""Runs: reproducible, bounded, the evaluation mesh decides what is judged, and the claims decide the verdict."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from models.apt_operator import SPEC
from models.apt_operator.claims import CLAIMS, measure
from models.apt_operator.params import Params
from models.apt_operator.result import (
    MediumErrors,
    MeshErrors,
    Result,
    SeedSummary,
    SuperResolution,
    Transfer,
)
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
    assert [f.field for f in grid.per_seed[0].fields] == ["pressure", "saturation"]
    for table in (grid.relative_l2, adaptive.relative_l2):  # the judged error is the mean of the two fields
        fields = {f.field: f for f in (grid if table is grid.relative_l2 else adaptive).per_seed[0].fields}
        assert table.fused == pytest.approx((fields["pressure"].fused + fields["saturation"].fused) / 2, rel=1e-6)
        assert table.uniform_k == pytest.approx((fields["pressure"].uniform_k + fields["saturation"].uniform_k) / 2)
    assert not grid.retrain and grid.train_samples >= 100


def test_the_finer_input_is_genuinely_finer_and_the_tables_are_the_media_means() -> None:
    """Super-resolution reads the 64 x 64 input (4096 points); every table entry is its per-medium list's mean."""
    r = SPEC.run(Params(test_samples=4), no_progress)
    assert len(r.sample.high_truth) == len(r.sample.high_fused) == 4096
    s = r.per_seed[0]
    assert s.super_resolution.higher_resolution == pytest.approx(np.mean(s.media.fused_64), abs=1e-6)
    assert s.super_resolution.same_resolution == pytest.approx(np.mean(s.media.fused_32), abs=1e-6)
    assert s.errors.gino == pytest.approx(np.mean(s.media.gino), abs=1e-6)
    assert s.transfer.adaptive == pytest.approx(np.mean(s.media.transfer_adaptive), abs=1e-6)


def _summary(fused: float, fno: float, null: float = 0.95, learned: float = 0.4, gino: float = 0.9) -> SeedSummary:
    """A seed whose per-medium errors (8 media, +-2% around the given means) are the claims' units."""
    wiggle = 1 + 0.02 * np.sin(np.arange(8))
    media = {k: list(v * wiggle) for k, v in {
        "fused": fused, "local_only": 0.9, "global_only": 0.9, "gino": gino, "fno": fno, "uniform_k": null,
        "fused_32": learned, "fused_64": 1.05 * learned, "uniform_k_32": null, "uniform_k_64": null,
        "uniform_k_adaptive": null, "transfer_regular": learned, "transfer_adaptive": 1.05 * learned,
        "transfer_finer": 1.02 * learned}.items()}
    errors = MeshErrors(mesh="adaptive", field="mean", fused=fused, local_only=0.9, global_only=0.9, gino=gino, fno=fno,
                        uniform_k=null)
    return SeedSummary(seed=0, errors=errors, fields=[errors, errors], gate=0.5, media=MediumErrors(**media),
                       super_resolution=SuperResolution(same_resolution=learned, higher_resolution=1.05 * learned,
                                                        fno_same=0.3, fno_higher=0.3, gino_same=0.3, gino_higher=0.3,
                                                        uniform_k_same=null, uniform_k_higher=null),
                       transfer=Transfer(regular=learned, adaptive=1.05 * learned, finer=1.02 * learned))


@pytest.mark.parametrize(("fused", "fno", "green"), [(0.3, 0.4, True), (0.4, 0.3, False)])
def test_not_green_while_the_fno_wins(fused: float, fno: float, green: bool) -> None:
    shipped = SPEC.run(Params(test_samples=4), no_progress)
    m = measure(_summary(fused, fno))
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])
    standing = Standing(metric="relative L2", lower_is_better=True, method="fused",
                        scores={"fused": fused, "local_only": 0.9, "global_only": 0.9, "gino": 0.9, "fno": fno,
                                "uniform_k": 0.95})
    result = shipped.model_copy(update={"claims": claims, "standing": standing})
    assert (result.verdict().tone == "success") is green
    assert (next(c for c in claims if c.id == "beats_fno").holds == "held") is green


@pytest.mark.parametrize(("fused", "gino", "held"), [(0.3, 0.4, True), (0.4, 0.3, False), (0.3, 0.3, False)])
def test_beats_gino_needs_a_paired_gap(fused: float, gino: float, held: bool) -> None:
    m = measure(_summary(fused, 0.5, gino=gino))
    claims = {c.id: c for c in evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])}
    assert (claims["beats_gino"].holds == "held") is held
    assert m["beats_gino"].value == pytest.approx(float(np.mean((fused - gino) * (1 + 0.02 * np.sin(np.arange(8))))))


def test_the_best_learned_model_is_checked_against_the_null() -> None:
    """APT at the null (no learning) while GINO is 60% below it: the check names GINO and holds."""
    m = measure(_summary(0.95, 0.9, null=0.95, gino=0.38))
    claims = {c.id: c for c in evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])}
    assert claims["beats_null"].holds != "held" and claims["best_beats_null"].holds == "held"
    assert m["best_beats_null"].value == pytest.approx(60.0) and "gino" in m["best_beats_null"].note


@pytest.mark.parametrize("learned", [0.7, 0.78, 1.05])
def test_no_claim_counts_for_a_model_that_does_not_beat_the_null_by_a_quarter(learned: float) -> None:
    """The null (0.8) is perfectly robust; a model 2-12% better than it (or worse) passes no claim, however
    good its ratios (1.02-1.05) and however far it is below the FNO."""
    m = measure(_summary(learned, 0.9, null=0.8, learned=learned))
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])
    assert all(c.holds != "held" for c in claims)
    assert all(c.seeds[0].floor_ok is False for c in claims if c.id not in ("beats_null", "best_beats_null"))


def test_a_model_that_beats_the_null_has_its_ratios_counted() -> None:
    m = measure(_summary(0.3, 0.4, null=0.95, learned=0.4))
    claims = {c.id: c for c in evaluate_claims(CLAIMS, {c.id: [m[c.id]] for c in CLAIMS}, [0])}
    assert all(c.holds == "held" for c in claims.values())
    wiggle = 1 + 0.02 * np.sin(np.arange(8))
    assert claims["beats_null"].seeds[0].value == pytest.approx(100 * (0.95 - 0.3) / 0.95)
    assert claims["super_resolution"].seeds[0].value == pytest.approx(1.05)
    assert m["beats_fno"].value == pytest.approx(float(np.mean((0.3 - 0.4) * wiggle)))
