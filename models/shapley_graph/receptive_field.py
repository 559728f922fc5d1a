"""Exact indices of a local GNN from its receptive fields (the GraphSHAP-IQ idea, Muschalik et al.)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from models.shapley_graph.exact import all_coalitions
from models.shapley_graph.gnn import MolecularGNN, load_gnn
from models.shapley_graph.indices import GameIndices
from models.shapley_graph.masking import MaskingName, masked_arrays
from models.shapley_graph.molecules import Molecule

__all__ = [
    "MAX_FIELD_ATOMS",
    "MAX_FIELD_ROWS",
    "ReceptiveFieldReference",
    "indices_from_mobius",
    "mobius_transform",
    "receptive_fields",
    "receptive_field_indices",
]

MAX_FIELD_ATOMS = 16  # 2^16 local coalitions for one atom
MAX_FIELD_ROWS = 2**19  # all atoms together: at most about 20 s of GNN evaluations on one core


def receptive_fields(n: int, bonds: tuple[tuple[int, int], ...], hops: int) -> list[tuple[int, ...]]:
    """For each atom, the sorted atoms within `hops` bonds of it (itself included)."""
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for u, v in bonds:
        neighbours[u].add(v)
        neighbours[v].add(u)
    fields = []
    for atom in range(n):
        reached = {atom}
        frontier = {atom}
        for _ in range(hops):
            frontier = set().union(*(neighbours[a] for a in frontier)) - reached
            reached |= frontier
        fields.append(tuple(sorted(reached)))
    return fields


def mobius_transform(values: np.ndarray, k: int) -> np.ndarray:
    """Moebius (Harsanyi) coefficients m(T) = sum_{U subset T} (-1)^{|T|-|U|} v(U), bit-coded as `all_coalitions`."""
    m = np.array(values, dtype=np.float64).reshape((2,) * k)  # axis j of the reshape is bit k-1-j
    for axis in range(k):
        lower = np.take(m, 0, axis=axis)
        upper = np.take(m, 1, axis=axis)
        m = np.stack([lower, upper - lower], axis=axis)
    return m.reshape(-1)


def indices_from_mobius(m: np.ndarray, k: int) -> GameIndices:
    """Shapley, Banzhaf, SII, STII and Banzhaf interactions from the Moebius coefficients (shares per term)."""
    members = all_coalitions(k).astype(np.float64)  # (2^k, k)
    size = members.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_player = np.where(size > 0, m / np.maximum(size, 1), 0.0)
        banzhaf_share = np.where(size > 0, m / 2.0 ** np.maximum(size - 1, 0), 0.0)
        sii_share = np.where(size > 1, m / np.maximum(size - 1, 1), 0.0)
        stii_share = np.where(size > 1, m / np.maximum(size * (size - 1) / 2, 1), 0.0)
        bpair_share = np.where(size > 1, m / 2.0 ** np.maximum(size - 2, 0), 0.0)
    diag = ~np.eye(k, dtype=bool)
    singles = m[1 << np.arange(k)]
    return GameIndices(
        shapley=members.T @ per_player,
        banzhaf=members.T @ banzhaf_share,
        sii=(members.T * sii_share) @ members * diag,
        stii=(members.T * stii_share) @ members * diag,
        banzhaf_pair=(members.T * bpair_share) @ members * diag,
        stii_single=singles,
    )


@dataclass
class ReceptiveFieldReference:
    """Exact indices of the local GNN's masked game, how many distinct coalitions they need, and the field sizes."""

    indices: GameIndices
    coalitions: int
    model_rows: int
    largest_field: int


def distinct_coalitions(n: int, fields: list[tuple[int, ...]]) -> int:
    """How many distinct coalitions of the whole molecule the subsets of all receptive fields are."""
    codes = []
    for field in fields:
        bits = np.array([1 << a for a in field], dtype=np.uint64)
        local = all_coalitions(len(field)).astype(np.uint64)
        codes.append(local @ bits if len(field) else np.zeros(1, np.uint64))
    return int(len(np.unique(np.concatenate(codes))))


def field_rows(molecule: Molecule, hops: int = 2) -> int:
    """Model rows an exact receptive-field computation evaluates (the sum of 2^|field|)."""
    return int(sum(2 ** len(f) for f in receptive_fields(molecule.n_atoms, molecule.bonds, hops)))


def receptive_field_indices(
    molecule: Molecule,
    masking: MaskingName,
    *,
    device: str = "cpu",
    model: MolecularGNN | None = None,
    mean_features: np.ndarray | None = None,
    progress: Callable[[float], None] | None = None,
) -> ReceptiveFieldReference:
    """Exact indices of v(S) = f(x masked outside S) for the sum-pooled GNN f = b + sum_i w . h_i.

    h_i depends only on the atoms within L hops (L layers), and masking an atom (features replaced,
    or node and bonds deleted) changes nothing farther than L hops from it either. So
    v(S) = b + sum_i u_i(S ∩ N_i) with u_i the readout of atom i computed on its field N_i alone
    (times [i in S] under deletion). Every index used here is linear in the game and ignores null
    players, so the indices of v are the sums of those of the u_i, each computed exactly from its
    2^|N_i| values via the Moebius transform. This is the idea of GraphSHAP-IQ (Muschalik et al.,
    "Exact computation of any-order Shapley interactions for graph neural networks", ICLR 2025).
    """
    if model is None or mean_features is None:
        loaded, metadata = load_gnn(device)
        model = model or loaded
        mean_features = np.asarray(metadata.mean_features) if mean_features is None else mean_features
    n = molecule.n_atoms
    fields = receptive_fields(n, molecule.bonds, model.layers)
    largest = max(len(f) for f in fields)
    rows = sum(2 ** len(f) for f in fields)
    if largest > MAX_FIELD_ATOMS or rows > MAX_FIELD_ROWS:
        raise ValueError(f"receptive fields too large for an exact computation ({largest} atoms, {rows} rows)")
    adjacency = molecule.adjacency()
    total = GameIndices(*(np.zeros(n) if k in (0, 1, 5) else np.zeros((n, n)) for k in range(6)))
    for count, (atom, field) in enumerate(zip(range(n), fields, strict=True)):
        k = len(field)
        local = all_coalitions(k)
        sub = list(field)
        inputs = masked_arrays(molecule.features[sub], adjacency[np.ix_(sub, sub)], local, masking, mean_features)
        centre = sub.index(atom)
        with torch.no_grad():
            x = torch.tensor(inputs.features, dtype=torch.float64, device=device)
            adj = torch.tensor(inputs.adjacency, dtype=torch.float64, device=device)
            readout = model.atom_readouts(x, adj)[:, centre].cpu().numpy()
        if inputs.atom_mask is not None:
            readout = readout * inputs.atom_mask[:, centre]
        local_indices = indices_from_mobius(mobius_transform(readout, k), k)
        block = np.ix_(sub, sub)
        total.shapley[sub] += local_indices.shapley
        total.banzhaf[sub] += local_indices.banzhaf
        total.stii_single[sub] += local_indices.stii_single
        total.sii[block] += local_indices.sii
        total.stii[block] += local_indices.stii
        total.banzhaf_pair[block] += local_indices.banzhaf_pair
        if progress is not None:
            progress((count + 1) / n)
    return ReceptiveFieldReference(total, distinct_coalitions(n, fields), rows, largest)
