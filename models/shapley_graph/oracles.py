"""The masked games v(S): a trained predictor under a masking choice, or a closed-form validation game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
import torch

from models.shapley_graph.gnn import load_predictor
from models.shapley_graph.masking import MaskingName, masked_inputs
from models.shapley_graph.mobius import MobiusGame, additive_game, bond_pair_game, motif_game
from models.shapley_graph.molecules import Molecule

__all__ = ["PREDICTORS", "CoalitionGame", "PredictorName", "build_game", "mobius_oracle"]

PredictorName = Literal["gnn", "gnn_global", "additive", "bond_pair", "motif"]
PREDICTORS: dict[str, str] = {
    "gnn": "trained logP GNN, sum pooling and a linear head (local: exact values from receptive fields)",
    "gnn_global": "trained logP GNN with a global MLP readout (no receptive-field shortcut)",
    "additive": "additive Crippen game: phi = atom contributions, no interactions",
    "bond_pair": "atom terms plus bond terms: SII = bond term",
    "motif": "atom, bond, three-atom and whole-ring terms: higher-order interactions with closed-form indices",
}


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


def _predictor_values(
    molecule: Molecule, predictor: Literal["gnn", "gnn_global"], masking: MaskingName, device: str
) -> Callable[[np.ndarray], np.ndarray]:
    model, metadata = load_predictor(predictor, device)
    mean = np.asarray(metadata.mean_features)
    chunk = max(64, 2**19 // max(molecule.n_atoms, 1) ** (2 if masking == "delete" else 1) // 4)

    def values(masks: np.ndarray) -> np.ndarray:
        out = np.empty(masks.shape[0])
        with torch.no_grad():
            for start in range(0, masks.shape[0], chunk):
                batch = masked_inputs(molecule, masks[start : start + chunk], masking, mean)
                x = torch.tensor(batch.features, dtype=torch.float64, device=device)
                adj = torch.tensor(batch.adjacency, dtype=torch.float64, device=device)
                kept = None if batch.atom_mask is None else torch.tensor(batch.atom_mask, dtype=torch.float64,
                                                                         device=device)
                out[start : start + chunk] = model(x, adj, kept).cpu().numpy()
        return out

    return values


def mobius_oracle(molecule: Molecule, predictor: str) -> MobiusGame | None:
    """The validation game as a sum of unanimity terms (closed-form indices), or None for a trained GNN."""
    if predictor == "additive":
        return additive_game(molecule)
    if predictor == "bond_pair":
        return bond_pair_game(molecule)
    if predictor == "motif":
        return motif_game(molecule)
    return None


def build_game(
    molecule: Molecule, predictor: PredictorName, masking: MaskingName = "baseline", device: str = "cpu"
) -> CoalitionGame:
    """The game whose players are the molecule's heavy atoms.

    gnn / gnn_global: v(S) = f(input with the atoms outside S masked as `masking` says); the
    validation games (additive, bond_pair, motif) ignore the masking: they are defined on coalitions.
    """
    oracle = mobius_oracle(molecule, predictor)
    if oracle is not None:
        return CoalitionGame(molecule.n_atoms, oracle.values)
    assert predictor in ("gnn", "gnn_global")
    return CoalitionGame(molecule.n_atoms, _predictor_values(molecule, predictor, masking, device))
