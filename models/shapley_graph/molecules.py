"""Molecules as graphs: the shipped molecule list, SMILES parsing, atom features and 2D coordinates."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from models.common import MethodInputError
from models.common.paths import static_path

__all__ = [
    "ATOM_FEATURES",
    "MAX_ATOMS",
    "MIN_ATOMS",
    "MOLECULES_CSV",
    "Molecule",
    "atom_features",
    "load_molecule_list",
    "parse_molecule",
]

MOLECULES_CSV = static_path("molecules", "molecules.csv")
MIN_ATOMS = 3
MAX_ATOMS = 60
ELEMENTS = ("C", "N", "O", "F", "P", "S", "Cl", "Br", "I")
ATOM_FEATURES = (
    [f"element={e}" for e in ELEMENTS]
    + ["element=other", "aromatic", "in_ring"]
    + [f"degree={d}" for d in (1, 2, 3, 4)]
    + [f"hydrogens={h}" for h in (0, 1, 2, 3)]
    + ["formal_charge"]
)


@dataclass(frozen=True)
class Molecule:
    """A parsed molecule: heavy atoms are the players, chemical bonds the edges of the network."""

    name: str
    smiles: str
    elements: tuple[str, ...]
    bonds: tuple[tuple[int, int], ...]
    bond_orders: tuple[float, ...]
    features: np.ndarray  # (n, len(ATOM_FEATURES)) float32
    coords: np.ndarray  # (n, 2) RDKit 2D depiction coordinates
    crippen: np.ndarray  # (n,) heavy-atom Crippen logP contributions (hydrogens folded in)

    @property
    def n_atoms(self) -> int:
        return len(self.elements)

    def adjacency(self) -> np.ndarray:
        adj = np.zeros((self.n_atoms, self.n_atoms), dtype=np.float32)
        for u, v in self.bonds:
            adj[u, v] = adj[v, u] = 1.0
        return adj


def atom_features(atom: object) -> np.ndarray:
    """One-hot element, aromaticity, ring membership, heavy degree, attached hydrogens, formal charge."""
    symbol = atom.GetSymbol()  # type: ignore[attr-defined]
    row = np.zeros(len(ATOM_FEATURES), dtype=np.float32)
    row[ELEMENTS.index(symbol) if symbol in ELEMENTS else len(ELEMENTS)] = 1.0
    row[10] = float(atom.GetIsAromatic())  # type: ignore[attr-defined]
    row[11] = float(atom.IsInRing())  # type: ignore[attr-defined]
    degree = min(max(atom.GetDegree(), 1), 4)  # type: ignore[attr-defined]
    row[12 + degree - 1] = 1.0
    row[16 + min(atom.GetTotalNumHs(), 3)] = 1.0  # type: ignore[attr-defined]
    row[20] = float(atom.GetFormalCharge())  # type: ignore[attr-defined]
    return row


def crippen_heavy_atom_contributions(mol: object) -> np.ndarray:
    """Wildman-Crippen logP contributions per heavy atom, each hydrogen's folded into its heavy atom.

    Computed on the molecule with explicit hydrogens, so the contributions sum to Crippen.MolLogP.
    """
    from rdkit import Chem
    from rdkit.Chem import rdMolDescriptors

    with_h = Chem.AddHs(mol)
    contribs = rdMolDescriptors._CalcCrippenContribs(with_h)
    heavy = np.zeros(mol.GetNumAtoms())  # type: ignore[attr-defined]
    for atom, (logp, _mr) in zip(with_h.GetAtoms(), contribs, strict=True):
        if atom.GetAtomicNum() == 1:
            heavy[atom.GetNeighbors()[0].GetIdx()] += logp
        else:
            heavy[atom.GetIdx()] += logp
    return heavy


def parse_molecule(smiles: str, name: str = "") -> Molecule:
    """Parse a SMILES string into a Molecule, or raise MethodInputError with one clear line."""
    from rdkit import Chem, RDLogger
    from rdkit.Chem import AllChem

    RDLogger.DisableLog("rdApp.*")  # type: ignore[attr-defined]
    text = smiles.strip()
    if not text:
        raise MethodInputError("smiles: enter a SMILES string (for example c1ccccc1O for phenol)")
    mol = Chem.MolFromSmiles(text)
    if mol is None:
        raise MethodInputError(f"smiles: RDKit cannot parse {text[:60]!r} as a valid SMILES string")
    n = mol.GetNumAtoms()
    if n > MAX_ATOMS:
        raise MethodInputError(f"smiles: {n} heavy atoms is above the maximum of {MAX_ATOMS}")
    if n < MIN_ATOMS:
        raise MethodInputError(f"smiles: {n} heavy atoms is below the minimum of {MIN_ATOMS}")
    fragments = len(Chem.GetMolFrags(mol))
    if fragments > 1:
        raise MethodInputError(
            f"smiles: the molecule has {fragments} disconnected fragments; enter one connected molecule"
        )
    bonds = tuple((b.GetBeginAtomIdx(), b.GetEndAtomIdx()) for b in mol.GetBonds())
    orders = tuple(float(b.GetBondTypeAsDouble()) for b in mol.GetBonds())
    depiction = Chem.Mol(mol)
    AllChem.Compute2DCoords(depiction, canonOrient=True)  # type: ignore[attr-defined]
    conf = depiction.GetConformer()
    coords = np.array([[conf.GetAtomPosition(i).x, conf.GetAtomPosition(i).y] for i in range(n)])
    return Molecule(
        name=name or known_name(Chem.MolToSmiles(mol)),
        smiles=text,
        elements=tuple(a.GetSymbol() for a in mol.GetAtoms()),
        bonds=bonds,
        bond_orders=orders,
        features=np.stack([atom_features(a) for a in mol.GetAtoms()]),
        coords=coords,
        crippen=crippen_heavy_atom_contributions(mol),
    )


@lru_cache(maxsize=1)
def load_molecule_list() -> tuple[tuple[str, str, str, int], ...]:
    """(name, smiles, category, heavy atoms) for every molecule in static/molecules/molecules.csv."""
    with MOLECULES_CSV.open(newline="") as handle:
        return tuple(
            (row["name"], row["smiles"], row["category"], int(row["heavy_atoms"]))
            for row in csv.DictReader(handle)
        )


@lru_cache(maxsize=1)
def _names_by_canonical_smiles() -> dict[str, str]:
    from rdkit import Chem

    names: dict[str, str] = {}
    for name, smiles, _category, _atoms in load_molecule_list():
        mol = Chem.MolFromSmiles(smiles)
        if mol is not None:
            names.setdefault(Chem.MolToSmiles(mol), name)
    return names


def known_name(canonical_smiles: str) -> str:
    """The shipped list's name for a molecule (by canonical SMILES), or "" when it is not listed."""
    return _names_by_canonical_smiles().get(canonical_smiles, "")
