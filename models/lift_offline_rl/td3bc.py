"""A compact TD3+BC (Fujimoto & Gu 2021) following d3rlpy's algorithm definition (TD3PlusBC), for several
independent learners trained side by side.

Critic: two Q networks, target y = r + gamma (1 - terminal) min_k Q'_k(s', clip(pi'(s') + clip(N(0, sigma^2),
-c, c), -1, 1)), each Q regressed on y (squared error). Actor, every `update_actor_interval` critic steps:
loss = -lambda mean Q_1(s, pi(s)) + mean (a - pi(s))^2 with lambda = alpha / mean |Q_1(s, pi(s))| (detached);
then Polyak averaging of all targets with rate tau. d3rlpy's defaults: alpha 2.5, gamma 0.99, tau 0.005,
sigma 0.2, c 0.5, learning rates 3e-4, batch 256, interval 2, tanh policy, 256-unit ReLU layers (smaller here).

Learner k has its own seed (initialisation, target noise), data, minibatch stream and alpha; the networks of
all learners are stacked on a leading axis and updated by batched products. Adam and Polyak averaging act
element by element and each learner's loss touches only its own slice, so learner k follows the trajectory it
follows trained alone up to floating-point rounding of the batched products (equal to 1e-6 after 40 updates,
tested; over 1,200 updates TD3+BC can amplify the rounding: seed 100's test success moved by half a point).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.common.contract import Progress
from models.common.device import seeded_init
from models.lift_offline_rl.augment import Transitions

__all__ = ["Policy", "StackedMLP", "TD3BCConfig", "TD3PlusBC"]

Policy = Callable[[np.ndarray], np.ndarray]  # observations (n x D) -> actions (n x D)


@dataclass(frozen=True)
class TD3BCConfig:
    alpha: float = 2.5
    gamma: float = 0.99
    tau: float = 0.005
    target_smoothing_sigma: float = 0.2
    target_smoothing_clip: float = 0.5
    actor_learning_rate: float = 3e-4
    critic_learning_rate: float = 3e-4
    batch_size: int = 256
    update_actor_interval: int = 2
    hidden: int = 64


def _mlp(inputs: int, outputs: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, outputs))


class StackedMLP(nn.Module):
    """K ReLU networks of one shape: weights (K, in, out), biases (K, 1, out); (K, B, in) -> (K, B, out)."""

    def __init__(self, nets: Sequence[nn.Module]) -> None:
        super().__init__()
        layers = [[m for m in net.modules() if isinstance(m, nn.Linear)] for net in nets]
        self.weights = nn.ParameterList([nn.Parameter(torch.stack([net[j].weight.detach().t() for net in layers]))
                                         for j in range(len(layers[0]))])
        self.biases = nn.ParameterList([nn.Parameter(torch.stack([net[j].bias.detach()[None, :] for net in layers]))
                                        for j in range(len(layers[0]))])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for j, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = torch.baddbmm(bias, x, weight)
            if j < len(self.weights) - 1:
                x = torch.relu(x)
        return x

    def one(self, k: int, x: torch.Tensor) -> torch.Tensor:
        """Network k alone on x (B, in)."""
        for j, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = torch.addmm(bias[k], x, weight[k])
            if j < len(self.weights) - 1:
                x = torch.relu(x)
        return x


class TD3PlusBC:
    """Actors, twin critics, their targets and optimisers of len(seeds) learners; `update` takes one d3rlpy-style
    TD3+BC step of every learner."""

    def __init__(self, observation_size: int, action_size: int, config: TD3BCConfig, seeds: Sequence[int],
                 device: str, alphas: Sequence[float] | None = None) -> None:
        self.config, self.device, self.count = config, device, len(seeds)
        self.generators = [torch.Generator(device=device).manual_seed(seed) for seed in seeds]
        built = [seeded_init(seed, lambda: (
            _mlp(observation_size, action_size, config.hidden).to(device),
            nn.ModuleList([_mlp(observation_size + action_size, 1, config.hidden) for _ in range(2)]).to(device)))
            for seed in seeds]
        self.actor = StackedMLP([actor for actor, _ in built])
        self.critics = nn.ModuleList([StackedMLP([critics[j] for _, critics in built]) for j in range(2)])
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_targets = copy.deepcopy(self.critics)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=config.actor_learning_rate)
        self.critic_optim = torch.optim.Adam(self.critics.parameters(), lr=config.critic_learning_rate)
        self.alphas = torch.tensor([config.alpha] * self.count if alphas is None else list(alphas),
                                   dtype=torch.float32, device=device)
        self.steps = 0

    def policy(self, observations: torch.Tensor, *, target: bool = False) -> torch.Tensor:
        return torch.tanh((self.actor_target if target else self.actor)(observations))

    def act(self, k: int) -> Policy:
        """Learner k's current deterministic policy on numpy observations."""
        def act(observations: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                tensor = torch.tensor(observations, dtype=torch.float32, device=self.device)
                return torch.tanh(self.actor.one(k, tensor)).cpu().numpy().astype(float)
        return act

    def _q(self, critics: nn.ModuleList, observations: torch.Tensor, actions: torch.Tensor) -> list[torch.Tensor]:
        joined = torch.cat([observations, actions], dim=2)
        return [critic(joined)[:, :, 0] for critic in critics]

    def update(self, batch: tuple[torch.Tensor, ...]) -> None:
        """One critic step of every learner (and an actor step every `update_actor_interval`); batch tensors are
        (K, B, ...)."""
        o, a, r, o2, done = batch
        c = self.config
        with torch.no_grad():
            noise = torch.stack([torch.randn(a.shape[1:], generator=g, device=self.device)
                                 for g in self.generators]) * c.target_smoothing_sigma
            next_action = (self.policy(o2, target=True) + noise.clamp(-c.target_smoothing_clip,
                                                                      c.target_smoothing_clip)).clamp(-1.0, 1.0)
            next_q = torch.minimum(*self._q(self.critic_targets, o2, next_action))
            y = r + c.gamma * (1.0 - done) * next_q
        critic_loss = sum(((q - y) ** 2).mean(dim=1) for q in self._q(self.critics, o, a))
        assert isinstance(critic_loss, torch.Tensor)
        self.critic_optim.zero_grad(set_to_none=True)
        critic_loss.sum().backward()
        self.critic_optim.step()
        self.steps += 1
        if self.steps % c.update_actor_interval == 0:
            action = self.policy(o)
            q_t = self._q(self.critics[:1], o, action)[0]
            lam = self.alphas / q_t.abs().mean(dim=1).detach()
            actor_loss = lam * -q_t.mean(dim=1) + ((a - action) ** 2).mean(dim=(1, 2))
            self.actor_optim.zero_grad(set_to_none=True)
            actor_loss.sum().backward()
            self.actor_optim.step()
            with torch.no_grad():
                for net, target in ((self.actor, self.actor_target), (self.critics, self.critic_targets)):
                    for p, p_target in zip(net.parameters(), target.parameters(), strict=True):
                        p_target.mul_(1.0 - c.tau).add_(c.tau * p)

    def fit(self, data: Sequence[Transitions], steps: int, rngs: Sequence[np.random.Generator], progress: Progress,
            evaluate: Callable[[int, Policy, int], tuple[float, float]], evaluations: int) -> None:
        """`steps` updates, learner k on minibatches of data[k] drawn with replacement by rngs[k]; at evenly spaced
        steps `evaluate(k, policy, step)` scores learner k, and each learner ends at its best-scoring actor."""
        tensors = [[torch.tensor(x, dtype=torch.float32, device=self.device) for x in
                    (d.observations, d.actions, d.rewards, d.next_observations, d.terminals)] for d in data]
        marks = {round(steps * (k + 1) / evaluations) for k in range(evaluations)}
        best: list[tuple[tuple[float, float], list[torch.Tensor]] | None] = [None] * self.count
        for step in range(1, steps + 1):
            rows = [torch.as_tensor(rng.integers(0, d.size, size=self.config.batch_size), device=self.device)
                    for rng, d in zip(rngs, data, strict=True)]
            self.update(tuple(torch.stack([tensors[k][f][rows[k]] for k in range(self.count)]) for f in range(5)))
            if step in marks:
                for k in range(self.count):
                    score = evaluate(k, self.act(k), self.steps)
                    kept = best[k]
                    if kept is None or score > kept[0]:
                        best[k] = (score, [p[k].detach().clone() for p in self.actor.parameters()])
            if step % 50 == 0 or step == steps:
                progress(step / steps, f"TD3+BC step {step}/{steps}")
        with torch.no_grad():
            for k, kept in enumerate(best):
                if kept is not None:
                    for p, saved in zip(self.actor.parameters(), kept[1], strict=True):
                        p[k].copy_(saved)
