"""Named example inputs for the page: shipped molecules, both predictors, the maskings and the oracles."""

from __future__ import annotations

from typing import Any

__all__ = ["examples"]

LOSARTAN = "CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1"


def examples() -> dict[str, dict[str, Any]]:
    """Label -> params dict; the label says what it shows and roughly how long it takes on one core."""
    return {
        "Paracetamol, local GNN (11 atoms, brute-force reference, ~10 s)": {
            "smiles": "CC(=O)Nc1ccc(O)cc1", "predictor": "gnn", "masking": "baseline",
            "budget": 300, "bond_dim": 4},
        "Caffeine, node deletion, 3-fit ensemble (14 atoms, ~20 s)": {
            "smiles": "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "predictor": "gnn", "masking": "delete",
            "budget": 500, "bond_dim": 3, "ensemble": 3},
        "Aspirin, global-readout GNN vs KernelSHAP (13 atoms, ~15 s)": {
            "smiles": "CC(=O)Oc1ccccc1C(=O)O", "predictor": "gnn_global", "masking": "baseline",
            "budget": 500, "bond_dim": 3},
        "Ibuprofen, motif oracle: ring and three-atom terms (15 atoms, ~10 s)": {
            "smiles": "CC(C)Cc1ccc(C(C)C(=O)O)cc1", "predictor": "motif", "budget": 600,
            "bond_dim": 4, "error_curve": False},
        "Phenol, additive Crippen oracle (phi = atom contributions, ~5 s)": {
            "smiles": "Oc1ccccc1", "predictor": "additive", "budget": 300, "bond_dim": 4},
        "Losartan, local GNN, 1,000 queries (30 atoms, receptive-field reference, ~15 s)": {
            "smiles": LOSARTAN, "predictor": "gnn", "budget": 1000, "bond_dim": 4,
            "compare_baselines": True, "error_curve": False},
    }
