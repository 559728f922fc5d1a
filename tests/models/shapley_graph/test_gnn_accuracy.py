"""TN-SHAP-G on the trained GNN against exact brute force and KernelSHAP at the same budget."""

from __future__ import annotations

import pytest

from models.shapley_graph.baselines import exact_game_indices, shapiq_estimates
from models.shapley_graph.estimator import tn_shap_g
from models.shapley_graph.gnn import load_gnn
from models.shapley_graph.molecules import parse_molecule
from models.shapley_graph.oracles import build_game
from models.shapley_graph.run import relative_l2
from models.shapley_graph.tensor_network import NetworkLayout


def test_shipped_gnn_predicts_logp_on_held_out_molecules() -> None:
    _, metadata = load_gnn("cpu")
    assert metadata.test_r2 > 0.9
    assert metadata.n_test >= 30


def test_shipped_global_readout_gnn_predicts_logp_too() -> None:
    from models.shapley_graph.gnn import GlobalReadoutGNN, load_predictor

    model, metadata = load_predictor("gnn_global", "cpu")
    assert isinstance(model, GlobalReadoutGNN)
    assert metadata.test_r2 > 0.9 and metadata.n_test >= 30


@pytest.mark.parametrize(
    "smiles",
    ["Cn1cnc2c1c(=O)n(C)c(=O)n2C", "CC(=O)Oc1ccccc1C(=O)O"],  # caffeine (14 atoms), aspirin (13)
)
def test_tn_shap_g_beats_kernelshap_under_5_percent_with_500_queries(smiles: str) -> None:
    molecule = parse_molecule(smiles)
    assert molecule.n_atoms <= 14
    truth, _ = exact_game_indices(build_game(molecule, "gnn", "baseline"))
    game = build_game(molecule, "gnn", "baseline")
    est = tn_shap_g(game, NetworkLayout(molecule.n_atoms, molecule.bonds), 500, 3, seed=0)
    assert game.queries <= 500
    tn_error = relative_l2(est.indices.shapley, truth.shapley)
    kernel = shapiq_estimates(build_game(molecule, "gnn", "baseline"), 500, seed=0, pairs=False)[0]
    assert kernel.name == "KernelSHAP" and kernel.queries <= 500
    kernel_error = relative_l2(kernel.shapley, truth.shapley)
    assert tn_error < 0.05
    assert tn_error < kernel_error
