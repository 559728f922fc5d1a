"""run(): the CLI keys, determinism, equalities between the methods in degenerate settings, and the claim."""

from __future__ import annotations

import numpy as np
import pytest

from models.common import MethodInputError, no_progress
from models.rc_fcl import SPEC
from models.rc_fcl.federation import run_method
from models.rc_fcl.params import Params
from models.rc_fcl.run import build_federation

SMALL = Params(clients=4, rounds=6, seed=3)


def test_result_has_the_cli_keys_and_fractions() -> None:
    dumped = SPEC.run(SMALL, no_progress).model_dump(mode="json")
    assert {"true_positive_rate", "false_positive_rate"} <= set(dumped["detection"])
    assert set(dumped["methods"]) == {"rc_fcl", "fedavg", "fedprox"}
    for m in dumped["methods"].values():
        for key in ("final_accuracy", "old_concept_accuracy", "new_concept_accuracy"):
            assert 0.0 <= m[key] <= 1.0
    assert len(dumped["truth"]) == 6 and len(dumped["truth"][0]) == 4


def test_same_seed_same_numbers() -> None:
    a, b = SPEC.run(SMALL, no_progress).model_dump(), SPEC.run(SMALL, no_progress).model_dump()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_degenerate_settings_reduce_to_fedavg() -> None:
    """mu = 0 makes FedProx FedAvg; a threshold of 1 and no penalty make RC-FCL FedAvg (same batches)."""
    params = Params(clients=4, rounds=6, seed=5, prox_mu=0.0, detection_threshold=1.0, drift_penalty=0.0)
    fed = build_federation(params)
    runs = {name: run_method(name, fed, params, "cpu", lambda r: None) for name in ("fedavg", "fedprox", "rc_fcl")}
    assert runs["fedprox"].old_accuracy == runs["fedavg"].old_accuracy
    assert runs["rc_fcl"].old_accuracy == runs["fedavg"].old_accuracy
    assert runs["rc_fcl"].final_accuracy == runs["fedavg"].final_accuracy


def test_aggregation_shares_sum_to_one_and_fall_with_the_score() -> None:
    result = SPEC.run(Params(clients=6, rounds=10, seed=1), no_progress)
    share = np.array(result.curves["rc_fcl"].aggregation_share)
    assert np.allclose(share.sum(axis=1), 1.0)
    fedavg = np.array(result.curves["fedavg"].aggregation_share)
    for r, row in enumerate(result.drift_score):
        for k, score in enumerate(row):
            if score is not None and score > 0.3:
                assert share[r, k] < fedavg[r, k]


def test_clients_drift_on_their_own_clocks() -> None:
    params = Params(clients=6, rounds=20, seed=2, participation=0.5)
    fed = build_federation(params)
    for k, plan in enumerate(fed.plans):
        assert plan.drift_at is not None
        took_part = np.flatnonzero(fed.participates[:, k])
        if took_part.size > plan.drift_at:
            first_new_round = took_part[plan.drift_at]  # its (drift_at + 1)-th own round
            assert first_new_round >= plan.drift_at


def test_no_drift_gives_no_positives() -> None:
    result = SPEC.run(Params(clients=4, rounds=6, drift_magnitude=0.0), no_progress)
    assert result.detection.positives == 0 and result.detection.true_positive_rate is None
    assert result.verdict().tone == "info"


def test_artifacts_and_figures() -> None:
    result = SPEC.run(SMALL, no_progress)
    files = result.all_artifacts()
    assert {"result.json", "accuracy_per_round.csv", "drift_map.csv", "clients.csv"} <= set(files)
    assert files["drift_map.csv"].content.decode().count("\n") == 1 + 6 * 4
    assert set(SPEC.figures(result)) == {"drift_maps", "accuracy_per_round", "final", "aggregation"}


@pytest.mark.slow
def test_default_run_reports_the_claim_as_measured() -> None:
    result = SPEC.run(Params(), no_progress)
    d = result.detection
    assert d.true_positive_rate is not None and d.false_positive_rate is not None
    # measured at seed 0: TPR 10/11 = 0.91 at FPR 0/179 (the detection part holds)
    assert d.true_positive_rate >= 0.8 and d.false_positive_rate <= 0.1
    gain = result.gain_over_fedavg()
    assert result.verdict().tone == ("success" if gain >= 0.03 else "warning")


def test_an_impossible_split_names_the_field() -> None:
    with pytest.raises(MethodInputError, match="dirichlet_alpha 0.05 with 20 clients"):
        build_federation(Params(clients=20, dirichlet_alpha=0.05, rounds=5))
