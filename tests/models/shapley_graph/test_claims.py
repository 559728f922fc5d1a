"""The claims: exact where the network represents the game, error falling with queries, a broken fit refused."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from models.common import no_progress
from models.shapley_graph.baselines import exact_game_indices
from models.shapley_graph.estimator import tn_shap_g
from models.shapley_graph.oracles import build_game
from models.shapley_graph.params import Params
from models.shapley_graph.run import relative_l2, run
from models.shapley_graph.tensor_network import NetworkLayout
from tests.models.shapley_graph.conftest import listed

run_module = importlib.import_module("models.shapley_graph.run")


def test_bond_pair_game_is_recovered_exactly_against_brute_force() -> None:
    molecule = listed("caffeine")
    truth, _ = exact_game_indices(build_game(molecule, "bond_pair", "baseline"))
    est = tn_shap_g(build_game(molecule, "bond_pair", "baseline"), NetworkLayout(molecule.n_atoms, molecule.bonds),
                    300, 3, seed=0)
    assert relative_l2(est.indices.shapley, truth.shapley) < 1e-8
    assert relative_l2(est.indices.sii, truth.sii) < 1e-8


def test_sii_error_falls_with_queries_on_the_local_gnn() -> None:
    molecule = listed("caffeine")
    truth, _ = exact_game_indices(build_game(molecule, "gnn", "baseline"))
    layout = NetworkLayout(molecule.n_atoms, molecule.bonds)
    errors = [np.mean([relative_l2(tn_shap_g(build_game(molecule, "gnn", "baseline"), layout, b, 4, seed=s)
                                   .indices.sii, truth.sii) for s in (0, 1)]) for b in (60, 1000)]
    assert errors[1] < 0.5 * errors[0]


def test_a_broken_fit_fails_the_claims_and_is_not_green(monkeypatch: pytest.MonkeyPatch) -> None:
    real = run_module.tn_shap_g

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        est = real(*args, **kwargs)
        est.indices.sii = 2.0 * est.indices.sii
        est.indices.shapley = est.indices.shapley[::-1].copy()
        return est

    params = Params(smiles="CC(=O)Nc1ccc(O)cc1", budget=200, error_curve=False, seeds=3)
    good = run(params, no_progress)
    assert {c.id: c.holds for c in good.claims}["shapley"] == "held"
    monkeypatch.setattr(run_module, "tn_shap_g", broken)
    bad = run(params, no_progress)
    holds = {c.id: c.holds for c in bad.claims}
    assert holds["shapley"] == "not_held" and holds["sii"] == "not_held"
    assert bad.verdict().tone != "success" and bad.standing is not None and bad.standing.beaten_by()
