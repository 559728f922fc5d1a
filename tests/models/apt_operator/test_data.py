"""Samples: continuous fields, the adaptive quadtree mesh, reproducible draws."""

from __future__ import annotations

import numpy as np

from models.apt_operator.data import (
    ADAPTIVE_REFINED,
    adaptive_sample,
    leaves_on_grid,
    make_set,
    regular_sample,
)


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
    for name in ("pressure", "saturation"):  # measured 0.04-0.18 on seeds 0-5: cell centres place channel edges to h
        restricted = getattr(fine, name).reshape(32, 2, 32, 2).mean((1, 3)).ravel()
        assert np.linalg.norm(restricted - getattr(coarse, name)) / np.linalg.norm(getattr(coarse, name)) < 0.25


def test_same_seed_same_samples() -> None:
    a = make_set.__wrapped__(5, 0, 2, False)
    b = make_set.__wrapped__(5, 0, 2, False)
    c = make_set.__wrapped__(6, 0, 2, False)
    np.testing.assert_array_equal(a.adaptive[1].pressure, b.adaptive[1].pressure)
    assert not np.allclose(a.regular32[0].log_k, c.regular32[0].log_k)


def test_the_fno_reads_only_what_the_leaves_carry(medium) -> None:  # type: ignore[no-untyped-def]
    """On the adaptive mesh the FNO's grid holds each leaf's values: exact on refined (fine) cells, constant over
    each coarse leaf's four cells, and averaging it back onto the leaves gives the leaves' values."""
    fine = regular_sample(medium, 32)
    leaves = adaptive_sample(medium, fine)
    grid = leaves_on_grid(leaves)
    assert leaves.cells is not None
    for name in ("log_k", "source", "pressure", "saturation"):
        values = getattr(grid, name)
        np.testing.assert_allclose(values[leaves.cells].mean(1), getattr(leaves, name), atol=1e-12)
        assert np.all(np.ptp(values[leaves.cells], axis=1) == 0)  # piecewise constant per leaf
        small = leaves.area < 1 / 256 - 1e-12
        np.testing.assert_allclose(values[leaves.cells[small, 0]], getattr(fine, name)[leaves.cells[small, 0]])
    assert not np.allclose(grid.pressure, fine.pressure)  # the coarse leaves lose detail
