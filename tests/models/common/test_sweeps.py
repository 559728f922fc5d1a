"""models.common.sweeps: power-law fits (exactness, interval coverage) and the seeded grid runner."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.sweeps import cell_rng, fit_power_law, run_grid


def test_fit_recovers_an_exact_power_law() -> None:
    x = np.array([8, 16, 32, 64, 128], float)
    fit = fit_power_law(x, 3.0 * x**-1.5)
    assert fit is not None
    assert fit.exponent == pytest.approx(-1.5, abs=1e-12)
    assert fit.prefactor == pytest.approx(3.0, rel=1e-12)
    assert fit.r_squared == pytest.approx(1.0)
    assert fit.exponent_low == pytest.approx(-1.5) and fit.exponent_high == pytest.approx(-1.5)
    assert np.allclose(fit.predict(x), 3.0 * x**-1.5)


def test_fit_interval_covers_the_true_exponent_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(1)
    x = np.geomspace(1, 100, 6)
    covered = 0
    trials = 400
    for _ in range(trials):
        y = 2.0 * x**0.7 * np.exp(rng.normal(0, 0.2, x.size))
        fit = fit_power_law(x, y)
        assert fit is not None
        covered += fit.contains(0.7)
    assert 0.92 <= covered / trials <= 0.98


def test_fit_ignores_non_positive_points_and_refuses_degenerate_input() -> None:
    fit = fit_power_law([1, 2, 4, 0, -1], [1, 4, 16, 5, 5])
    assert fit is not None and fit.points == 3 and fit.exponent == pytest.approx(2.0)
    assert fit_power_law([1.0], [1.0]) is None
    assert fit_power_law([2.0, 2.0, 2.0], [1.0, 2.0, 3.0]) is None
    two = fit_power_law([1, 10], [1, 100])
    assert two is not None and np.isnan(two.exponent_low)


def test_grid_is_seeded_per_cell_and_reports_progress_per_cell() -> None:
    calls: list[tuple[float, str]] = []

    def simulate(setting: int, rngs: list[np.random.Generator]) -> list[float]:
        return [setting + rng.random() for rng in rngs]

    first = run_grid([1, 2, 3], simulate, seeds=4, base_seed=5, progress=lambda f, m="": calls.append((f, m)))
    second = run_grid([1, 2, 3], simulate, seeds=4, base_seed=5)
    other = run_grid([1, 2, 3], simulate, seeds=4, base_seed=6)
    assert [c.results for c in first] == [c.results for c in second]
    assert [c.results for c in first] != [c.results for c in other]
    assert [c.setting for c in first] == [1, 2, 3]
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(calls) == 4
    # a seed's stream does not depend on how many seeds run beside it
    fewer = run_grid([1, 2, 3], simulate, seeds=2, base_seed=5)
    assert [c.results[:2] for c in first] == [c.results for c in fewer]


def test_cell_streams_differ_between_neighbouring_cells_and_seeds() -> None:
    draws = {(c, s): cell_rng(0, c, s).random() for c in range(3) for s in range(3)}
    assert len(set(draws.values())) == 9
    assert cell_rng(1, 0, 0).random() != cell_rng(0, 1, 0).random()


def test_grid_checks_its_inputs() -> None:
    with pytest.raises(ValueError, match="seeds"):
        run_grid([1], lambda s, r: [0.0], seeds=0)
    with pytest.raises(ValueError, match="returned 1 results for 2 seeds"):
        run_grid([1], lambda s, r: [0.0], seeds=2)
