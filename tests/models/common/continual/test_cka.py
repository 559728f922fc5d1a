"""Linear CKA: closed forms and invariances (Kornblith et al. 2019)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.common.continual import linear_cka


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def test_cka_of_a_representation_with_itself_is_one() -> None:
    x = _rng().normal(size=(50, 6))
    assert float(linear_cka(x, x)) == pytest.approx(1.0)


def test_one_column_cka_is_squared_correlation() -> None:
    rng = _rng()
    a = rng.normal(size=(40, 1))
    b = 0.5 * a + rng.normal(size=(40, 1))
    r = np.corrcoef(a[:, 0], b[:, 0])[0, 1]
    assert float(linear_cka(a, b)) == pytest.approx(r**2)


def test_matches_the_hsic_formula() -> None:
    rng = _rng()
    x, y = rng.normal(size=(30, 5)), rng.normal(size=(30, 3))
    h = np.eye(30) - 1.0 / 30
    k, l_ = h @ x @ x.T @ h, h @ y @ y.T @ h
    expected = np.sum(k * l_) / np.sqrt(np.sum(k * k) * np.sum(l_ * l_))
    assert float(linear_cka(x, y)) == pytest.approx(expected)


def test_invariant_to_orthogonal_maps_scaling_and_shifts() -> None:
    rng = _rng()
    x, y = rng.normal(size=(60, 8)), rng.normal(size=(60, 4))
    y = y + x[:, :4]
    q, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    base = float(linear_cka(x, y))
    assert float(linear_cka(3.0 * x @ q + 5.0, y)) == pytest.approx(base)
    # not invariant to an arbitrary invertible map
    stretch = np.diag(np.linspace(0.1, 10.0, 8))
    assert abs(float(linear_cka(x @ stretch, y)) - base) > 1e-3


def test_independent_representations_have_low_cka_and_it_is_differentiable() -> None:
    rng = _rng()
    x = torch.tensor(rng.normal(size=(500, 3)), requires_grad=True)
    y = torch.tensor(rng.normal(size=(500, 3)))
    value = linear_cka(x, y)
    assert 0.0 <= float(value.detach()) < 0.05
    value.backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()


def test_rejects_mismatched_rows() -> None:
    with pytest.raises(ValueError, match="same rows"):
        linear_cka(np.ones((3, 2)), np.ones((4, 2)))
