"""The scripted logging policy (a coarse-to-fine coordinate walk), LIFT's collection-time augmentor, the logs.

LIFT (the paper's Algorithm 2): while a new episode is collected, with probability RATE per step (at most CAP
times an episode) a learned augmentor's action replaces the logger's, and the logger's internal state (active
coordinate, coarse or fine) is reset at the new state, so the script resumes from there (the hand-off).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models.lift_offline_rl.env import Positioning

__all__ = ["CAP", "COARSE", "FINE", "NOISE", "RATE", "Trajectory", "collect"]

COARSE = 1.0  # action size of the coarse pass (moves STEP = 0.2)
FINE = 0.25  # action size of the fine pass (moves 0.05)
NOISE = 0.1  # Gaussian noise on the active coordinate's action
RATE = 0.6  # the paper's probability that the augmentor replaces the logger's action
CAP = 20  # the paper's most replaced actions per trajectory

Augmentor = Callable[[np.ndarray], np.ndarray]  # observation (D,) -> action (D,)


@dataclass(frozen=True)
class Trajectory:
    """One logged episode: positions x_0..x_T, observations, actions a_0..a_{T-1}, rewards, success flag."""

    positions: np.ndarray  # (T + 1) x D
    observations: np.ndarray  # (T + 1) x D
    actions: np.ndarray  # T x D
    rewards: np.ndarray  # T
    success: bool
    target: np.ndarray  # the true target (for plots and tests only: the augmentation never reads it)
    replaced: int  # actions the augmentor took over (0 for a plain log)

    @property
    def length(self) -> int:
        return int(self.actions.shape[0])


@dataclass
class _Walker:
    """The coordinate walk's internal state: active coordinate, fine pass or not, the last reading's sign."""

    coordinate: int = 0
    fine: bool = False
    last_sign: float = 1.0

    def reset(self, o: np.ndarray) -> None:
        self.coordinate, self.fine, self.last_sign = 0, False, float(np.sign(o[0]) or 1.0)

    def act(self, o: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Coarse moves until the reading of the active coordinate changes sign, fine moves until it changes
        sign again, then the next coordinate."""
        d = len(o)
        action = np.zeros(d)
        if self.coordinate >= d:
            return action
        sign = float(np.sign(o[self.coordinate]) or 1.0)
        if sign != self.last_sign:
            if self.fine:
                self.coordinate, self.fine = self.coordinate + 1, False
                sign = float(np.sign(o[self.coordinate])) if self.coordinate < d else 0.0
            else:
                self.fine = True
        self.last_sign = sign
        if self.coordinate < d:
            size = FINE if self.fine else COARSE
            action[self.coordinate] = np.clip(-sign * size + NOISE * rng.standard_normal(), -1.0, 1.0)
        return action


def _walk(env: Positioning, start: np.ndarray, target: np.ndarray, rng: np.random.Generator,
          augmentor: Augmentor | None) -> Trajectory:
    d = env.dimension
    positions, observations = [start], [env.observe(start, target)]
    actions: list[np.ndarray] = []
    rewards: list[float] = []
    walker = _Walker()
    walker.reset(observations[0])
    success, replaced = False, 0
    for _ in range(env.horizon):
        x, o = positions[-1], observations[-1]
        take_over = augmentor is not None and replaced < CAP and rng.random() < RATE
        if take_over:
            assert augmentor is not None
            action = np.clip(augmentor(o), -1.0, 1.0)
            replaced += 1
        else:
            action = walker.act(o, rng)
        moved, reward, hit = env.step(x[None], action[None], target[None])
        positions.append(moved[0])
        observations.append(env.observe(moved[0], target))
        if take_over:
            walker.reset(observations[-1])  # the hand-off: the script starts afresh from the new state
        actions.append(action)
        rewards.append(float(reward[0]))
        if hit[0]:
            success = True
            break
    return Trajectory(np.array(positions), np.array(observations), np.array(actions).reshape(-1, d),
                      np.array(rewards), success, target, replaced)


def collect(env: Positioning, episodes: int, rng: np.random.Generator, *, augmentor: Augmentor | None = None
            ) -> list[Trajectory]:
    """`episodes` logged trajectories of the coordinate walk (with the augmentor taking over, when given)."""
    starts, targets = env.reset(rng, episodes)
    return [_walk(env, starts[i], targets[i], rng, augmentor) for i in range(episodes)]
