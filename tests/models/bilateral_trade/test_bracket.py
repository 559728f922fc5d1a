"""The certified bracket gbb_lower <= GBB <= gbb_upper: exact on atoms, sound and tight elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

from models.bilateral_trade.benchmarks import compute_benchmarks, exact_discrete_gbb, factor_two_ratio, gbb_lp
from models.bilateral_trade.bracket import lagrangian_upper_bound
from models.bilateral_trade.distributions import Rectangle, RectangleMixture, gft_table
from tests.models.bilateral_trade.conftest import make_dist

CONTINUOUS = ["uniform", "two_markets", "two_squares", "rectangles", "gaussian_copula"]


@pytest.mark.parametrize("eta", [0.0, 0.01, 0.05, 0.13])
def test_bracket_is_the_exact_value_on_factor_two_atoms(eta: float) -> None:
    bench = compute_benchmarks(make_dist("factor_two", eta=eta), 41)
    exact = (0.5 - eta) / 2 * factor_two_ratio(eta)
    assert bench.bracket.lower == pytest.approx(exact, rel=1e-9)
    assert bench.bracket.upper == pytest.approx(exact, rel=1e-9)
    assert bench.gbb == bench.bracket.lower


def test_bracket_contains_the_exact_value_of_a_random_atom_mixture() -> None:
    """Atoms anywhere: the exact LP over atom couples, checked against brute force over all couples
    of a fine grid that contains every atom (no couple of the grid does better)."""
    rng = np.random.default_rng(3)
    atoms = [
        Rectangle(s, s, b, b, m)
        for s, b, m in zip(
            rng.integers(0, 20, 5) / 20, rng.integers(0, 20, 5) / 20, rng.random(5) + 0.1, strict=True
        )
    ]
    dist = RectangleMixture(atoms, "random atoms")
    bench = compute_benchmarks(dist, 21)
    exact = exact_discrete_gbb(dist).value
    assert bench.bracket.lower == pytest.approx(exact) and bench.bracket.upper == pytest.approx(exact)
    grid = np.linspace(0, 1, 81)  # contains every atom value k/20
    p, q = np.meshgrid(grid, grid, indexing="ij")
    table = gft_table(dist, p.ravel(), q.ravel())
    brute = gbb_lp(np.stack([p.ravel(), q.ravel()], axis=1), table["gft"], table["profit"]).value
    assert brute <= exact + 1e-9


@pytest.mark.parametrize("kind", CONTINUOUS)
def test_bracket_is_ordered_tight_and_above_a_finer_grid(kind: str) -> None:
    """lower <= upper within 1e-3; a 3x finer grid LP (another lower bound) never exceeds the upper."""
    dist = make_dist(kind)
    bench = compute_benchmarks(dist, 51)
    bracket = bench.bracket
    assert bench.fixed_price - 1e-9 <= bracket.lower <= bracket.upper <= bench.first_best + 1e-9
    assert bracket.upper - bracket.lower < 1e-3
    fine = compute_benchmarks(dist, 151).gbb_lp.value
    assert fine <= bracket.upper + 1e-9


def test_uniform_bracket_contains_one_eighth() -> None:
    bench = compute_benchmarks(make_dist("uniform"), 51)
    assert bench.bracket.lower <= 1 / 8 + 1e-9 <= bench.bracket.upper + 2e-9


@pytest.mark.parametrize("kind", ["two_markets", "two_squares", "gaussian_copula"])
def test_lagrangian_bound_dominates_every_sampled_couple(kind: str) -> None:
    """The certificate's claim itself: GFT + lambda profit at 200k random couples stays below it."""
    dist = make_dist(kind)
    lam = compute_benchmarks(dist, 41).gbb_lp.multiplier
    upper = lagrangian_upper_bound(dist, lam)
    assert upper is not None
    p, q = np.random.default_rng(0).random((2, 200_000))
    table = gft_table(dist, p, q)
    assert (table["gft"] + lam * table["profit"]).max() <= upper


def test_lagrangian_bound_needs_its_lipschitz_term() -> None:
    """Without the cell term (Lipschitz constant 0) the 'bound' is only a coarse maximum and falls
    below the true sup: the term is what makes the bound certified."""
    dist = make_dist("two_squares")
    lam = compute_benchmarks(dist, 41).gbb_lp.multiplier
    p, q = np.random.default_rng(1).random((2, 200_000))
    table = gft_table(dist, p, q)
    sampled = float((table["gft"] + lam * table["profit"]).max())
    centres = (np.arange(8) + 0.5) / 8
    pc, qc = (a.ravel() for a in np.meshgrid(centres, centres, indexing="ij"))
    coarse = gft_table(dist, pc, qc)
    assert float((coarse["gft"] + lam * coarse["profit"]).max()) < sampled
    assert lagrangian_upper_bound(dist, lam, start_cells=8) >= sampled  # type: ignore[operator]


def test_unbounded_marginals_fall_back_to_the_first_best() -> None:
    """A segment (an atom in b) has no Lipschitz bound: the upper side is the first best."""
    dist = RectangleMixture([Rectangle(0, 0.4, 0.7, 0.7, 1), Rectangle(0.2, 0.6, 0.3, 0.9, 1)], "segment")
    assert lagrangian_upper_bound(dist, 0.5) is None
    bench = compute_benchmarks(dist, 41)
    assert bench.bracket.upper == pytest.approx(bench.first_best)
    assert "first best" in bench.bracket.upper_method
