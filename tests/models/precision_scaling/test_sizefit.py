"""The model-size fit recovers a known kappa and E from synthetic curves, and separates the two effects."""

from __future__ import annotations

import numpy as np
import pytest

from models.precision_scaling.sizefit import fit_model_size, full_curve

SIZES = [4, 8, 16, 32, 64, 128]


def _full(m: np.ndarray) -> np.ndarray:
    return 0.9 * np.asarray(m, float) ** -1.0 + 0.002


@pytest.mark.parametrize(("kappa", "error"), [(1.0, 0.0), (0.6, 0.0), (1.0, 0.01), (0.7, 0.004), (1.3, 0.0)])
def test_fit_recovers_kappa_and_the_additive_error(kappa: float, error: float) -> None:
    full = _full(np.array(SIZES))
    risk = error + _full(kappa * np.array(SIZES, float))
    fit = fit_model_size(SIZES, full, risk)
    assert fit.kappa == pytest.approx(kappa, abs=0.02)
    assert fit.additive_error == pytest.approx(error, abs=5e-4)


def test_an_additive_floor_is_not_read_as_a_smaller_model() -> None:
    full = _full(np.array(SIZES))
    fit = fit_model_size(SIZES, full, full + 0.02)
    assert fit.kappa > 0.95 and fit.additive_error == pytest.approx(0.02, rel=0.05)


def test_full_curve_interpolates_on_the_grid_and_extends_the_last_power_law() -> None:
    m = np.array(SIZES, float)
    r = m**-1.0
    assert np.allclose(full_curve(m, r, m), r)
    assert full_curve(m, r, np.array([256.0]))[0] == pytest.approx(1 / 256)
    assert full_curve(m, r, np.array([2.0]))[0] == pytest.approx(1 / 2)
