"""The finite-volume solver against a manufactured solution, a 1-D closed form and mass conservation."""

from __future__ import annotations

import numpy as np
import pytest

from models.apt_operator.solver import cell_centres, solve_darcy


def _manufactured(n: int) -> float:
    """Max error of p = sin(pi x) sin(pi y) with k = exp(x + y / 2), q = -div(k grad p)."""
    c = cell_centres(n)
    x, y = np.meshgrid(c, c, indexing="ij")
    k = np.exp(x + y / 2)
    s, t = np.sin(np.pi * x), np.sin(np.pi * y)
    px, py = np.pi * np.cos(np.pi * x) * t, np.pi * s * np.cos(np.pi * y)
    q = -(k * px + k * py / 2 - 2 * np.pi**2 * k * s * t)  # -(k_x p_x + k_y p_y + k lap p)
    p = solve_darcy(k, q).pressure
    return float(np.max(np.abs(p - s * t)))


def test_manufactured_solution_converges_at_second_order() -> None:
    e16, e32, e64 = (_manufactured(n) for n in (16, 32, 64))
    assert e64 < 2e-3
    assert e16 / e32 > 3.5 and e32 / e64 > 3.5


def test_layered_medium_matches_the_one_dimensional_closed_form() -> None:
    n = 24
    rng = np.random.default_rng(0)
    layers = np.exp(rng.normal(size=n))  # k depends on x only, cell by cell
    k = np.repeat(layers[:, None], n, 1)
    h = 1.0 / n
    resistance = h * (np.concatenate([[0.0], np.cumsum(1 / layers)[:-1]]) + 0.5 / layers)
    exact = resistance / (h * np.sum(1 / layers))  # p(0) = 0, p(1) = 1, flux constant
    sides = np.stack([np.zeros(n), np.ones(n), exact, exact])
    solution = solve_darcy(k, np.zeros((n, n)), sides)
    np.testing.assert_allclose(solution.pressure, np.repeat(exact[:, None], n, 1), atol=1e-10)


def test_mass_is_conserved(medium) -> None:  # type: ignore[no-untyped-def]
    for n in (16, 32):
        c = cell_centres(n)
        x, y = np.meshgrid(c, c, indexing="ij")
        solution = solve_darcy(np.exp(medium.log_k(x, y)), medium.source(x, y) + 3.0)
        assert solution.boundary_outflux == pytest.approx(solution.source_total, rel=1e-9)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        solve_darcy(-np.ones((4, 4)), np.zeros((4, 4)))
