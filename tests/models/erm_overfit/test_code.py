"""The Gold code: m-sequences, exact coherence at the Gold bound, and why random codes do not do."""

from __future__ import annotations

import numpy as np
import pytest

from models.erm_overfit.code import gold_code, m_sequence


@pytest.mark.parametrize("n", [5, 7, 9])
def test_m_sequence_has_full_period_and_balance(n: int) -> None:
    bits = m_sequence(n)
    length = 2**n - 1
    assert bits.size == length and int(bits.sum()) == 2 ** (n - 1)
    signs = 1 - 2 * bits.astype(int)
    autocorrelation = [int(signs @ np.roll(signs, s)) for s in range(1, length)]
    assert set(autocorrelation) == {-1}  # two-valued autocorrelation: the period is maximal


@pytest.mark.parametrize("n", [5, 7])
def test_coherence_is_the_gold_bound(n: int) -> None:
    code = gold_code(n)
    length = 2**n - 1
    assert code.vectors.shape == ((length + 2) * length, length)
    assert np.allclose(np.linalg.norm(code.vectors, axis=1), 1.0)
    assert code.coherence == pytest.approx((2 ** ((n + 1) // 2) + 1) / length)


def test_coherence_matches_the_brute_force_gram_matrix() -> None:
    code = gold_code(5)
    gram = code.vectors @ code.vectors.T
    np.fill_diagonal(gram, 0.0)
    assert np.abs(gram).max() == pytest.approx(code.coherence)


def test_a_random_code_of_the_same_size_is_far_less_orthogonal() -> None:
    rng = np.random.default_rng(0)
    signs = rng.choice([-1.0, 1.0], size=(1023, 31)) / np.sqrt(31)
    gram = signs @ signs.T
    np.fill_diagonal(gram, 0.0)
    assert np.abs(gram).max() > 1.5 * gold_code(5).coherence
