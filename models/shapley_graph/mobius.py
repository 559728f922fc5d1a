"""Validation games written as sums of unanimity games, whose indices are known in closed form."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.shapley_graph.indices import GameIndices
from models.shapley_graph.molecules import Molecule

__all__ = ["PAULING", "MobiusGame", "additive_game", "bond_pair_game", "bond_pair_terms", "motif_game"]

PAULING = {"C": 2.55, "N": 3.04, "O": 3.44, "F": 3.98, "P": 2.19, "S": 2.58, "Cl": 3.16, "Br": 2.96, "I": 2.66}
HETERO = {"N", "O", "S", "P", "F", "Cl", "Br", "I"}


@dataclass(frozen=True)
class MobiusGame:
    """v(S) = sum_T w_T [T subset of S]: the Moebius (Harsanyi) coefficients are the weights w_T.

    Every index used here is a fixed share of each coefficient (Grabisch & Roubens 1999; Sundararajan
    et al. 2020): phi_i = sum_{T ∋ i} w_T / |T|, SII_ij = sum_{T ⊇ ij} w_T / (|T| - 1),
    STII_ij = sum_{T ⊇ ij} w_T / C(|T|, 2), Banzhaf_i = sum w_T / 2^(|T|-1), Banzhaf_ij = sum w_T / 2^(|T|-2).
    """

    n_players: int
    terms: tuple[tuple[tuple[int, ...], float], ...]

    def values(self, masks: np.ndarray) -> np.ndarray:
        out = np.zeros(masks.shape[0])
        for players, weight in self.terms:
            out += weight * masks[:, list(players)].all(axis=1)
        return out

    def max_order(self) -> int:
        return max((len(p) for p, _ in self.terms), default=0)

    def indices(self) -> GameIndices:
        """Every index in closed form from the coefficients."""
        n = self.n_players
        shapley, banzhaf, singles = np.zeros(n), np.zeros(n), np.zeros(n)
        sii, stii, banzhaf_pair = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))
        for players, weight in self.terms:
            size = len(players)
            if size == 0:
                continue
            idx = list(players)
            shapley[idx] += weight / size
            banzhaf[idx] += weight / 2 ** (size - 1)
            if size == 1:
                singles[idx] += weight
                continue
            block = np.ix_(idx, idx)
            off = ~np.eye(size, dtype=bool)
            sii[block] += off * weight / (size - 1)
            stii[block] += off * weight / math.comb(size, 2)
            banzhaf_pair[block] += off * weight / 2 ** (size - 2)
        return GameIndices(shapley=shapley, banzhaf=banzhaf, sii=sii, stii=stii, banzhaf_pair=banzhaf_pair,
                           stii_single=singles)


def additive_game(molecule: Molecule) -> MobiusGame:
    """v(S) = sum_{i in S} c_i, c = Crippen atom contributions: phi = c, no interactions."""
    return MobiusGame(molecule.n_atoms, tuple(((i,), float(c)) for i, c in enumerate(molecule.crippen)))


def bond_pair_terms(molecule: Molecule) -> np.ndarray:
    """Synthetic pair terms on bonds: w_ij = 0.2 * bond order - 0.5 * |electronegativity difference|."""
    terms = np.zeros(len(molecule.bonds))
    for k, ((u, v), order) in enumerate(zip(molecule.bonds, molecule.bond_orders, strict=True)):
        en_u = PAULING.get(molecule.elements[u], 2.5)
        en_v = PAULING.get(molecule.elements[v], 2.5)
        terms[k] = 0.2 * order - 0.5 * abs(en_u - en_v)
    return terms


def bond_pair_game(molecule: Molecule) -> MobiusGame:
    """Additive plus w_ij for each bond with both ends in S: SII_ij = w_ij on bonds, 0 elsewhere."""
    pairs = tuple(((min(u, v), max(u, v)), float(w)) for (u, v), w in zip(molecule.bonds, bond_pair_terms(molecule),
                                                                          strict=True))
    return MobiusGame(molecule.n_atoms, additive_game(molecule).terms + pairs)


def motif_game(molecule: Molecule) -> MobiusGame:
    """Bond-pair game plus three-atom and whole-ring terms: interactions of order 3 up to the ring size.

    Each path a-b-c (an angle) gets -0.15 per heteroatom in it (polar groups act together); each ring
    of the smallest set of smallest rings gets +0.4 if aromatic (the conjugated system counts only when
    complete) and -0.25 otherwise. No pairwise model represents these terms.
    """
    from rdkit import Chem

    n = molecule.n_atoms
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for u, v in molecule.bonds:
        neighbours[u].append(v)
        neighbours[v].append(u)
    terms: list[tuple[tuple[int, ...], float]] = []
    for centre in range(n):
        for a_pos, a in enumerate(neighbours[centre]):
            for c in neighbours[centre][a_pos + 1 :]:
                triple = (a, centre, c)
                hetero = sum(molecule.elements[k] in HETERO for k in triple)
                if hetero:
                    terms.append((tuple(sorted(triple)), -0.15 * hetero))
    mol = Chem.MolFromSmiles(molecule.smiles)
    for ring in mol.GetRingInfo().AtomRings():
        aromatic = all(mol.GetAtomWithIdx(k).GetIsAromatic() for k in ring)
        terms.append((tuple(sorted(ring)), 0.4 if aromatic else -0.25))
    return MobiusGame(n, bond_pair_game(molecule).terms + tuple(terms))
