"""Closed-form oracles: additive Crippen game and bond-pair game recovered by TN-SHAP-G."""

from __future__ import annotations

import numpy as np
import pytest
from rdkit import Chem
from rdkit.Chem import Crippen

from models.shapley_graph.estimator import tn_shap_g
from models.shapley_graph.molecules import parse_molecule
from models.shapley_graph.oracles import bond_pair_terms, build_game
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
    game = build_game(molecule, "additive", "zeros")
    est = tn_shap_g(game, NetworkLayout(molecule.n_atoms, molecule.bonds), 300, 3, seed=0)
    np.testing.assert_allclose(est.indices.shapley, molecule.crippen, atol=1e-6)
    np.testing.assert_allclose(est.indices.banzhaf, molecule.crippen, atol=1e-6)
    assert np.abs(est.indices.sii).max() < 1e-6
    assert np.abs(est.indices.stii).max() < 1e-6


@pytest.mark.parametrize("name", list(MOLECULES))
@pytest.mark.parametrize("chi", [3, 4])
def test_bond_pair_oracle_sii_equals_bond_terms(name: str, chi: int) -> None:
    molecule = parse_molecule(MOLECULES[name])
    game = build_game(molecule, "bond_pair", "zeros")
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
    truth, _ = exact_game_indices(build_game(molecule, "bond_pair", "zeros"))
    phi, sii = closed_form_indices(molecule, "bond_pair")
    np.testing.assert_allclose(truth.shapley, phi, atol=1e-10)
    np.testing.assert_allclose(truth.sii, sii, atol=1e-10)


def test_games_accept_a_single_mask_and_a_batch() -> None:
    molecule = parse_molecule(MOLECULES["phenol"])
    for oracle in ("gnn", "additive", "bond_pair"):
        game = build_game(molecule, oracle, "mean")
        one = game(np.ones(molecule.n_atoms, dtype=bool))
        batch = game(np.array([np.zeros(7, dtype=bool), np.ones(7, dtype=bool)]))
        assert one.shape == (1,) and batch.shape == (2,)
        assert one[0] == pytest.approx(batch[1])
        assert game.queries == 3


def test_gnn_masked_game_keeps_bonds_and_uses_the_baseline() -> None:
    molecule = parse_molecule(MOLECULES["aspirin"])
    values = {b: build_game(molecule, "gnn", b)(np.zeros((1, molecule.n_atoms), dtype=bool))[0] for b in ("zeros", "mean", "carbon")}
    full = build_game(molecule, "gnn", "zeros")(np.ones((1, molecule.n_atoms), dtype=bool))[0]
    assert len(set(np.round(list(values.values()), 8))) == 3  # the baseline changes v(empty)
    assert full == pytest.approx(Crippen.MolLogP(Chem.MolFromSmiles(MOLECULES["aspirin"])), abs=1.0)
