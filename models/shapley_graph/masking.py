"""What "atom i is absent" means: three masking choices, each turning a coalition into the GNN's input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from models.shapley_graph.molecules import ATOM_FEATURES, Molecule

__all__ = ["MASKING_MEANING", "MaskedInputs", "MaskingName", "masked_arrays", "masked_inputs"]

MaskingName = Literal["baseline", "delete", "mean"]
MASKING_MEANING: dict[str, str] = {
    "baseline": (
        "Feature baseline: a masked atom keeps its node, its bonds and its place in the pooled sum, only its "
        "features become all zeros, so phi_i is the effect of blanking atom i's chemistry on a fixed skeleton "
        "(v(empty) is the prediction for a blank skeleton, an input the GNN never saw)."
    ),
    "delete": (
        "Node deletion: masked atoms and their bonds are removed and the GNN reads the induced subgraph, so "
        "phi_i is the average effect of deleting atom i (with its hydrogens) from the molecule, and v(empty) is "
        "the empty molecule's prediction."
    ),
    "mean": (
        "Mean-feature baseline: a masked atom keeps its node and bonds but gets the average atom of the "
        "training molecules, so phi_i is the effect of atom i being itself rather than a typical atom."
    ),
}


@dataclass
class MaskedInputs:
    """A batch of GNN inputs: features (B, n, F), adjacency (n, n) or (B, n, n), pooled-atom mask (B, n) or None."""

    features: np.ndarray
    adjacency: np.ndarray
    atom_mask: np.ndarray | None


def masked_arrays(
    features: np.ndarray, adjacency: np.ndarray, masks: np.ndarray, masking: MaskingName, mean_features: np.ndarray
) -> MaskedInputs:
    """The GNN's inputs for boolean coalitions `masks` (B, n) of a graph (features (n, F), adjacency (n, n))."""
    own = features.astype(np.float64)[None, :, :]
    adjacency = adjacency.astype(np.float64)
    if masking == "delete":
        kept = masks.astype(np.float64)
        return MaskedInputs(np.broadcast_to(own, (masks.shape[0], *own.shape[1:])),
                            adjacency[None] * kept[:, :, None] * kept[:, None, :], kept)
    baseline = np.zeros(len(ATOM_FEATURES)) if masking == "baseline" else np.asarray(mean_features, np.float64)
    return MaskedInputs(np.where(masks[:, :, None], own, baseline[None, None, :]), adjacency, None)


def masked_inputs(
    molecule: Molecule, masks: np.ndarray, masking: MaskingName, mean_features: np.ndarray
) -> MaskedInputs:
    """The GNN's inputs for boolean coalitions `masks` (B, n) of `molecule` under one masking choice."""
    return masked_arrays(molecule.features, molecule.adjacency(), masks, masking, mean_features)
