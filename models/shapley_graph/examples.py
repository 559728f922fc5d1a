"""Named example inputs for the page: shipped molecules, both predictors, the maskings and the oracles."""

from __future__ import annotations

from typing import Any

__all__ = ["examples"]

LOSARTAN = "CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1"
VINCRISTINE = ("CCC1(CC2CC(C3=C(CCN(C2)C1)C4=CC=CC=C4N3)(C5=C(C=C6C(=C5)C78CCN9C7C(C=CC9)(C(C(C8N6C=O)(C(=O)OC)O)"
               "OC(=O)C)CC)OC)C(=O)OC)O")


def examples() -> dict[str, dict[str, Any]]:
    """Label -> params dict; the label says what it shows and roughly how long it takes on one core."""
    return {
        "Reproduce the paper: vincristine, 60 atoms, 3,000 queries, 3-fit ensemble (3 seeds, ~2 min)": {
            "smiles": VINCRISTINE, "name": "vincristine", "predictor": "gnn", "masking": "baseline",
            "budget": 3000, "bond_dim": 4, "ensemble": 3, "seeds": 3, "error_curve": False},
        "Vincristine, SII error against queries up to 3,000 (60 atoms, 1 seed, one fit, ~70 s)": {
            "smiles": VINCRISTINE, "name": "vincristine", "predictor": "gnn", "masking": "baseline",
            "budget": 3000, "bond_dim": 4, "seeds": 1, "error_curve": True},
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
