"""FedAvg/FedProx aggregation, the Dirichlet split and per-client clocks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.common.continual import (
    FederatedClient,
    dirichlet_split,
    fedavg_aggregate,
    fedprox_penalty,
    weighted_aggregate,
)


def _states(k: int) -> list[dict[str, torch.Tensor]]:
    g = torch.Generator().manual_seed(3)
    return [{"w": torch.randn(3, 2, generator=g), "b": torch.randn(2, generator=g)} for _ in range(k)]


def test_fedavg_with_equal_sizes_is_the_plain_average() -> None:
    states = _states(4)
    out = fedavg_aggregate(states, [10, 10, 10, 10])
    for name in ("w", "b"):
        assert torch.allclose(out[name], torch.stack([s[name] for s in states]).mean(0), atol=1e-6)


def test_fedavg_weights_by_examples() -> None:
    states = _states(2)
    out = fedavg_aggregate(states, [1, 3])
    assert torch.allclose(out["w"], 0.25 * states[0]["w"] + 0.75 * states[1]["w"], atol=1e-6)


def test_a_single_client_is_returned_unchanged_and_zero_weight_is_ignored() -> None:
    states = _states(3)
    assert torch.allclose(fedavg_aggregate(states[:1], [5])["w"], states[0]["w"])
    out = weighted_aggregate(states, [1.0, 0.0, 1.0])
    assert torch.allclose(out["b"], 0.5 * (states[0]["b"] + states[2]["b"]), atol=1e-6)
    with pytest.raises(ValueError):
        weighted_aggregate(states, [0.0, 0.0, 0.0])


def test_fedprox_penalty_is_half_mu_squared_distance_and_zero_at_the_global_model() -> None:
    model = torch.nn.Linear(3, 2)
    glob = {k: v.detach().clone() for k, v in model.state_dict().items()}
    assert float(fedprox_penalty(model, glob, 0.1)) == 0.0
    with torch.no_grad():
        model.weight += 1.0
    assert float(fedprox_penalty(model, glob, 0.1)) == pytest.approx(0.05 * 6)


def test_dirichlet_split_is_a_partition_and_skews_with_small_alpha() -> None:
    labels = np.repeat(np.arange(10), 100)
    parts = dirichlet_split(labels, 10, 0.1, np.random.default_rng(0), min_size=5)
    joined = np.sort(np.concatenate(parts))
    assert np.array_equal(joined, np.arange(1000))
    skewed = np.mean([np.bincount(labels[p], minlength=10).max() / p.size for p in parts])
    parts_iid = dirichlet_split(labels, 10, 100.0, np.random.default_rng(0))
    iid = np.mean([np.bincount(labels[p], minlength=10).max() / p.size for p in parts_iid])
    assert skewed > 0.5 > iid


def test_clients_drift_on_their_own_clock() -> None:
    client = FederatedClient(0, np.arange(3), drift_at=2)
    assert not client.drifted()
    client.tick(0)
    client.tick(5)
    assert client.drifted() and client.history == [0, 5]
