"""Merging maths: block means, EMA, the rank-one share and the extrapolation line, on known trajectories."""

from __future__ import annotations

import numpy as np
import pytest

from models.extra_merge.merging import (
    block_merges,
    ema,
    extrapolation,
    lag_shift,
    pca_share,
    random_walk_pca_share,
    top1_share,
)


def test_block_merges_are_block_means_aligned_to_the_end() -> None:
    checkpoints = np.arange(11, dtype=float)[:, None] * np.array([[1.0, 2.0]])
    merges, ends = block_merges(checkpoints, 3)
    assert np.allclose(merges[:, 0], [3.0, 6.0, 9.0])  # blocks (2,3,4), (5,6,7), (8,9,10)
    assert np.allclose(ends[:, 0], [4.0, 7.0, 10.0])
    with pytest.raises(ValueError):
        block_merges(checkpoints, 12)


def test_ema_matches_the_recursion_and_keeps_constants() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 3))
    out = ema(x, 4)
    manual = x[0].copy()
    for row in x[1:]:
        manual = 0.75 * manual + 0.25 * row
    assert np.allclose(out[-1], manual)
    assert np.allclose(ema(np.ones((5, 2)), 3), 1.0)


def test_top1_share_is_one_on_a_line_and_small_for_random_steps() -> None:
    line = np.outer(np.arange(8.0) ** 1.5, np.array([1.0, -2.0, 0.5]))
    assert top1_share(line) == pytest.approx(1.0)
    rng = np.random.default_rng(1)
    walk = np.cumsum(rng.normal(size=(9, 5000)), axis=0)  # 8 random steps in high dimension
    assert 1 / 8 <= top1_share(walk) < 0.2


def test_averaging_a_zigzag_around_a_line_raises_the_top1_share() -> None:
    """The river-valley picture: drift along e1 plus large alternating oscillation across it."""
    rng = np.random.default_rng(2)
    t = np.arange(64.0)
    drift = np.outer(t, np.eye(50)[0])  # one unit per checkpoint along e1; noise ~ 7 units across
    noise = rng.normal(size=(64, 50))
    noise[:, 0] = 0.0
    checkpoints = drift + noise
    merges, ends = block_merges(checkpoints, 8)
    assert top1_share(merges) > top1_share(ends) + 0.2


def test_extrapolation_recovers_the_line_direction_and_step() -> None:
    direction = np.array([3.0, 4.0]) / 5.0
    merges = np.outer(np.arange(6.0), direction * 2.0) + np.array([1.0, 1.0])
    line = extrapolation(merges, 4)
    assert np.allclose(line.direction, direction)
    assert np.allclose(line.step, 2.0 * direction)
    assert np.allclose(line.at(1.0), merges[-1] + 2.0 * direction)
    assert np.allclose(line.at(0.0), merges[-1])


def test_lawa_is_the_mean_of_the_last_k() -> None:
    from models.extra_merge.merging import lawa

    x = np.arange(20, dtype=float).reshape(10, 2)
    assert np.allclose(lawa(x, 3), x[-3:].mean(axis=0))
    assert np.allclose(lawa(x, 10), x.mean(axis=0))
    with pytest.raises(ValueError):
        lawa(x, 11)


def test_pca_share_is_one_on_a_line_whatever_the_spacing_and_the_random_walk_level_matches_simulation() -> None:
    line = np.outer(np.arange(7.0) ** 2, np.array([1.0, -2.0, 0.5]))
    assert pca_share(line) == pytest.approx(1.0)
    rng = np.random.default_rng(3)
    shares = [pca_share(np.cumsum(rng.normal(size=(7, 4000)), axis=0)) for _ in range(200)]
    assert np.mean(shares) == pytest.approx(random_walk_pca_share(7), abs=0.01)
    assert random_walk_pca_share(400) == pytest.approx(6 / np.pi**2, abs=2e-3)  # the continuum limit
    assert random_walk_pca_share(2) == pytest.approx(1.0)


def test_lag_shift_moves_along_the_last_merged_step() -> None:
    merges = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 2.0]])
    shift = lag_shift(merges)
    assert np.allclose(shift.at(0.5), [1.0, 3.0]) and np.allclose(shift.at(-1.0), merges[-2])
    with pytest.raises(ValueError):
        lag_shift(merges[:1])
