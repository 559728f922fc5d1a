"""Chow-Liu density: mutual information, the spanning tree, normalisation, sampling, structure recovery."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.sparse.csgraph import minimum_spanning_tree

from models.common.tabular import classification_blobs
from models.pine_pruning.chow_liu import fit_chow_liu, maximum_spanning_tree, mutual_information


def test_mutual_information_closed_forms() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, 200000)
    assert abs(mutual_information(a, a, 4, 4) - np.log(4)) < 1e-3  # I(A; A) = H(A) = log 4
    assert mutual_information(a, rng.integers(0, 3, 200000), 4, 3) < 1e-4  # independent


def test_spanning_tree_weight_matches_scipy() -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        w = rng.random((7, 7))
        w = (w + w.T) / 2
        np.fill_diagonal(w, 0)
        parent = maximum_spanning_tree(w)
        ours = sum(w[j, parent[j]] for j in range(7) if parent[j] >= 0)
        reference = -minimum_spanning_tree(-(w + 1.0)).sum() - 6.0  # shift keeps every edge present
        assert abs(ours - reference) < 1e-9 and np.sum(parent < 0) == 1


def test_chain_data_gives_the_chain() -> None:
    data = classification_blobs(5000, np.random.default_rng(2), dims=6, classes=1, separation=0.0)
    tree = fit_chow_liu(data.X, bins=6)
    edges = {tuple(sorted((j, int(tree.parent[j])))) for j in range(6) if tree.parent[j] >= 0}
    assert edges == {(j, j + 1) for j in range(5)}


def test_density_integrates_to_one_and_sampling_follows_it() -> None:
    rng = np.random.default_rng(3)
    X = rng.standard_normal((400, 3)) @ np.array([[1.0, 0.6, 0.2], [0, 1.0, 0.5], [0, 0, 1.0]])
    tree = fit_chow_liu(X, bins=3)
    bounds = [tree.bin_bounds(j) for j in range(3)]
    total, mass = 0.0, {}
    for cell in itertools.product(*[range(len(b[0])) for b in bounds]):
        centre = np.array([[(bounds[j][0][c] + bounds[j][1][c]) / 2 for j, c in enumerate(cell)]])
        volume = np.prod([bounds[j][1][c] - bounds[j][0][c] for j, c in enumerate(cell)])
        mass[cell] = float(np.exp(tree.log_likelihood(centre)[0]) * volume)
        total += mass[cell]
    assert abs(total - 1.0) < 1e-9
    draws = tree.bins(tree.sample(40000, rng))
    for cell, p in mass.items():
        assert abs(np.mean(np.all(draws == np.array(cell), axis=1)) - p) < 0.01


def test_points_outside_the_box_score_as_their_clipped_copy() -> None:
    X = np.random.default_rng(4).standard_normal((300, 2))
    tree = fit_chow_liu(X, bins=4)
    far = np.array([[100.0, -100.0]])
    assert np.isfinite(tree.log_likelihood(far)[0])
    assert tree.log_likelihood(far)[0] == tree.log_likelihood(np.clip(far, tree.low, tree.high))[0]


def test_snap_moves_each_cut_to_the_nearest_threshold() -> None:
    from models.pine_pruning.chow_liu import snap

    assert snap(np.array([0.1, 0.45, 0.9]), np.array([0.0, 0.5, 1.0])).tolist() == [0.0, 0.5, 1.0]
    assert snap(np.array([0.2, 0.3]), np.array([0.25, 2.0])).tolist() == [0.25]  # merged
    assert snap(np.array([0.2]), np.array([])).size == 0  # a feature never split on has one bin


def test_discrete_score_is_the_log_probability_of_the_bins() -> None:
    from models.pine_pruning.chow_liu import fit_chow_liu

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    density = fit_chow_liu(X, bins=3, discrete=True)
    grid = np.array(np.meshgrid(*[np.arange(len(density.edges[j]) + 1) for j in range(3)])).reshape(3, -1).T
    centres = np.stack([np.array([(lo + hi) / 2 for lo, hi in zip(*density.bin_bounds(j), strict=True)])[grid[:, j]]
                        for j in range(3)], axis=1)
    assert np.exp(density.log_likelihood(centres)).sum() == pytest.approx(1.0)  # a distribution over the cells
