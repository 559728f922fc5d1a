"""Channelised media, the saturation transport and the adaptive refinement: the properties the setting rests on."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from models.apt_operator.channels import CONTRAST, ChannelField, draw_channels
from models.apt_operator.data import ADAPTIVE_BASE, adaptive_sample, refinement_indicator, regular_sample
from models.apt_operator.solver import cell_centres, solve_darcy
from models.apt_operator.transport import transport


def _jumps(field: ChannelField, n: int = 64) -> tuple[np.ndarray, np.ndarray]:
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    lk = field.log_k(x, y)
    return lk, np.abs(np.diff(lk, axis=0))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_channels_are_two_facies_a_contrast_apart(seed: int) -> None:
    """ln k takes two values, ln(contrast) apart, with sharp jumps between neighbouring cells and a channel
    fraction that is neither empty nor the whole medium."""
    field = draw_channels(np.random.default_rng(seed))
    lk, jumps = _jumps(field)
    assert np.allclose(np.unique(lk), [-np.log(CONTRAST) / 2, np.log(CONTRAST) / 2])
    assert jumps.max() == pytest.approx(np.log(CONTRAST)) and (jumps > 0).sum() > 20
    assert 0.1 < (lk > 0).mean() < 0.7


def test_the_contrast_is_what_the_field_says(medium) -> None:  # type: ignore[no-untyped-def]
    lk, _ = _jumps(dataclasses.replace(medium, contrast=10.0))
    assert np.ptp(lk) == pytest.approx(np.log(10.0))
    flat, _ = _jumps(dataclasses.replace(medium, contrast=1.0))
    assert np.all(flat == 0)


def _flow(field: ChannelField, n: int = 32) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    k, q = np.exp(field.log_k(x, y)), field.source(x, y)
    return k, q, solve_darcy(k, q).pressure


@pytest.mark.parametrize("seed", [3, 4])
def test_transport_conserves_the_injected_fluid_and_stays_in_bounds(seed: int) -> None:
    k, q, p = _flow(draw_channels(np.random.default_rng(seed)))
    t = transport(k, q, p, pore_volumes=0.3, steps=12)
    assert t.injected == pytest.approx(0.3)
    assert t.in_place + t.left == pytest.approx(t.injected, rel=1e-10)  # to the solver's precision
    assert t.saturation.min() >= -1e-12 and t.saturation.max() <= 1 + 1e-12
    assert 0.0 < t.left < t.injected  # some fluid reached a producer or the boundary, not all


def test_the_front_is_symmetric_and_spreads_from_the_injector() -> None:
    """Uniform k, one injector at the centre and a symmetric sink ring: the front is symmetric under x <-> y
    and the saturation falls with the distance from the injector."""
    n = 32
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    r = np.hypot(x - 0.5, y - 0.5)
    q = np.exp(-(r**2) / (2 * 0.05**2))
    q = 10 * (q / q.sum() - (r > 0.4) / (r > 0.4).sum()) * n**2
    k = np.ones((n, n))
    s = transport(k, q, solve_darcy(k, q).pressure, pore_volumes=0.1).saturation
    np.testing.assert_allclose(s, s.T, atol=1e-10)
    ring = [s[np.abs(r - d) < 0.02].mean() for d in (0.05, 0.15, 0.25, 0.35)]
    assert all(a > b for a, b in zip(ring, ring[1:], strict=False)) and ring[0] > 0.9 and ring[-1] < 0.1


def test_the_adaptive_mesh_refines_where_pressure_or_saturation_change_fastest(medium) -> None:  # type: ignore[no-untyped-def]
    fine = regular_sample(medium, 2 * ADAPTIVE_BASE)
    mesh = adaptive_sample(medium, fine)
    n = 2 * ADAPTIVE_BASE
    indicator = refinement_indicator(fine.pressure.reshape(n, n), fine.saturation.reshape(n, n),
                                     fine.source.reshape(n, n))
    refined = np.zeros((ADAPTIVE_BASE, ADAPTIVE_BASE), dtype=bool)
    small = mesh.points[mesh.area < 1 / ADAPTIVE_BASE**2 - 1e-12]
    refined[(small[:, 0] * ADAPTIVE_BASE).astype(int), (small[:, 1] * ADAPTIVE_BASE).astype(int)] = True
    assert refined.sum() == 64 and indicator[refined].min() >= indicator[~refined].max()
    s = fine.saturation.reshape(n, n)  # the cells the front crosses (0.2 < s < 0.8) lie mostly in refined blocks
    front = ((s > 0.2) & (s < 0.8)).reshape(ADAPTIVE_BASE, 2, ADAPTIVE_BASE, 2).any((1, 3))
    assert front.sum() > 0 and (front & refined).sum() >= 0.7 * front.sum()
    assert mesh.saturation.max() <= 1 + 1e-12 and np.sum(mesh.area * mesh.saturation) == pytest.approx(
        np.mean(fine.saturation))
