"""The federated loop for FedAvg, FedProx, a loss-triggered drift-aware FedAvg and RC-FCL on the same clients,
drift schedule, participation and fresh batches.

Per server round each participating client advances its own clock, draws a fresh batch of its current
concept mixture, trains the global model locally with SGD and sends the weights back; the server
aggregates (`weighted_aggregate`):
* FedAvg: weights n_k (Flower's `aggregate`); FedProx: the same with (mu / 2) ||w - w_global||^2 locally;
* drift-aware (loss-triggered): a client flags drift when the global model's loss on its fresh batch
  exceeds the mean of its recent losses by 3 standard deviations (+0.05); for the next `window` rounds
  its server weight is n_k exp(-beta x magnitude x remaining / window), magnitude the relative loss jump;
* RC-FCL: the client scores its batch against its class-conditional reference generator (`detector.py`);
  on a flag it keeps the old reference for `window` rounds (retrospective calibration): every batch of
  the window is weighted by the discriminator's P(new | x, y) against the old concept (normalised to
  mean 1, clipped to [0.2, 5]) and the client's server weight is n_k exp(-beta x score x remaining /
  window); the reference is then refitted on the new concept. The old reference is also archived, and
  its class-conditional samples are replayed in every later local update (`replay.py`);
* FedAvg + replay (a reservoir of real samples) and FedAvg + generator replay (the same generator,
  archived on a fixed schedule, no detection): the replay baselines, the same number of replayed samples.
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
    ReplayBuffer,
    fedprox_penalty,
    init_linear_,
    minibatches,
    to_tensors,
    weighted_aggregate,
)
from models.rc_fcl.concepts import ClientPlan
from models.rc_fcl.detector import GaussianReference, score_drift
from models.rc_fcl.params import Params
from models.rc_fcl.replay import BUFFER, PERIOD, REPLAY, generated_replay

__all__ = ["METHODS", "Federation", "MethodName", "MethodTrace", "draw_batch", "make_model", "run_method"]

MethodName = Literal["rc_fcl", "fedavg", "fedprox", "drift_aware", "fedavg_replay", "fedavg_genreplay"]
METHODS: tuple[MethodName, ...] = ("rc_fcl", "fedavg", "fedprox", "drift_aware", "fedavg_replay", "fedavg_genreplay")
BATCH = 16
MEMORY = 3  # batches the reference generator is fitted on


@dataclass(frozen=True)
class Federation:
    """Everything the methods share: client pools under every concept, plans, participation, tests, init."""

    pools: list[list[np.ndarray]]  # client -> concept -> images of its share
    labels: list[np.ndarray]
    plans: list[ClientPlan]
    participates: np.ndarray  # rounds x clients, bool
    tests: list[tuple[np.ndarray, np.ndarray]]  # per concept
    init_state: dict[str, torch.Tensor]
    batch: int
    seed: int


def draw_batch(fed: Federation, k: int, local_round: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Client k's fresh batch at its local round: (x, y, concept of each row); the same for every method."""
    rng = np.random.default_rng([fed.seed, 11, k, local_round])
    plan = fed.plans[k]
    rows = rng.choice(fed.labels[k].size, size=fed.batch, p=plan.prior(local_round))
    concepts = rng.choice(len(fed.pools[k]), size=fed.batch, p=plan.concept_weights(local_round))
    x = np.stack([fed.pools[k][c][r] for c, r in zip(concepts, rows, strict=True)])
    return x, fed.labels[k][rows], concepts


@dataclass
class MethodTrace:
    name: MethodName
    concept_accuracy: list[list[float]] = field(default_factory=list)  # rounds x concepts
    aggregation_share: list[list[float]] = field(default_factory=list)  # rounds x clients
    drift_score: list[list[float | None]] = field(default_factory=list)  # rounds x clients (None: not scored)
    detected: list[list[bool | None]] = field(default_factory=list)
    calibrating: list[list[bool]] = field(default_factory=list)
    correct: list[list[np.ndarray]] = field(default_factory=list)  # rounds x concepts: 0/1 per test image


@dataclass
class _Client:
    clock: int = 0
    memory: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    old_reference: GaussianReference | None = None
    window: int = 0
    magnitude: float = 0.0
    losses: list[float] = field(default_factory=list)
    archive: list[GaussianReference] = field(default_factory=list)  # generators of concepts learned before
    buffer: ReplayBuffer | None = None


