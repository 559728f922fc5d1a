"""Molecule parsing: names come from the shipped list, and bad SMILES get one clear line."""

from __future__ import annotations

import pytest

from models.common import MethodInputError
from models.shapley_graph.molecules import parse_molecule


@pytest.mark.parametrize(("smiles", "name"), [("c1ccccc1O", "phenol"), ("Oc1ccccc1", "phenol"),
                                               ("CC(=O)Nc1ccc(O)cc1", "paracetamol")])
def test_listed_molecules_are_named_whatever_the_smiles_spelling(smiles: str, name: str) -> None:
    assert parse_molecule(smiles).name == name


def test_an_explicit_name_wins_and_unlisted_molecules_stay_unnamed() -> None:
    assert parse_molecule("c1ccccc1O", "my phenol").name == "my phenol"
    assert parse_molecule("CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCO").name == ""


@pytest.mark.parametrize(("smiles", "message"), [("C1CC", "cannot parse"), ("CC.CC", "disconnected"),
                                                 ("C" * 61, "above the maximum of 60")])
def test_bad_smiles_get_a_clear_message(smiles: str, message: str) -> None:
    with pytest.raises(MethodInputError, match=message):
        parse_molecule(smiles)
