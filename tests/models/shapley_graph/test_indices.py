"""The index formulas of the multilinear extension against brute force over all coalitions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.shapley_graph.exact import all_coalitions, exact_indices
from models.shapley_graph.indices import surrogate_indices
from models.shapley_graph.tensor_network import GraphTensorNetwork, NetworkLayout, random_cores

FIELDS = ("shapley", "banzhaf", "sii", "stii", "banzhaf_pair", "stii_single")


def random_connected_graph(n: int, extra_edges: int, rng: np.random.Generator) -> tuple[tuple[int, int], ...]:
    """A random spanning tree plus a few ring-closing edges (molecule-like, with cycles)."""
    edges = {(int(rng.integers(0, i)), i) for i in range(1, n)}
    while extra_edges > 0:
        u, v = sorted(rng.choice(n, size=2, replace=False).tolist())
        if (u, v) not in edges:
            edges.add((u, v))
            extra_edges -= 1
    return tuple(sorted(edges))


@pytest.mark.parametrize("n,extra,chi,seed", [(2, 0, 2, 0), (5, 1, 2, 1), (8, 2, 3, 2), (10, 2, 3, 3), (12, 3, 2, 4)])
def test_surrogate_indices_equal_brute_force_on_random_multilinear_games(n: int, extra: int, chi: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    layout = NetworkLayout(n, random_connected_graph(n, extra, rng))
    tn = GraphTensorNetwork(layout, chi, random_cores(layout, chi, rng))
    values = tn.evaluate(all_coalitions(n).astype(np.float64)).numpy()
    truth = exact_indices(values, n)
    estimate = surrogate_indices(tn)
    for field in FIELDS:
        expected = getattr(truth, field)
        got = getattr(estimate, field)
        scale = max(1.0, float(np.abs(expected).max()))
        assert np.abs(got - expected).max() <= 1e-9 * scale, field


def test_ceil_half_n_nodes_suffice_and_fewer_do_not() -> None:
    n = 11
    rng = np.random.default_rng(7)
    layout = NetworkLayout(n, random_connected_graph(n, 2, rng))
    tn = GraphTensorNetwork(layout, 3, random_cores(layout, 3, rng))
    truth = exact_indices(tn.evaluate(all_coalitions(n).astype(np.float64)).numpy(), n)
    enough = surrogate_indices(tn, n_nodes=math.ceil(n / 2))
    assert np.abs(enough.shapley - truth.shapley).max() < 1e-10
    assert np.abs(enough.stii - truth.stii).max() < 1e-10
    too_few = surrogate_indices(tn, n_nodes=2)
    assert np.abs(too_few.shapley - truth.shapley).max() > 1e-8


@pytest.mark.parametrize("n,team", [(4, (0, 1)), (6, (1, 3, 4)), (9, (0, 2, 5, 8))])
def test_brute_force_on_unanimity_games(n: int, team: tuple[int, ...]) -> None:
    """v(S) = 1 iff S contains the team T: phi = 1/|T|, SII = 1/(|T|-1), STII = 1/C(|T|,2), Banzhaf = 2^(1-|T|)."""
    masks = all_coalitions(n)
    values = masks[:, list(team)].all(axis=1).astype(np.float64)
    got = exact_indices(values, n)
    k = len(team)
    inside = np.zeros(n, dtype=bool)
    inside[list(team)] = True
    np.testing.assert_allclose(got.shapley, np.where(inside, 1 / k, 0.0), atol=1e-12)
    np.testing.assert_allclose(got.banzhaf, np.where(inside, 2.0 ** (1 - k), 0.0), atol=1e-12)
    both = np.outer(inside, inside) & ~np.eye(n, dtype=bool)
    np.testing.assert_allclose(got.sii, np.where(both, 1 / (k - 1), 0.0), atol=1e-12)
    np.testing.assert_allclose(got.stii, np.where(both, 1 / math.comb(k, 2), 0.0), atol=1e-12)


def test_efficiency_of_shapley_and_stii() -> None:
    n = 9
    rng = np.random.default_rng(3)
    layout = NetworkLayout(n, random_connected_graph(n, 2, rng))
    tn = GraphTensorNetwork(layout, 3, random_cores(layout, 3, rng))
    ends = tn.evaluate(np.vstack([np.zeros(n), np.ones(n)])).numpy()
    got = surrogate_indices(tn)
    total = ends[1] - ends[0]
    assert got.shapley.sum() == pytest.approx(total, abs=1e-12)
    assert got.stii_single.sum() + np.triu(got.stii, 1).sum() == pytest.approx(total, abs=1e-12)


def test_contraction_tree_environments_match_autograd() -> None:
    """Cached partial contractions give the same environment as differentiating the full network."""
    import torch

    from models.shapley_graph.contraction_tree import contraction_tree

    n = 10
    rng = np.random.default_rng(11)
    layout = NetworkLayout(n, random_connected_graph(n, 3, rng))
    tn = GraphTensorNetwork(layout, 3, random_cores(layout, 3, rng))
    z = rng.random((17, n))
    per_atom = [tn.absorb(torch.tensor(np.stack([1 - z[:, i], z[:, i]], 1)), i) for i in range(n)]
    seen: dict[int, torch.Tensor] = {}

    def record(atom: int, env: torch.Tensor) -> torch.Tensor:
        seen[atom] = env
        return per_atom[atom]

    contraction_tree(layout, 3, 17).sweep(per_atom, record)
    assert sorted(seen) == list(range(n))
    for atom in range(n):
        leaf = per_atom[atom].detach().clone().requires_grad_(True)
        tensors = list(per_atom)
        tensors[atom] = leaf
        tn.contract(tensors).sum().backward()
        np.testing.assert_allclose(seen[atom].numpy(), leaf.grad.numpy(), rtol=1e-10, atol=1e-12)