def make_model(generator: torch.Generator) -> nn.Sequential:
    return nn.Sequential(init_linear_(nn.Linear(64, 64), generator), nn.ReLU(), init_linear_(nn.Linear(64, 10), generator))


def _local_train(model: nn.Module, x: torch.Tensor, y: torch.Tensor, weights: torch.Tensor | None, params: Params,
                 global_state: dict[str, torch.Tensor], prox: bool, rng: np.random.Generator) -> None:
    """Plain SGD (w <- w - lr grad; torch.optim.SGD without momentum, minus its per-call overhead)."""
    parameters = list(model.parameters())
    for _ in range(params.local_epochs):
        for idx in minibatches(len(y), BATCH, rng):
            losses = F.cross_entropy(model(x[idx]), y[idx], reduction="none")
            loss = (losses * weights[idx]).mean() if weights is not None else losses.mean()
            if prox and params.prox_mu > 0:
                loss = loss + fedprox_penalty(model, global_state, params.prox_mu)
            grads = torch.autograd.grad(loss, parameters)
            with torch.no_grad():
                for p, g in zip(parameters, grads, strict=True):
                    p.sub_(params.learning_rate * g)


def _calibration_weight(state: _Client, window: int, beta: float) -> float:
    return float(np.exp(-beta * state.magnitude * state.window / window))


def _rc_step(state: _Client, x: np.ndarray, y: np.ndarray, params: Params,
             rng: np.random.Generator) -> tuple[np.ndarray | None, float, float | None, bool | None]:
    """RC-FCL on one client-round: (sample weights, aggregation factor, drift score, flagged)."""
    if state.window > 0 and state.old_reference is not None:  # retrospective calibration in progress
        p = score_drift(state.old_reference, x, y, rng).sample_new_probability
        factor = _calibration_weight(state, params.window, params.drift_penalty)
        state.window -= 1
        state.memory = [*state.memory, (x, y)][-MEMORY:]
        return np.clip(p / max(p.mean(), 1e-9), 0.2, 5.0), factor, None, None
    if not state.memory:
        state.memory = [(x, y)]
        return None, 1.0, None, None
    reference = GaussianReference.fit(np.concatenate([m[0] for m in state.memory]),
                                      np.concatenate([m[1] for m in state.memory]))
    drift = score_drift(reference, x, y, rng)
    flagged = drift.score > params.detection_threshold
    if not flagged:
        state.memory = [*state.memory, (x, y)][-MEMORY:]
        return None, 1.0, drift.score, False
    state.old_reference, state.magnitude, state.window = reference, drift.score, params.window
    state.archive.append(reference)
    state.memory = [(x, y)]
    p = drift.sample_new_probability
    factor = float(np.exp(-params.drift_penalty * drift.score))
    return np.clip(p / max(p.mean(), 1e-9), 0.2, 5.0), factor, drift.score, True


def _loss_step(state: _Client, loss: float, params: Params) -> tuple[float, float | None, bool | None]:
    """The loss-triggered baseline on one client-round: (aggregation factor, relative loss jump, flagged)."""
    if state.window > 0:
        factor = _calibration_weight(state, params.window, params.drift_penalty)
        state.window -= 1
        return factor, None, None
    history = state.losses[-5:]
    if len(history) < 3:
        state.losses.append(loss)
        return 1.0, None, None
    mean, sd = float(np.mean(history)), float(np.std(history))
    jump = (loss - mean) / max(mean, 0.1)
    if loss > mean + 3 * sd + 0.05:
        state.magnitude, state.window, state.losses = min(1.0, jump), params.window, [loss]
        return float(np.exp(-params.drift_penalty * state.magnitude)), jump, True
    state.losses.append(loss)
    return 1.0, jump, False


