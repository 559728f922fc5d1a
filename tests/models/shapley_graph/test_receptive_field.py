"""Exact indices of the local GNN from receptive fields, against brute force over all 2^n coalitions."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.shapley_graph.baselines import exact_game_indices
from models.shapley_graph.exact import all_coalitions, exact_indices
from models.shapley_graph.gnn import load_gnn
from models.shapley_graph.oracles import build_game
from models.shapley_graph.receptive_field import (
    indices_from_mobius,
    mobius_transform,
    receptive_field_indices,
    receptive_fields,
)
from tests.models.shapley_graph.conftest import listed

FIELDS = ("shapley", "banzhaf", "sii", "stii", "banzhaf_pair", "stii_single")


@pytest.mark.parametrize("k,seed", [(1, 0), (4, 1), (7, 2), (10, 3)])
def test_indices_from_mobius_equal_the_definitions(k: int, seed: int) -> None:
    values = np.random.default_rng(seed).standard_normal(2**k)
    truth = exact_indices(values, k)
    got = indices_from_mobius(mobius_transform(values, k), k)
    for field in FIELDS:
        np.testing.assert_allclose(getattr(got, field), getattr(truth, field), atol=1e-12, err_msg=field)


def test_mobius_transform_inverts_to_the_values() -> None:
    k = 6
    values = np.random.default_rng(4).standard_normal(2**k)
    m = mobius_transform(values, k)
    masks = all_coalitions(k)
    subset = (masks[None, :, :] <= masks[:, None, :]).all(axis=2)  # subset[s, t]: T_t within S_s
    np.testing.assert_allclose(subset @ m, values, atol=1e-12)


@pytest.mark.parametrize(
    "name", ["paracetamol", "caffeine", pytest.param("ketamine", marks=pytest.mark.slow)]  # 11, 14, 16 atoms
)
@pytest.mark.parametrize("masking", ["baseline", "delete", "mean"])
def test_receptive_field_values_equal_brute_force(name: str, masking: str) -> None:
    molecule = listed(name)
    truth, _ = exact_game_indices(build_game(molecule, "gnn", masking))  # type: ignore[arg-type]
    got = receptive_field_indices(molecule, masking).indices  # type: ignore[arg-type]
    for field in FIELDS:
        np.testing.assert_allclose(getattr(got, field), getattr(truth, field), atol=1e-12, rtol=0, err_msg=field)


def test_caffeine_needs_2031_distinct_coalitions() -> None:
    """The exact competitor's cost: all subsets of the 2-hop fields, as coalitions of the whole molecule."""
    reference = receptive_field_indices(listed("caffeine"), "baseline")
    assert reference.coalitions == 2031 and reference.coalitions < 2**14


def test_a_readout_on_the_field_alone_equals_the_readout_in_the_whole_molecule() -> None:
    """The locality the decomposition rests on, at 30 atoms (losartan), on random coalitions."""
    molecule = listed("losartan")
    model, _ = load_gnn("cpu")
    fields = receptive_fields(molecule.n_atoms, molecule.bonds, model.layers)
    masks = np.random.default_rng(0).random((16, molecule.n_atoms)) < 0.5
    x = torch.tensor(np.where(masks[:, :, None], molecule.features[None].astype(np.float64), 0.0))
    adjacency = molecule.adjacency()
    full = model.atom_readouts(x, torch.tensor(adjacency, dtype=torch.float64)).numpy()
    for atom, field in enumerate(fields):
        sub = list(field)
        local = model.atom_readouts(x[:, sub], torch.tensor(adjacency[np.ix_(sub, sub)], dtype=torch.float64))
        np.testing.assert_allclose(local[:, sub.index(atom)].numpy(), full[:, atom], atol=1e-12)


def test_a_one_hop_field_is_too_small_and_brute_force_notices() -> None:
    """With fields of 1 hop the decomposition is wrong for the 2-layer GNN: the check can fail."""
    molecule = listed("paracetamol")
    model, metadata = load_gnn("cpu")
    truth, _ = exact_game_indices(build_game(molecule, "gnn", "baseline"))

    class OneHop(torch.nn.Module):
        layers = 1

        def atom_readouts(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
            return model.atom_readouts(x, adj)

    wrong = receptive_field_indices(molecule, "baseline", model=OneHop(),  # type: ignore[arg-type]
                                    mean_features=np.asarray(metadata.mean_features)).indices
    assert np.abs(wrong.sii - truth.sii).max() > 1e-3


def test_sixty_atoms_are_exact_in_seconds() -> None:
    reference = receptive_field_indices(listed("vincristine"), "baseline")
    assert reference.largest_field <= 13 and 0 < reference.coalitions < reference.model_rows
    assert np.isfinite(reference.indices.sii).all()


def test_fields_too_large_for_a_job_give_no_reference_instead_of_a_long_run() -> None:
    from models.shapley_graph.molecules import parse_molecule
    from models.shapley_graph.reference import exact_reference

    crowded = parse_molecule("CC(C)(C)C(C(C)(C)C)(C(C)(C)C)C(C)(C)C")  # 17 atoms, the centre sees all of them
    with pytest.raises(ValueError, match="too large"):
        receptive_field_indices(crowded, "baseline")
    assert exact_reference(crowded, "gnn", "baseline") is None
