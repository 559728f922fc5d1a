"""Trajectory augmentation: recover the target from logged rewards, then add relabelled shortcut transitions.

The reward is -||x - target||, so each logged (position, reward) pair is a sphere around the target;
D + 1 affinely independent positions determine it (trilateration). With the recovered target every
synthetic transition under the known dynamics gets its exact reward and observation ("relabelled").
Shortcuts: from every logged state straight to the target, and from a logged state straight to a later
logged state of the same episode (paths the coordinate walk never took).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from models.lift_offline_rl.env import STEP, Positioning

if TYPE_CHECKING:
    from models.lift_offline_rl.logging_policy import Trajectory

__all__ = ["PAIRS_PER_STATE", "Transitions", "augmented", "raw", "shortcut", "straight_action", "trilaterate"]

PAIRS_PER_STATE = 2  # shortcuts from each logged state to random later logged states
RANK_TOLERANCE = 1e-6


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


def trilaterate(positions: np.ndarray, distances: np.ndarray) -> np.ndarray | None:
    """The point at the given distances from the given positions (least squares), or None when the positions
    do not span D dimensions.

    ||p_i - t||^2 = d_i^2 minus the same equation for p_0 is linear in t:
    2 (p_i - p_0) . t = ||p_i||^2 - ||p_0||^2 - d_i^2 + d_0^2.
    """
    if positions.shape[0] < positions.shape[1] + 1:
        return None
    A = 2.0 * (positions[1:] - positions[0])
    b = (positions[1:] ** 2).sum(1) - (positions[0] ** 2).sum() - distances[1:] ** 2 + distances[0] ** 2
    singular = np.linalg.svd(A, compute_uv=False)
    if singular[-1] < RANK_TOLERANCE * max(singular[0], 1.0):
        return None
    solution, *_ = np.linalg.lstsq(A, b, rcond=None)
    return np.asarray(solution)


def straight_action(position: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """The action that moves straight at the goal, at most STEP per coordinate (exact arrival when in reach)."""
    return np.clip((goal - position) / STEP, -1.0, 1.0)


def shortcut(env: Positioning, start: np.ndarray, goal: np.ndarray, target: np.ndarray, steps: int) -> Transitions:
    """At most `steps` transitions from `start` straight to `goal`, rewards and observations from `target`;
    stops on arrival or on success (terminal)."""
    rows: list[tuple[np.ndarray, np.ndarray, float, np.ndarray, float]] = []
    x = start
    for _ in range(steps):
        action = straight_action(x, goal)
        moved, reward, hit = env.step(x[None], action[None], target[None])
        rows.append((env.observe(x, target), action, float(reward[0]), env.observe(moved[0], target), float(hit[0])))
        x = moved[0]
        if hit[0] or np.allclose(x, goal):
            break
    if not rows:
        return Transitions.concat([], env.dimension)
    o, a, r, o2, done = zip(*rows, strict=True)
    return Transitions(np.array(o), np.array(a), np.array(r), np.array(o2), np.array(done))


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


def augmented(env: Positioning, trajectories: Sequence[Trajectory], rng: np.random.Generator, *,
              target_shortcuts: bool = True, state_shortcuts: bool = True) -> tuple[Transitions, int, float]:
    """Logged transitions plus shortcuts for every episode whose target the rewards determine.

    `target_shortcuts`: from every logged state straight to the trilaterated target; `state_shortcuts`:
    relabelled paths from a logged state straight to later logged states (the ablations switch each off).
    Returns the transitions, the number of episodes whose target was recovered, and the largest recovery
    error (0 when none was recovered; the true target is read only for this diagnostic).
    """
    parts = [_logged(t) for t in trajectories]
    recovered, worst_error = 0, 0.0
    for trajectory in trajectories:
        estimate = trilaterate(trajectory.positions[1:], -trajectory.rewards)
        if estimate is None:
            continue
        recovered += 1
        worst_error = max(worst_error, float(np.abs(estimate - trajectory.target).max()))
        visited = trajectory.positions
        for i in range(len(visited) - 1):
            if target_shortcuts:
                parts.append(shortcut(env, visited[i], estimate, estimate, env.horizon))
            if not state_shortcuts:
                continue
            later = np.arange(i + 2, len(visited))
            for j in rng.choice(later, size=min(PAIRS_PER_STATE, later.size), replace=False):
                parts.append(shortcut(env, visited[i], visited[j], estimate, env.horizon))
    return Transitions.concat(parts, env.dimension), recovered, worst_error
