"""An in-process federated loop's parts: a Dirichlet non-IID split, clients with their own clocks, FedAvg/FedProx.

Matches Flower's definitions (`flwr.server.strategy.aggregate.aggregate`, `FedProx`):
* FedAvg: the new global weights are sum_k n_k w_k / sum_k n_k, n_k the client's training examples;
* FedProx: the same aggregation; each client adds (mu / 2) ||w - w_global||^2 to its local loss.
Any other per-client weights (e.g. falling with drift) go through `weighted_aggregate`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

__all__ = ["FederatedClient", "dirichlet_split", "fedavg_aggregate", "fedprox_penalty", "weighted_aggregate"]

State = dict[str, torch.Tensor]


def dirichlet_split(
    labels: np.ndarray, clients: int, alpha: float, rng: np.random.Generator, min_size: int = 1,
    attempts: int = 1000,
) -> list[np.ndarray]:
    """Indices of each client: every class is shared out by proportions ~ Dirichlet(alpha, ..., alpha).

    Small alpha gives each client few classes (non-IID); large alpha tends to an IID split. Draws are
    repeated (same generator) until every client holds at least `min_size` examples.
    """
    if clients < 1 or alpha <= 0:
        raise ValueError("need clients >= 1 and alpha > 0")
    if clients * min_size > labels.size:
        raise ValueError(f"{labels.size} examples cannot give {clients} clients {min_size} each")
    for _ in range(attempts):
        parts: list[list[int]] = [[] for _ in range(clients)]
        for label in np.unique(labels):
            idx = rng.permutation(np.flatnonzero(labels == label))
            shares = rng.dirichlet(np.full(clients, alpha))
            cuts = (np.cumsum(shares)[:-1] * idx.size).astype(int)
            for k, chunk in enumerate(np.split(idx, cuts)):
                parts[k].extend(chunk.tolist())
        if min(len(p) for p in parts) >= min_size:
            return [np.sort(np.array(p, dtype=np.int64)) for p in parts]
    raise ValueError(f"no Dirichlet(alpha={alpha}) split gave every client {min_size} examples")


def weighted_aggregate(states: Sequence[State], weights: Iterable[float]) -> State:
    """sum_k a_k w_k with a_k = weights_k / sum(weights), tensor by tensor."""
    w = np.asarray(list(weights), dtype=float)
    if len(states) == 0 or w.size != len(states):
        raise ValueError("need one weight per client state, and at least one state")
    if (w < 0).any() or w.sum() <= 0:
        raise ValueError("aggregation weights must be >= 0 with a positive sum")
    w = w / w.sum()
    out: State = {}
    for name in states[0]:
        stacked = torch.stack([s[name].detach().to(torch.float64) for s in states])
        coeffs = torch.as_tensor(w, dtype=torch.float64, device=stacked.device)
        coeffs = coeffs.reshape((-1,) + (1,) * (stacked.ndim - 1))
        out[name] = (coeffs * stacked).sum(dim=0).to(states[0][name].dtype)
    return out


def fedavg_aggregate(states: Sequence[State], examples: Sequence[int]) -> State:
    """FedAvg: the average of the client weights weighted by their numbers of training examples."""
    return weighted_aggregate(states, [float(n) for n in examples])


def fedprox_penalty(model: torch.nn.Module, global_state: State, mu: float) -> torch.Tensor:
    """(mu / 2) sum ||w - w_global||^2 over the model's parameters (FedProx's proximal term)."""
    total = torch.zeros((), device=next(model.parameters()).device)
    for name, param in model.named_parameters():
        total = total + torch.sum((param - global_state[name].detach()) ** 2)
    return 0.5 * mu * total


@dataclass
class FederatedClient:
    """A client with its data, its own clock and its drift schedule (asynchronous across clients).

    `clock` counts the local rounds this client has trained; concept drift is scheduled on this
    clock (`drift_at`), so clients that skip rounds drift later in server time.
    """

    client_id: int
    indices: np.ndarray
    drift_at: int | None = None
    clock: int = 0
    history: list[int] = field(default_factory=list)  # server rounds at which it trained

    def drifted(self) -> bool:
        return self.drift_at is not None and self.clock >= self.drift_at

    def tick(self, server_round: int) -> None:
        self.clock += 1
        self.history.append(server_round)
