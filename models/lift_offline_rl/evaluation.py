"""Roll a policy out on seeded evaluation episodes (all at once): success rate, mean return, 2-D paths."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.lift_offline_rl.env import Positioning

__all__ = ["Evaluation", "rollout"]

Policy = Callable[[np.ndarray], np.ndarray]  # observations (n x D) -> actions (n x D)


@dataclass(frozen=True)
class Evaluation:
    success_rate: float
    mean_return: float
    mean_steps: float
    paths: np.ndarray  # episodes x (horizon + 1) x D positions (frozen after success)
    successes: np.ndarray  # per episode: 1.0 when it reached the target
    steps: np.ndarray  # per episode: steps taken


def rollout(env: Positioning, policy: Policy, starts: np.ndarray, targets: np.ndarray) -> Evaluation:
    """Run every episode to success or the horizon; the return sums -||x - target|| over the steps taken."""
    x = starts.copy()
    alive = np.ones(len(x), dtype=bool)
    returns = np.zeros(len(x))
    steps = np.zeros(len(x))
    paths = [x.copy()]
    for _ in range(env.horizon):
        actions = policy(env.observe(x, targets))
        moved, reward, hit = env.step(x, actions, targets)
        x = np.where(alive[:, None], moved, x)
        returns += np.where(alive, reward, 0.0)
        steps += alive
        alive &= ~hit
        paths.append(x.copy())
        if not alive.any():
            break
    while len(paths) < env.horizon + 1:
        paths.append(x.copy())
    return Evaluation(float(np.mean(~alive)), float(returns.mean()), float(steps.mean()), np.stack(paths, axis=1),
                      (~alive).astype(float), steps)
