"""The scripted logging policy (a coarse-to-fine coordinate walk), optional help, and the logged trajectories."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.lift_offline_rl.augment import straight_action, trilaterate
from models.lift_offline_rl.env import Positioning

__all__ = ["COARSE", "FINE", "NOISE", "Trajectory", "collect"]

COARSE = 1.0  # action size of the coarse pass (moves STEP = 0.2)
FINE = 0.25  # action size of the fine pass (moves 0.05)
NOISE = 0.1  # Gaussian noise on the active coordinate's action


@dataclass(frozen=True)
class Trajectory:
    """One logged episode: positions x_0..x_T, observations, actions a_0..a_{T-1}, rewards, success flag."""

    positions: np.ndarray  # (T + 1) x D
    observations: np.ndarray  # (T + 1) x D
    actions: np.ndarray  # T x D
    rewards: np.ndarray  # T
    success: bool
    target: np.ndarray  # the true target (for plots and tests only: the augmentation never reads it)
    helped_from: int  # step at which the helper took over (-1: never)

    @property
    def length(self) -> int:
        return int(self.actions.shape[0])


def _walk(env: Positioning, start: np.ndarray, target: np.ndarray, rng: np.random.Generator, help_logging: bool
          ) -> Trajectory:
    """Coordinates one after another: coarse moves until the reading changes sign, fine moves until it changes
    sign again, next coordinate. With help, the helper first makes one small probe move per coordinate (FINE
    along e_j) so that the first D rewards locate the target (trilateration of rank D), then steers straight
    to the estimate; if the rewards do not locate it, the walk goes on."""
    d = env.dimension
    positions, observations = [start], [env.observe(start, target)]
    actions: list[np.ndarray] = []
    rewards: list[float] = []
    coordinate, fine, success, helped_from = 0, False, False, -1
    estimate: np.ndarray | None = None
    last_sign = np.sign(observations[0][0])
    for t in range(env.horizon):
        x, o = positions[-1], observations[-1]
        if help_logging and estimate is None and len(rewards) >= d:
            estimate = trilaterate(np.array(positions[1:]), -np.array(rewards))
            helped_from = t if estimate is not None else -1
        action = np.zeros(d)
        if help_logging and t < d:
            action[t] = FINE
        elif estimate is not None:
            action = straight_action(x, estimate)
        elif coordinate < d:
            sign = np.sign(o[coordinate]) or 1.0
            if sign != last_sign:
                if fine:
                    coordinate, fine = coordinate + 1, False
                    sign = np.sign(o[coordinate]) if coordinate < d else 0.0
                else:
                    fine = True
            last_sign = sign
            if coordinate < d:
                size = FINE if fine else COARSE
                action[coordinate] = np.clip(-sign * size + NOISE * rng.standard_normal(), -1.0, 1.0)
        moved, reward, hit = env.step(x[None], action[None], target[None])
        positions.append(moved[0])
        observations.append(env.observe(moved[0], target))
        actions.append(action)
        rewards.append(float(reward[0]))
        if hit[0]:
            success = True
            break
    return Trajectory(np.array(positions), np.array(observations), np.array(actions), np.array(rewards), success,
                      target, helped_from)


def collect(env: Positioning, episodes: int, rng: np.random.Generator, *, help_logging: bool = False
            ) -> list[Trajectory]:
    """`episodes` logged trajectories of the coordinate walk from random starts to random targets."""
    starts, targets = env.reset(rng, episodes)
    return [_walk(env, starts[i], targets[i], rng, help_logging) for i in range(episodes)]
