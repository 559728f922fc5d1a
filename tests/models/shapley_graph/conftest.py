"""Shared helpers of the shapley_graph tests: molecules from the shipped list by name."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

from models.shapley_graph.molecules import Molecule, load_molecule_list, parse_molecule  # noqa: E402


def listed(name: str) -> Molecule:
    """The shipped molecule called `name`, parsed."""
    smiles = next(s for n, s, _c, _h in load_molecule_list() if n == name)
    return parse_molecule(smiles, name)
