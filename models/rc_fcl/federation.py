"""The federated loop for FedAvg, FedProx and RC-FCL on the same clients, drift schedule and participation.

Per server round each participating client advances its own clock, sees its data under its current
concept (original before its drift round, the new concept from then on), trains the global model
locally with SGD and sends the weights back; the server aggregates:
* FedAvg: weights n_k (Flower's `aggregate`);
* FedProx: the same, with (mu / 2) ||w - w_global||^2 in every local loss;
* RC-FCL: before training, the client scores drift against its reference generator; when the score
  passes the threshold it weights its samples by P(new | x, y) (normalised to mean 1, clipped to
  [0.2, 5]) and refits the reference on the new concept; the server weights it n_k exp(-beta score).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.common.continual import (
    FederatedClient,
    accuracy,
    fedprox_penalty,
    init_linear_,
    minibatches,
    to_tensors,
    weighted_aggregate,
)
from models.rc_fcl.concepts import DriftPlan
from models.rc_fcl.detector import GaussianReference, score_drift
from models.rc_fcl.params import Params

__all__ = ["METHODS", "Federation", "MethodName", "MethodTrace", "run_method"]

MethodName = Literal["rc_fcl", "fedavg", "fedprox"]
METHODS: tuple[MethodName, ...] = ("rc_fcl", "fedavg", "fedprox")
BATCH = 32


@dataclass(frozen=True)
class Federation:
    """Everything the three methods share: client data, drift plans, participation, test set, initial weights."""

    client_x: list[np.ndarray]
    client_y: list[np.ndarray]
    plans: list[DriftPlan]
    participates: np.ndarray  # rounds x clients, bool
    x_test: np.ndarray
    y_test: np.ndarray
    init_state: dict[str, torch.Tensor]
    # each client's data and the test set under its new concept, computed once (rotations are not free)
    client_drifted: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    test_drifted: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def client_data(self, k: int, concept_id: int) -> tuple[np.ndarray, np.ndarray]:
        return (self.client_x[k], self.client_y[k]) if concept_id == 0 else self.client_drifted[k]

    def test_data(self, k: int | None) -> tuple[np.ndarray, np.ndarray]:
        """The test set under client k's new concept (None: the original concept)."""
        return (self.x_test, self.y_test) if k is None else self.test_drifted[k]


@dataclass
class MethodTrace:
    name: MethodName
    old_accuracy: list[float] = field(default_factory=list)  # per round, global model on the original concept
    new_accuracy: list[float | None] = field(default_factory=list)  # per round, mean over drifted clients
    final_accuracy: float = 0.0
    aggregation_share: list[list[float]] = field(default_factory=list)  # rounds x clients
    drift_score: list[list[float | None]] = field(default_factory=list)  # rc_fcl: rounds x clients
    detected: list[list[bool | None]] = field(default_factory=list)
    truth: list[list[bool | None]] = field(default_factory=list)


def make_model(generator: torch.Generator) -> nn.Sequential:
    return nn.Sequential(init_linear_(nn.Linear(64, 64), generator), nn.ReLU(), init_linear_(nn.Linear(64, 10), generator))


def _concept_id(client: FederatedClient) -> int:
    """1 (the new concept) once the client's own clock reached its drift round, else 0."""
    return int(client.drifted())


@dataclass
class _ClientState:
    reference: GaussianReference | None = None
    reference_concept: int = 0


def _local_train(model: nn.Module, x: torch.Tensor, y: torch.Tensor, weights: torch.Tensor | None,
                 params: Params, global_state: dict[str, torch.Tensor], prox: bool, rng: np.random.Generator) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=params.learning_rate)
    for _ in range(params.local_epochs):
        for idx in minibatches(len(y), BATCH, rng):
            losses = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
            loss = (losses * weights[idx]).mean() if weights is not None else losses.mean()
            if prox and params.prox_mu > 0:
                loss = loss + fedprox_penalty(model, global_state, params.prox_mu)
            opt.zero_grad()
            loss.backward()
            opt.step()


@torch.no_grad()
def _accuracy_on(model: nn.Module, data: tuple[np.ndarray, np.ndarray], device: str) -> float:
    xt, yt = to_tensors(*data, device)
    return accuracy(model(xt), yt)


def run_method(name: MethodName, fed: Federation, params: Params, device: str,
               tick: Callable[[int], None]) -> MethodTrace:
    """Train one method through all rounds and record its curves (and, for RC-FCL, the detector)."""
    k_clients = len(fed.client_y)
    model = make_model(torch.Generator()).to(device)
    model.load_state_dict(fed.init_state)
    clients = [FederatedClient(k, np.arange(len(fed.client_y[k])), plan.drift_at) for k, plan in enumerate(fed.plans)]
    states = [_ClientState() for _ in range(k_clients)]
    rng = np.random.default_rng([params.seed, 7])
    detector_rng = np.random.default_rng([params.seed, 8])
    trace = MethodTrace(name)
    for r in range(params.rounds):
        global_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        sent, weights_out = [], []
        score_row: list[float | None] = [None] * k_clients
        detected_row: list[bool | None] = [None] * k_clients
        truth_row: list[bool | None] = [None] * k_clients
        for k, client in enumerate(clients):
            if not fed.participates[r, k]:
                continue
            concept_id = _concept_id(client)
            x_np, y_np = fed.client_data(k, concept_id)
            sample_weights = None
            aggregation = float(len(y_np))
            if name == "rc_fcl":
                state = states[k]
                if state.reference is None:
                    state.reference, state.reference_concept = GaussianReference.fit(x_np, y_np), concept_id
                else:
                    drift = score_drift(state.reference, x_np, y_np, detector_rng)
                    flagged = drift.score > params.detection_threshold
                    score_row[k], detected_row[k] = drift.score, flagged
                    truth_row[k] = concept_id != state.reference_concept
                    aggregation *= float(np.exp(-params.drift_penalty * drift.score))
                    if flagged:
                        p = drift.sample_new_probability
                        sample_weights = torch.as_tensor(np.clip(p / max(p.mean(), 1e-9), 0.2, 5.0),
                                                         dtype=torch.float32, device=device)
                        state.reference, state.reference_concept = GaussianReference.fit(x_np, y_np), concept_id
            local = make_model(torch.Generator()).to(device)
            local.load_state_dict(global_state)
            xt, yt = to_tensors(x_np, y_np, device)
            _local_train(local, xt, yt, sample_weights, params, global_state, name == "fedprox", rng)
            sent.append(local.state_dict())
            weights_out.append(aggregation)
            client.tick(r)
        share = [0.0] * k_clients
        if sent:
            model.load_state_dict(weighted_aggregate(sent, weights_out))
            total = sum(weights_out)
            for w, k in zip(weights_out, [k for k in range(k_clients) if fed.participates[r, k]], strict=True):
                share[k] = w / total
        trace.aggregation_share.append(share)
        trace.drift_score.append(score_row)
        trace.detected.append(detected_row)
        trace.truth.append(truth_row)
        model.eval()
        trace.old_accuracy.append(_accuracy_on(model, fed.test_data(None), device))
        drifted = [c for c in clients if c.drifted()]
        trace.new_accuracy.append(
            float(np.mean([_accuracy_on(model, fed.test_data(c.client_id), device) for c in drifted]))
            if drifted else None
        )
        model.train()
        tick(r)
    model.eval()
    trace.final_accuracy = float(np.mean([
        _accuracy_on(model, fed.test_data(c.client_id if c.drifted() else None), device) for c in clients
    ]))
    return trace
