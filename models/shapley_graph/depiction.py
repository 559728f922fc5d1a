"""The molecule as chemists draw it: an RDKit 2D depiction with atoms coloured by phi and bonds by SII."""

from __future__ import annotations

from collections.abc import Mapping

from plotly.colors import sample_colorscale

__all__ = ["SCALE", "colour", "molecule_svg"]

SCALE = "RdBu_r"  # red raises the prediction (more lipophilic for logP), blue lowers it


def colour(value: float, bound: float) -> str:
    """An rgb(...) colour of the diverging scale for value in [-bound, bound]."""
    return sample_colorscale(SCALE, [0.5 + 0.5 * max(-1.0, min(1.0, value / bound))])[0]


def _rgb(value: float, bound: float) -> tuple[float, float, float]:
    r, g, b = (int(c) / 255 for c in colour(value, bound)[4:-1].split(","))
    return (r, g, b)


def molecule_svg(smiles: str, phi: Mapping[int, float], sii: Mapping[tuple[int, int], float],
                 size: tuple[int, int] = (560, 420)) -> str:
    """rdMolDraw2D SVG with atom indices (as in the charts), atoms coloured by phi and bonds by SII."""
    from rdkit import Chem
    from rdkit.Chem import AllChem
    from rdkit.Chem.Draw import rdMolDraw2D

    mol = Chem.MolFromSmiles(smiles)
    AllChem.Compute2DCoords(mol, canonOrient=True)  # type: ignore[attr-defined]
    phi_bound = max((abs(v) for v in phi.values()), default=0.0) or 1e-9
    bond_values = {b.GetIdx(): sii[tuple(sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx())))]  # type: ignore[index]
                   for b in mol.GetBonds()}
    sii_bound = max((abs(v) for v in bond_values.values()), default=0.0) or 1e-9
    drawer = rdMolDraw2D.MolDraw2DSVG(*size)
    drawer.drawOptions().addAtomIndices = True  # type: ignore[assignment]
    drawer.DrawMolecule(
        mol,
        highlightAtoms=list(phi),
        highlightAtomColors={i: _rgb(v, phi_bound) for i, v in phi.items()},
        highlightBonds=list(bond_values),
        highlightBondColors={k: _rgb(v, sii_bound) for k, v in bond_values.items()},
    )
    drawer.FinishDrawing()
    return str(drawer.GetDrawingText())
