"""The stochastic quantisers: unbiased, on their grid, relative vs absolute error."""

from __future__ import annotations

import numpy as np
import pytest

from models.precision_scaling.quantise import additive, multiplicative, stochastic_round


def test_stochastic_rounding_is_unbiased_and_lands_on_neighbours() -> None:
    rng = np.random.default_rng(0)
    x = np.full(200_000, 0.3)
    rounded = stochastic_round(x, 0.25, rng)
    assert set(np.unique(rounded)) == {0.25, 0.5}
    assert rounded.mean() == pytest.approx(0.3, abs=2e-3)
    assert np.array_equal(stochastic_round(np.array([0.5, -1.25]), 0.25, rng), np.array([0.5, -1.25]))


@pytest.mark.parametrize("bits", [1, 3, 8])
def test_multiplicative_error_is_relative(bits: int) -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=50_000) * np.exp(rng.uniform(-8, 8, 50_000))
    q = multiplicative(x, bits, rng)
    assert np.all(np.abs(q - x) <= np.abs(x) * 2.0**-bits + 1e-300)
    assert multiplicative(np.zeros(3), bits, rng).tolist() == [0.0, 0.0, 0.0]
    # unbiased: the mean relative error over many draws of one value is ~0
    one = multiplicative(np.full(100_000, 1.37e-3), bits, rng)
    assert one.mean() == pytest.approx(1.37e-3, rel=1e-3)


@pytest.mark.parametrize("bits", [2, 4, 8])
def test_additive_error_is_absolute_and_on_the_integer_grid(bits: int) -> None:
    rng = np.random.default_rng(2)
    spacing = 2 * 4.0 / (2**bits - 1)
    x = rng.uniform(-3.9, 3.9, 50_000)
    q = additive(x, bits, 4.0, rng)
    assert np.all(np.abs(q - x) <= spacing + 1e-12)
    levels = (q + 4.0) / spacing
    assert np.allclose(levels, np.round(levels)) and len(np.unique(np.round(levels))) <= 2**bits
    small, large = np.full(100_000, 1e-3), np.full(100_000, 1.0 + 1e-3)
    # the error variance does not shrink with the value (it is about spacing^2 x frac (1 - frac))
    assert additive(small, bits, 4.0, rng).var() > 0.2 * additive(large, bits, 4.0, rng).var()
    assert additive(small, bits, 4.0, rng).mean() == pytest.approx(1e-3, abs=spacing / 50)
    assert additive(np.array([9.0]), bits, 4.0, rng)[0] == pytest.approx(4.0)


def test_the_papers_noise_models_are_unbiased_with_their_exact_second_moments() -> None:
    """Multiplicative: E (Q(x) - x)^2 = level x^2 for every x; additive: the constant variance, whatever x."""
    from models.precision_scaling.quantise import paper_noise

    rng = np.random.default_rng(0)
    x = np.repeat(np.array([[0.01, 0.3, -2.0]]), 100_000, axis=0)
    mult = paper_noise(x, "multiplicative", 0.5, 0.0, rng) - x
    add = paper_noise(x, "additive", 0.5, 0.02, rng) - x
    assert np.allclose(mult**2, 0.5 * x**2) and np.allclose(add**2, 0.02)
    assert np.abs(mult.mean(axis=0) / np.abs(x[0])).max() < 0.01
    assert np.abs(add.mean(axis=0)).max() < 0.01 * np.sqrt(0.02)
