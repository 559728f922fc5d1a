"""Shortcut synthesis (the paper's Algorithm 1): summed logged actions between logged states, kept under a value
condition, using only what was logged (no model, no target estimate).

For a logged trajectory with rewards r_0..r_{T-1}, G_i = sum_{k>=i} gamma^{k-i} r_k is the Monte-Carlo return
(G_T = 0). For positions i < j - 1 the candidate action is a = sum_{k=i}^{j-1} a_k; it is kept when
gamma G_j - G_i + r_{j-1} >= C sum_k ||a_k|| (C = 0, the paper's default) and a is one action (every coordinate in
[-1, 1]; with the linear dynamics x' = x + STEP a it then moves x_i exactly to x_j away from the box walls). The
synthetic transition is (o_i, a, r_{j-1}, o_j), terminal when j ends a successful episode. Per position one kept
candidate is drawn with probability proportional to its reward minus the smallest candidate reward.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from models.lift_offline_rl.logging_policy import Trajectory

__all__ = ["GAMMA", "Candidate", "Transitions", "augmented", "candidates", "mc_returns", "raw", "shortcuts"]

GAMMA = 0.99  # discount of the Monte-Carlo returns (the learner's gamma)
VALUE_MARGIN = 0.0  # C of the value condition (the paper's default)


@dataclass(frozen=True)
class Transitions:
    """(o, a, r, o', terminal) arrays, one row per transition."""

    observations: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    next_observations: np.ndarray
    terminals: np.ndarray

    @property
    def size(self) -> int:
        return int(self.rewards.shape[0])

    @classmethod
    def concat(cls, parts: Sequence[Transitions], dimension: int) -> Transitions:
        if not parts:
            empty = np.zeros((0, dimension))
            return cls(empty, empty, np.zeros(0), empty, np.zeros(0))
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                     ("observations", "actions", "rewards", "next_observations", "terminals")))


@dataclass(frozen=True)
class Candidate:
    """A kept shortcut from logged position i to logged position j (j >= i + 2) with the summed action."""

    i: int
    j: int
    action: np.ndarray
    reward: float


def mc_returns(rewards: np.ndarray, gamma: float = GAMMA) -> np.ndarray:
    """G_0..G_T with G_T = 0 and G_i = r_i + gamma G_{i+1}."""
    out = np.zeros(len(rewards) + 1)
    for i in range(len(rewards) - 1, -1, -1):
        out[i] = rewards[i] + gamma * out[i + 1]
    return out


def candidates(trajectory: Trajectory, gamma: float = GAMMA, margin: float = VALUE_MARGIN) -> list[Candidate]:
    """Every (i, j), j >= i + 2, whose summed action is one action and meets the value condition."""
    a, r = trajectory.actions, trajectory.rewards
    G = mc_returns(r, gamma)
    T = len(r)
    kept = []
    for i in range(T):
        total, length = np.zeros(a.shape[1]), 0.0
        for j in range(i + 1, T + 1):
            total = total + a[j - 1]
            length += float(np.linalg.norm(a[j - 1]))
            if j < i + 2 or np.abs(total).max() > 1.0:
                continue
            if gamma * G[j] - G[i] + r[j - 1] >= margin * length:
                kept.append(Candidate(i, j, total.copy(), float(r[j - 1])))
    return kept


def shortcuts(trajectory: Trajectory, rng: np.random.Generator, gamma: float = GAMMA) -> Transitions:
    """One kept candidate per logged position, drawn with probability proportional to reward - min reward."""
    found = candidates(trajectory, gamma)
    d = trajectory.actions.shape[1]
    rows = []
    for i in sorted({c.i for c in found}):
        mine = [c for c in found if c.i == i]
        rewards = np.array([c.reward for c in mine])
        weight = rewards - rewards.min()
        pick = mine[int(rng.choice(len(mine), p=weight / weight.sum()))] if weight.sum() > 0 else mine[
            int(rng.integers(len(mine)))]
        rows.append(pick)
    if not rows:
        return Transitions.concat([], d)
    last = trajectory.length
    o = trajectory.observations
    return Transitions(np.array([o[c.i] for c in rows]), np.array([c.action for c in rows]),
                       np.array([c.reward for c in rows]), np.array([o[c.j] for c in rows]),
                       np.array([1.0 if (c.j == last and trajectory.success) else 0.0 for c in rows]))


def _logged(trajectory: Trajectory) -> Transitions:
    T = trajectory.length
    terminals = np.zeros(T)
    if trajectory.success:
        terminals[-1] = 1.0
    return Transitions(trajectory.observations[:-1], trajectory.actions, trajectory.rewards,
                       trajectory.observations[1:], terminals)


def raw(trajectories: Sequence[Trajectory], dimension: int) -> Transitions:
    """The logged transitions as they are."""
    return Transitions.concat([_logged(t) for t in trajectories], dimension)


def augmented(trajectories: Sequence[Trajectory], dimension: int, rng: np.random.Generator) -> Transitions:
    """The logged transitions plus one Algorithm-1 shortcut per logged position that has one."""
    return Transitions.concat([_logged(t) for t in trajectories] + [shortcuts(t, rng) for t in trajectories],
                              dimension)
