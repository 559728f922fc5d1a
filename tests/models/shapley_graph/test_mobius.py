"""Validation games with closed-form indices, including the higher-order motif game that tests the fit."""

from __future__ import annotations

import numpy as np
import pytest

from models.shapley_graph.baselines import exact_game_indices
from models.shapley_graph.estimator import tn_shap_g
from models.shapley_graph.oracles import build_game, mobius_oracle
from models.shapley_graph.run import relative_l2
from models.shapley_graph.tensor_network import NetworkLayout
from tests.models.shapley_graph.conftest import listed

FIELDS = ("shapley", "banzhaf", "sii", "stii", "banzhaf_pair", "stii_single")


@pytest.mark.parametrize("predictor", ["additive", "bond_pair", "motif"])
@pytest.mark.parametrize("name", ["aspirin", "ibuprofen"])
def test_closed_forms_equal_brute_force(predictor: str, name: str) -> None:
    molecule = listed(name)
    oracle = mobius_oracle(molecule, predictor)
    assert oracle is not None
    truth, _ = exact_game_indices(build_game(molecule, predictor))  # type: ignore[arg-type]
    got = oracle.indices()
    for field in FIELDS:
        np.testing.assert_allclose(getattr(got, field), getattr(truth, field), atol=1e-12, err_msg=field)


def test_motif_game_has_ring_and_three_atom_terms() -> None:
    oracle = mobius_oracle(listed("ibuprofen"), "motif")
    assert oracle is not None
    orders = {len(players) for players, _ in oracle.terms}
    assert {1, 2, 3, 6} <= orders  # atoms, bonds, angles, the benzene ring


def test_the_fit_beats_its_warm_start_on_the_motif_game() -> None:
    """The graph-local quadratic cannot hold ring and three-atom terms; the fitted network must do better."""
    molecule = listed("ibuprofen")
    oracle = mobius_oracle(molecule, "motif")
    assert oracle is not None
    truth = oracle.indices()
    est = tn_shap_g(build_game(molecule, "motif"), NetworkLayout(molecule.n_atoms, molecule.bonds), 600, 4, seed=0)
    fitted = relative_l2(est.indices.sii, truth.sii)
    warm = relative_l2(est.warm_start.sii, truth.sii)
    assert warm > 0.2  # the quadratic alone is visibly wrong
    assert fitted < 0.5 * warm
    assert relative_l2(est.indices.shapley, truth.shapley) < relative_l2(est.warm_start.shapley, truth.shapley)
