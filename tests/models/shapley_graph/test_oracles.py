"""Closed-form oracles: additive Crippen game and bond-pair game recovered by TN-SHAP-G."""

from __future__ import annotations

import numpy as np
import pytest
from rdkit import Chem
from rdkit.Chem import Crippen

from models.shapley_graph.estimator import tn_shap_g
from models.shapley_graph.mobius import bond_pair_terms
from models.shapley_graph.molecules import parse_molecule
from models.shapley_graph.oracles import build_game
from models.shapley_graph.run import closed_form_indices
from models.shapley_graph.tensor_network import NetworkLayout

MOLECULES = {
    "phenol": "c1ccccc1O",
    "aspirin": "CC(=O)Oc1ccccc1C(=O)O",
    "caffeine": "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
    "testosterone": "CC12CCC3C(CCC4=CC(=O)CCC34C)C1CCC2O",
}


@pytest.mark.parametrize("smiles", MOLECULES.values())
def test_crippen_atom_contributions_sum_to_mollogp(smiles: str) -> None:
    molecule = parse_molecule(smiles)
    assert molecule.crippen.sum() == pytest.approx(Crippen.MolLogP(Chem.MolFromSmiles(smiles)), abs=1e-9)


@pytest.mark.parametrize("name", list(MOLECULES))
def test_additive_oracle_gives_atom_contributions_and_no_interactions(name: str) -> None:
    molecule = parse_molecule(MOLECULES[name])
    game = build_game(molecule, "additive")
    est = tn_shap_g(game, NetworkLayout(molecule.n_atoms, molecule.bonds), 300, 3, seed=0)
    np.testing.assert_allclose(est.indices.shapley, molecule.crippen, atol=1e-6)
    np.testing.assert_allclose(est.indices.banzhaf, molecule.crippen, atol=1e-6)
    assert np.abs(est.indices.sii).max() < 1e-6
    assert np.abs(est.indices.stii).max() < 1e-6


@pytest.mark.parametrize("name", list(MOLECULES))
@pytest.mark.parametrize("chi", [3, 4])
def test_bond_pair_oracle_sii_equals_bond_terms(name: str, chi: int) -> None:
    molecule = parse_molecule(MOLECULES[name])
    game = build_game(molecule, "bond_pair")
    est = tn_shap_g(game, NetworkLayout(molecule.n_atoms, molecule.bonds), 400, chi, seed=1)
    phi, sii = closed_form_indices(molecule, "bond_pair")
    terms = bond_pair_terms(molecule)
    for (u, v), w in zip(molecule.bonds, terms, strict=True):
        assert est.indices.sii[u, v] == pytest.approx(w, abs=1e-6)
    np.testing.assert_allclose(est.indices.sii, sii, atol=1e-6)
    np.testing.assert_allclose(est.indices.shapley, phi, atol=1e-6)


def test_bond_pair_closed_form_matches_brute_force() -> None:
    from models.shapley_graph.baselines import exact_game_indices

    molecule = parse_molecule(MOLECULES["aspirin"])
    truth, _ = exact_game_indices(build_game(molecule, "bond_pair"))
    phi, sii = closed_form_indices(molecule, "bond_pair")
    np.testing.assert_allclose(truth.shapley, phi, atol=1e-10)
    np.testing.assert_allclose(truth.sii, sii, atol=1e-10)


def test_games_accept_a_single_mask_and_a_batch() -> None:
    molecule = parse_molecule(MOLECULES["phenol"])
    for predictor in ("gnn", "gnn_global", "additive", "bond_pair", "motif"):
        game = build_game(molecule, predictor, "mean")
        one = game(np.ones(molecule.n_atoms, dtype=bool))
        batch = game(np.array([np.zeros(7, dtype=bool), np.ones(7, dtype=bool)]))
        assert one.shape == (1,) and batch.shape == (2,)
        assert one[0] == pytest.approx(batch[1])
        assert game.queries == 3


def test_each_masking_gives_its_own_empty_coalition_and_the_same_full_molecule() -> None:
    molecule = parse_molecule(MOLECULES["aspirin"])
    empty = np.zeros((1, molecule.n_atoms), dtype=bool)
    full = np.ones((1, molecule.n_atoms), dtype=bool)
    values = {m: build_game(molecule, "gnn", m)(empty)[0] for m in ("baseline", "delete", "mean")}
    assert len(set(np.round(list(values.values()), 8))) == 3  # the masking changes v(empty)
    fulls = {m: build_game(molecule, "gnn", m)(full)[0] for m in ("baseline", "delete", "mean")}
    assert max(fulls.values()) - min(fulls.values()) < 1e-12  # nothing is masked in the full molecule
    assert fulls["baseline"] == pytest.approx(Crippen.MolLogP(Chem.MolFromSmiles(MOLECULES["aspirin"])), abs=1.0)


def test_deleting_every_atom_leaves_only_the_bias() -> None:
    from models.shapley_graph.gnn import load_gnn

    molecule = parse_molecule(MOLECULES["caffeine"])
    empty = build_game(molecule, "gnn", "delete")(np.zeros(molecule.n_atoms, dtype=bool))[0]
    assert empty == pytest.approx(float(load_gnn("cpu")[0].bias), abs=1e-12)


def test_deletion_reads_the_induced_subgraph() -> None:
    """Deleting atoms equals running the GNN on the molecule built from the kept atoms only."""
    molecule = parse_molecule("OCc1ccccc1")  # benzyl alcohol; delete the O: the GNN sees toluene's graph
    kept = np.ones(molecule.n_atoms, dtype=bool)
    kept[0] = False
    deleted = build_game(molecule, "gnn", "delete")(kept)[0]
    import torch

    from models.shapley_graph.gnn import load_gnn

    model, _ = load_gnn("cpu")
    sub = np.flatnonzero(kept)
    x = torch.tensor(molecule.features[sub][None], dtype=torch.float64)
    adj = torch.tensor(molecule.adjacency()[np.ix_(sub, sub)], dtype=torch.float64)
    assert deleted == pytest.approx(float(model(x, adj)[0]), abs=1e-12)