def _client_update(name: MethodName, state: _Client, model: nn.Module, global_state: dict[str, torch.Tensor],
                   batch: tuple[np.ndarray, np.ndarray], params: Params, device: str, rngs: tuple[np.random.Generator, ...],
                   ) -> tuple[dict[str, torch.Tensor], float, float | None, bool | None, bool]:
    x_np, y_np = batch
    xt, yt = to_tensors(x_np, y_np, device)
    weights, factor, score, flagged = None, 1.0, None, None
    calibrating = state.window > 0
    if name == "rc_fcl":
        weights, factor, score, flagged = _rc_step(state, x_np, y_np, params, rngs[1])
    elif name == "drift_aware":
        with torch.no_grad():
            loss = float(F.cross_entropy(model(xt), yt))
        factor, score, flagged = _loss_step(state, loss, params)
    replayed = _replay(name, state, x_np, y_np, rngs[1])
    if replayed is not None:  # replayed samples join the batch with weight 1
        weights = np.concatenate([np.ones(len(y_np)) if weights is None else weights, np.ones(len(replayed[1]))])
        xt, yt = to_tensors(np.concatenate([x_np, replayed[0]]), np.concatenate([y_np, replayed[1]]), device)
    local = make_model(torch.Generator()).to(device)
    local.load_state_dict(global_state)
    w = None if weights is None else torch.as_tensor(weights, dtype=torch.float32, device=device)
    _local_train(local, xt, yt, w, params, global_state, name == "fedprox", rngs[0])
    return local.state_dict(), float(len(y_np)) * factor, score, flagged, calibrating


def _replay(name: MethodName, state: _Client, x: np.ndarray, y: np.ndarray,
            rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray] | None:
    """This client-round's replayed samples (drawn before the round's batch joins any memory)."""
    if name == "rc_fcl":
        return generated_replay(state.archive, REPLAY, rng)
    if name == "fedavg_genreplay":
        if state.clock > 0 and state.clock % PERIOD == 0 and state.memory:
            state.archive.append(GaussianReference.fit(np.concatenate([m[0] for m in state.memory]),
                                                       np.concatenate([m[1] for m in state.memory])))
        state.memory = [*state.memory, (x, y)][-MEMORY:]
        return generated_replay(state.archive, REPLAY, rng)
    if name == "fedavg_replay":
        if state.buffer is None:
            state.buffer = ReplayBuffer(BUFFER, x.shape[1], rng)
        out = state.buffer.sample(REPLAY) if len(state.buffer) else None
        state.buffer.add(x, y)
        return out
    return None


@torch.no_grad()
def _concept_correct(model: nn.Module, fed: Federation, device: str) -> list[np.ndarray]:
    """Per concept, 1.0 for each test image the model classifies right."""
    out = []
    for x, y in fed.tests:
        xt, yt = to_tensors(x, y, device)
        out.append((model(xt).argmax(dim=1) == yt).cpu().numpy().astype(np.float64))
    return out


def run_method(name: MethodName, fed: Federation, params: Params, device: str, tick: Callable[[int], None]) -> MethodTrace:
    """Train one method through all rounds and record its accuracy per concept and its drift flags."""
    k_clients = len(fed.labels)
    model = make_model(torch.Generator()).to(device)
    model.load_state_dict(fed.init_state)
    states = [_Client() for _ in range(k_clients)]
    rngs = (np.random.default_rng([fed.seed, 7]), np.random.default_rng([fed.seed, 8]))
    trace = MethodTrace(name)
    for r in range(params.rounds):
        global_state = {key: v.detach().clone() for key, v in model.state_dict().items()}
        sent, weights, share = [], [], [0.0] * k_clients
        scores: list[float | None] = [None] * k_clients
        flags: list[bool | None] = [None] * k_clients
        calibrating = [False] * k_clients
        active = [k for k in range(k_clients) if fed.participates[r, k]]
        for k in active:
            x, y, _ = draw_batch(fed, k, states[k].clock)
            state_k, weight, scores[k], flags[k], calibrating[k] = _client_update(
                name, states[k], model, global_state, (x, y), params, device, rngs)
            sent.append(state_k)
            weights.append(weight)
            states[k].clock += 1
        if sent:
            model.load_state_dict(weighted_aggregate(sent, weights))
            for k, w in zip(active, weights, strict=True):
                share[k] = w / sum(weights)
        trace.aggregation_share.append(share)
        trace.drift_score.append(scores)
        trace.detected.append(flags)
        trace.calibrating.append(calibrating)
        model.eval()
        correct = _concept_correct(model, fed, device)
        trace.correct.append(correct)
        trace.concept_accuracy.append([float(c.mean()) for c in correct])
        model.train()
        tick(r)
    return trace
