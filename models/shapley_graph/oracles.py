"""The masked games v(S): the GNN with atoms outside S set to a baseline, and two closed-form oracles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
import torch

from models.shapley_graph.gnn import load_gnn
from models.shapley_graph.molecules import ATOM_FEATURES, Molecule

__all__ = [
    "BASELINES",
    "PAULING",
    "CoalitionGame",
    "bond_pair_terms",
    "build_game",
    "masked_features",
]

BaselineName = Literal["zeros", "mean", "carbon"]
OracleName = Literal["gnn", "additive", "bond_pair"]
BASELINES: dict[str, str] = {
    "zeros": "every feature of a masked atom set to 0 (an 'unknown' atom)",
    "mean": "the average atom of the training molecules",
    "carbon": "a generic aliphatic CH2 carbon (degree 2, not in a ring)",
}
PAULING = {"C": 2.55, "N": 3.04, "O": 3.44, "F": 3.98, "P": 2.19, "S": 2.58, "Cl": 3.16, "Br": 2.96, "I": 2.66}


class CoalitionGame:
    """v(S) for boolean coalition masks of shape (n,) or (B, n); counts every coalition it is asked.

    A 1-D mask returns an array of shape (1,), as shapiq's approximators expect (`game(mask)[0]`).
    """

    def __init__(self, n_players: int, values: Callable[[np.ndarray], np.ndarray]) -> None:
        self.n_players = n_players
        self._values = values
        self.queries = 0

    def __call__(self, coalitions: np.ndarray) -> np.ndarray:
        masks = np.asarray(coalitions, dtype=bool)
        if masks.ndim == 1:
            masks = masks[None, :]
        if masks.ndim != 2 or masks.shape[1] != self.n_players:
            raise ValueError(f"coalitions must have {self.n_players} columns, got shape {masks.shape}")
        self.queries += masks.shape[0]
        return np.asarray(self._values(masks), dtype=np.float64).reshape(-1)


def baseline_vector(name: BaselineName) -> np.ndarray:
    """The feature vector a masked atom gets."""
    if name == "zeros":
        return np.zeros(len(ATOM_FEATURES))
    if name == "mean":
        return np.asarray(load_gnn("cpu")[1].mean_features, dtype=np.float64)
    vector = np.zeros(len(ATOM_FEATURES))
    for feature in ("element=C", "degree=2", "hydrogens=2"):
        vector[ATOM_FEATURES.index(feature)] = 1.0
    return vector


def masked_features(molecule: Molecule, masks: np.ndarray, baseline: np.ndarray) -> np.ndarray:
    """Features (B, n, F): atom i keeps its own features when masks[b, i], else gets the baseline."""
    own = molecule.features.astype(np.float64)[None, :, :]
    return np.where(masks[:, :, None], own, baseline[None, None, :])


def bond_pair_terms(molecule: Molecule) -> np.ndarray:
    """Synthetic pair terms on bonds: w_ij = 0.2 * bond order - 0.5 * |electronegativity difference|.

    The bond-pair oracle v(S) = sum_{i in S} c_i + sum_{bonds ij in S} w_ij has phi_i = c_i +
    sum_j w_ij / 2 and SII_ij = w_ij on bonds, 0 elsewhere: a closed-form check of the estimator.
    """
    terms = np.zeros(len(molecule.bonds))
    for k, ((u, v), order) in enumerate(zip(molecule.bonds, molecule.bond_orders, strict=True)):
        en_u = PAULING.get(molecule.elements[u], 2.5)
        en_v = PAULING.get(molecule.elements[v], 2.5)
        terms[k] = 0.2 * order - 0.5 * abs(en_u - en_v)
    return terms


def _gnn_values(molecule: Molecule, baseline: np.ndarray, device: str) -> Callable[[np.ndarray], np.ndarray]:
    model, _ = load_gnn(device)
    adjacency = torch.tensor(molecule.adjacency(), dtype=torch.float64, device=device)
    chunk = max(256, 2**20 // max(molecule.n_atoms, 1) // 8)

    def values(masks: np.ndarray) -> np.ndarray:
        out = np.empty(masks.shape[0])
        with torch.no_grad():
            for start in range(0, masks.shape[0], chunk):
                x = masked_features(molecule, masks[start : start + chunk], baseline)
                xt = torch.tensor(x, dtype=torch.float64, device=device)
                out[start : start + chunk] = model(xt, adjacency).cpu().numpy()
        return out

    return values


def build_game(molecule: Molecule, oracle: OracleName, baseline: BaselineName, device: str = "cpu") -> CoalitionGame:
    """The game whose players are the molecule's heavy atoms.

    gnn: v(S) = f(x_S), the trained GNN with atoms outside S given the baseline features and all bonds
    kept; additive: v(S) = sum_{i in S} c_i with c the Crippen atom contributions (phi = c, SII = 0);
    bond_pair: additive plus w_ij for each bond with both ends in S.
    """
    n = molecule.n_atoms
    if oracle == "gnn":
        return CoalitionGame(n, _gnn_values(molecule, baseline_vector(baseline), device))
    contributions = molecule.crippen.astype(np.float64)
    if oracle == "additive":
        return CoalitionGame(n, lambda masks: masks.astype(np.float64) @ contributions)
    ends = np.array(molecule.bonds, dtype=np.int64).reshape(-1, 2)
    terms = bond_pair_terms(molecule)

    def bond_pair(masks: np.ndarray) -> np.ndarray:
        both = masks[:, ends[:, 0]] & masks[:, ends[:, 1]]
        return masks.astype(np.float64) @ contributions + both.astype(np.float64) @ terms

    return CoalitionGame(n, bond_pair)
