"""The exact reference of a run: brute force (n <= 16), receptive fields (local GNN) or closed form (oracles)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from models.shapley_graph.baselines import EXACT_MAX_ATOMS, exact_game_indices
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.masking import MaskingName
from models.shapley_graph.molecules import Molecule
from models.shapley_graph.oracles import PredictorName, build_game, mobius_oracle
from models.shapley_graph.receptive_field import receptive_field_indices

__all__ = ["Reference", "ReferenceMethod", "exact_reference"]

ReferenceMethod = Literal["brute_force", "receptive_field", "closed_form"]


@dataclass
class Reference:
    """Exact indices, how they were obtained, how many coalitions that needed, and the time it took."""

    indices: GameIndices
    method: ReferenceMethod
    coalitions: int
    seconds: float


def exact_reference(
    molecule: Molecule,
    predictor: PredictorName,
    masking: MaskingName,
    *,
    device: str = "cpu",
    progress: Callable[[float], None] | None = None,
) -> Reference | None:
    """Brute force over 2^n coalitions up to 16 atoms; beyond, the receptive-field decomposition for the
    local GNN and the closed form for the validation games; None for the global-readout GNN."""
    start = time.perf_counter()
    n = molecule.n_atoms
    if n <= EXACT_MAX_ATOMS:
        game = build_game(molecule, predictor, masking, device=device)
        truth, _ = exact_game_indices(game)
        return Reference(truth, "brute_force", game.queries, time.perf_counter() - start)
    oracle = mobius_oracle(molecule, predictor)
    if oracle is not None:
        return Reference(oracle.indices(), "closed_form", 0, time.perf_counter() - start)
    if predictor == "gnn":
        try:
            field = receptive_field_indices(molecule, masking, device=device, progress=progress)
        except ValueError:  # fields too large for an exact computation within the job's limits
            return None
        return Reference(field.indices, "receptive_field", field.coalitions, time.perf_counter() - start)
    return None
