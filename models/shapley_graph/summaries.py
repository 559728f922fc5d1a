"""Per-atom and per-pair rows of a result, and the exact phi under each masking (the masking comparison)."""

from __future__ import annotations

import numpy as np

from models.common import Progress
from models.shapley_graph.baselines import EXACT_MAX_ATOMS, exact_game_indices
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.masking import MASKING_MEANING, MaskingName
from models.shapley_graph.molecules import Molecule
from models.shapley_graph.oracles import build_game
from models.shapley_graph.params import Params
from models.shapley_graph.receptive_field import receptive_field_indices
from models.shapley_graph.reference import Reference
from models.shapley_graph.result import AtomValue, MaskingRow, PairValue

__all__ = ["atom_rows", "correlation", "masking_comparison", "pair_rows"]


def atom_rows(indices: GameIndices, elements: tuple[str, ...], spread: GameIndices | None = None) -> list[AtomValue]:
    return [
        AtomValue(index=i, element=e, shapley=float(indices.shapley[i]), banzhaf=float(indices.banzhaf[i]),
                  stii=float(indices.stii_single[i]),
                  shapley_std=float(spread.shapley[i]) if spread is not None else None)
        for i, e in enumerate(elements)
    ]


def pair_rows(indices: GameIndices, bonded: set[tuple[int, int]], spread: GameIndices | None = None) -> list[PairValue]:
    n = len(indices.shapley)
    return [
        PairValue(i=i, j=j, sii=float(indices.sii[i, j]), stii=float(indices.stii[i, j]),
                  banzhaf=float(indices.banzhaf_pair[i, j]), bonded=(i, j) in bonded,
                  sii_std=float(spread.sii[i, j]) if spread is not None else None)
        for i in range(n) for j in range(i + 1, n)
    ]


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    if np.std(a) < 1e-12 or np.std(b) < 1e-12:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def masking_comparison(molecule: Molecule, params: Params, reference: Reference | None, device: str,
                        progress: Progress) -> list[MaskingRow]:
    """Exact phi under each masking choice and its correlation with the Crippen atom contributions."""
    if params.predictor not in ("gnn", "gnn_global"):
        return []
    if params.predictor == "gnn_global" and molecule.n_atoms > EXACT_MAX_ATOMS:
        return []
    rows = []
    choices: tuple[MaskingName, ...] = ("baseline", "delete", "mean")
    for k, masking in enumerate(choices):
        progress(k / 3, f"Exact Shapley values with masking '{masking}'")
        empty = float(build_game(molecule, params.predictor, masking, device)(np.zeros(molecule.n_atoms, bool))[0])
        if masking == params.masking and reference is not None:
            phi, how = reference.indices.shapley, reference.method
        elif molecule.n_atoms <= EXACT_MAX_ATOMS:
            phi, how = exact_game_indices(build_game(molecule, params.predictor, masking, device))[0].shapley, "brute_force"
        else:
            try:
                phi, how = receptive_field_indices(molecule, masking, device=device).indices.shapley, "receptive_field"
            except ValueError:
                continue
        rows.append(MaskingRow(masking=masking, meaning=MASKING_MEANING[masking],
                               crippen_correlation=correlation(phi, molecule.crippen), value_empty=empty,
                               reference=how))
    return rows
