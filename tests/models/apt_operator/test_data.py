"""Samples: continuous fields, the adaptive quadtree mesh, reproducible draws."""

from __future__ import annotations

import numpy as np

from models.apt_operator.data import ADAPTIVE_REFINED, adaptive_sample, make_set, regular_sample


def test_adaptive_mesh_tiles_the_square_and_refines_near_the_wells(medium) -> None:  # type: ignore[no-untyped-def]
    s = adaptive_sample(medium)
    assert s.points.shape == (256 + 3 * ADAPTIVE_REFINED, 2)
    assert s.area.sum() == np.float64(1.0) or abs(s.area.sum() - 1.0) < 1e-12
    fine = s.area < 1 / 256 - 1e-12
    for well in medium.wells:  # the fine cell nearest each well is among the refined ones
        nearest = np.argmin(np.sum((s.points - well) ** 2, 1))
        assert fine[nearest]
    whole = regular_sample(medium, 32)  # leaf averages keep the mean pressure
    assert np.sum(s.area * s.pressure) == np.float64(np.mean(whole.pressure)) or abs(
        np.sum(s.area * s.pressure) - np.mean(whole.pressure)) < 1e-12


def test_the_fields_are_resolution_independent(medium) -> None:  # type: ignore[no-untyped-def]
    coarse, fine = regular_sample(medium, 32), regular_sample(medium, 64)
    restricted = fine.pressure.reshape(32, 2, 32, 2).mean((1, 3)).ravel()
    assert np.linalg.norm(restricted - coarse.pressure) / np.linalg.norm(coarse.pressure) < 0.05


def test_same_seed_same_samples() -> None:
    a = make_set.__wrapped__(5, 0, 2, False)
    b = make_set.__wrapped__(5, 0, 2, False)
    c = make_set.__wrapped__(6, 0, 2, False)
    np.testing.assert_array_equal(a.adaptive[1].pressure, b.adaptive[1].pressure)
    assert not np.allclose(a.regular32[0].log_k, c.regular32[0].log_k)
