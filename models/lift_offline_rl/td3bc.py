"""A compact TD3+BC (Fujimoto & Gu 2021) following d3rlpy's algorithm definition (TD3PlusBC).

Critic: two Q networks, target y = r + gamma (1 - terminal) min_k Q'_k(s', clip(pi'(s') + clip(N(0, sigma^2),
-c, c), -1, 1)), each Q regressed on y (squared error). Actor, every `update_actor_interval` critic steps:
loss = -lambda mean Q_1(s, pi(s)) + mean (a - pi(s))^2 with lambda = alpha / mean |Q_1(s, pi(s))| (detached);
then Polyak averaging of all targets with rate tau. d3rlpy's defaults: alpha 2.5, gamma 0.99, tau 0.005,
sigma 0.2, c 0.5, learning rates 3e-4, batch 256, interval 2, tanh policy, 256-unit ReLU layers (smaller here).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.common.contract import Progress
from models.common.device import seeded_init
from models.lift_offline_rl.augment import Transitions

__all__ = ["TD3BCConfig", "TD3PlusBC"]


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


class TD3PlusBC:
    """Actor, twin critics, their targets and optimisers; `update` takes one d3rlpy-style TD3+BC step."""

    def __init__(self, observation_size: int, action_size: int, config: TD3BCConfig, seed: int, device: str) -> None:
        self.config, self.device = config, device
        self.generator = torch.Generator(device=device).manual_seed(seed)
        self.actor, self.critics = seeded_init(seed, lambda: (
            _mlp(observation_size, action_size, config.hidden).to(device),
            nn.ModuleList([_mlp(observation_size + action_size, 1, config.hidden) for _ in range(2)]).to(device)))
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_targets = copy.deepcopy(self.critics)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=config.actor_learning_rate)
        self.critic_optim = torch.optim.Adam(self.critics.parameters(), lr=config.critic_learning_rate)
        self.steps = 0

    def policy(self, observations: torch.Tensor, *, target: bool = False) -> torch.Tensor:
        return torch.tanh((self.actor_target if target else self.actor)(observations))

    def _q(self, critics: nn.ModuleList, observations: torch.Tensor, actions: torch.Tensor) -> list[torch.Tensor]:
        joined = torch.cat([observations, actions], dim=1)
        return [critic(joined)[:, 0] for critic in critics]

    def update(self, batch: tuple[torch.Tensor, ...]) -> tuple[float, float | None]:
        """One critic step (and an actor step every `update_actor_interval`); returns the two losses."""
        o, a, r, o2, done = batch
        c = self.config
        with torch.no_grad():
            noise = torch.randn(a.shape, generator=self.generator, device=self.device) * c.target_smoothing_sigma
            next_action = (self.policy(o2, target=True) + noise.clamp(-c.target_smoothing_clip,
                                                                      c.target_smoothing_clip)).clamp(-1.0, 1.0)
            next_q = torch.minimum(*self._q(self.critic_targets, o2, next_action))
            y = r + c.gamma * (1.0 - done) * next_q
        critic_loss = sum(((q - y) ** 2).mean() for q in self._q(self.critics, o, a))
        assert isinstance(critic_loss, torch.Tensor)
        self.critic_optim.zero_grad(set_to_none=True)
        critic_loss.backward()
        self.critic_optim.step()
        self.steps += 1
        actor_value: float | None = None
        if self.steps % c.update_actor_interval == 0:
            action = self.policy(o)
            q_t = self._q(self.critics[:1], o, action)[0]
            lam = c.alpha / q_t.abs().mean().detach()
            actor_loss = lam * -q_t.mean() + ((a - action) ** 2).mean()
            self.actor_optim.zero_grad(set_to_none=True)
            actor_loss.backward()
            self.actor_optim.step()
            actor_value = float(actor_loss.detach())
            with torch.no_grad():
                for net, target in ((self.actor, self.actor_target), (self.critics, self.critic_targets)):
                    for p, p_target in zip(net.parameters(), target.parameters(), strict=True):
                        p_target.mul_(1.0 - c.tau).add_(c.tau * p)
        return float(critic_loss.detach()), actor_value

    def fit(self, data: Transitions, steps: int, rng: np.random.Generator, progress: Progress,
            evaluate: Callable[[TD3PlusBC], None], evaluations: int) -> None:
        """`steps` updates on minibatches drawn with replacement; `evaluate(self)` at evenly spaced steps."""
        tensors = [torch.tensor(x, dtype=torch.float32, device=self.device) for x in
                   (data.observations, data.actions, data.rewards, data.next_observations, data.terminals)]
        marks = {round(steps * (k + 1) / evaluations) for k in range(evaluations)}
        for step in range(1, steps + 1):
            rows = torch.as_tensor(rng.integers(0, data.size, size=self.config.batch_size), device=self.device)
            self.update(tuple(t[rows] for t in tensors))
            if step in marks:
                evaluate(self)
            if step % 50 == 0 or step == steps:
                progress(step / steps, f"TD3+BC step {step}/{steps}")
