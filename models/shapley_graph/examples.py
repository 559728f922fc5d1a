"""Named example inputs for the page: molecules from static/molecules and the three oracles."""

from __future__ import annotations

from typing import Any

__all__ = ["examples"]


def examples() -> dict[str, dict[str, Any]]:
    """Label -> params dict, each a fast first run."""
    return {
        "Paracetamol, trained GNN (11 atoms, exact comparison)": {
            "smiles": "CC(=O)Nc1ccc(O)cc1", "name": "paracetamol", "oracle": "gnn", "budget": 300, "bond_dim": 4},
        "Caffeine, GNN, 500 queries (14 atoms)": {
            "smiles": "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "name": "caffeine", "oracle": "gnn", "budget": 500, "bond_dim": 3},
        "Phenol, additive Crippen oracle (phi = atom contributions)": {
            "smiles": "c1ccccc1O", "name": "phenol", "oracle": "additive", "budget": 300, "bond_dim": 4},
        "Aspirin, bond-pair oracle (SII = bond terms)": {
            "smiles": "CC(=O)Oc1ccccc1C(=O)O", "name": "aspirin", "oracle": "bond_pair", "budget": 400, "bond_dim": 3},
        "Losartan, GNN (30 atoms, no exact values)": {
            "smiles": "CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1", "name": "losartan", "oracle": "gnn",
            "budget": 600, "bond_dim": 3, "compare_baselines": False},
    }
