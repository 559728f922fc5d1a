"""Environment dynamics, trilateration, shortcuts, the logging policy, TD3+BC pieces, run() keys and the headline."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.contract import MethodInputError, no_progress
from models.lift_offline_rl import SPEC
from models.lift_offline_rl.augment import augmented, raw, shortcut, trilaterate
from models.lift_offline_rl.env import SENSOR, STEP, Positioning
from models.lift_offline_rl.logging_policy import collect
from models.lift_offline_rl.params import Params
from models.lift_offline_rl.result import CLAIM_GAIN


def test_dynamics_rewards_and_observations_are_exact() -> None:
    env = Positioning(2, partial=True)
    x = np.array([[0.95, -0.1]])
    target = np.array([[0.5, 0.3]])
    moved, reward, hit = env.step(x, np.array([[1.0, 2.0]]), target)
    assert np.allclose(moved, [[1.0, 0.1]])  # clipped to the box, action clipped to [-1, 1]
    assert reward[0] == pytest.approx(-np.hypot(0.5, 0.2)) and not hit[0]
    assert np.allclose(env.observe(moved, target), np.clip((moved - target) / SENSOR, -1, 1))
    assert np.allclose(Positioning(2).observe(moved, target), moved - target)
    _, _, hit = env.step(np.array([[0.5, 0.35]]), np.array([[0.0, -0.1]]), target)
    assert hit[0]


@pytest.mark.parametrize("dimension", [2, 4, 8])
def test_trilateration_recovers_the_target_and_refuses_collinear_points(dimension: int) -> None:
    rng = np.random.default_rng(dimension)
    target = rng.uniform(-0.8, 0.8, dimension)
    points = rng.uniform(-1, 1, (dimension + 3, dimension))
    estimate = trilaterate(points, np.linalg.norm(points - target, axis=1))
    assert estimate is not None and np.allclose(estimate, target, atol=1e-10)
    line = points[0] + np.outer(np.linspace(0, 1, dimension + 3), np.ones(dimension))
    assert trilaterate(line, np.linalg.norm(line - target, axis=1)) is None


def test_shortcut_reaches_the_target_in_the_straight_line_step_count() -> None:
    env = Positioning(4)
    start, target = np.array([0.9, -0.9, 0.1, 0.0]), np.array([0.1, 0.2, 0.1, 0.05])
    path = shortcut(env, start, target, target, env.horizon)
    assert path.terminals[-1] == 1.0 and path.size <= int(np.ceil(np.abs(start - target).max() / STEP))
    assert np.allclose(path.next_observations[:-1], path.observations[1:])
    assert np.allclose(path.rewards, -np.linalg.norm(path.next_observations, axis=1))


def test_logging_walk_moves_one_coordinate_at_a_time_and_help_probes_first() -> None:
    env = Positioning(4)
    logs = collect(env, 5, np.random.default_rng(0))
    for t in logs:
        assert all(np.count_nonzero(a) <= 1 for a in t.actions)
        assert np.allclose(t.rewards, -np.linalg.norm(t.positions[1:] - t.target, axis=1))
    helped = collect(env, 5, np.random.default_rng(0), help_logging=True)
    assert all(t.helped_from == 5 for t in helped)  # D probes and one walk step give D + 1 distances
    assert np.mean([t.length for t in helped]) < np.mean([t.length for t in logs])


def test_augmentation_keeps_the_logs_and_recovers_every_target() -> None:
    env = Positioning(4)
    logs = collect(env, 10, np.random.default_rng(1))
    data, recovered, error = augmented(env, logs, np.random.default_rng(2))
    assert data.size > raw(logs, 4).size and recovered == 10 and error < 1e-9


def test_result_keys_and_determinism() -> None:
    params = Params(dimension=2, trajectories=6, trajectory_sweep=[3], train_steps=60, evaluations=2, eval_episodes=20)
    a = SPEC.run(params, no_progress)
    b = SPEC.run(params, no_progress)
    assert a.model_dump() == b.model_dump()
    dumped = a.model_dump(mode="json")
    for key in ("success_rate", "mean_return", "transitions"):
        assert set(dumped[key]) == {"raw", "augmented"}
    assert [s.trajectories for s in a.sweep] == [3, 6]
    assert set(SPEC.figures(a)) == {"paths", "success_vs_trajectories", "learning_curves"}


def test_too_many_steps_names_the_field() -> None:
    with pytest.raises(MethodInputError, match="train_steps"):
        SPEC.run(Params(train_steps=20000, trajectory_sweep=[10, 20]), no_progress)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_headline_fifty_logs_in_four_dimensions(seed: int) -> None:
    """The issue's check at the defaults (2,000 steps). The +20-point gain holds only on some seeds (the raw
    learner often also reaches 100%), so this asserts the verdict matches the numbers, and what does hold on every
    seed we ran: augmented data is never worse in success and always better in mean return (shorter paths)."""
    result = SPEC.run(Params(seed=seed, trajectory_sweep=[]), no_progress)
    assert (result.verdict().tone == "success") == (result.gain() >= CLAIM_GAIN)
    assert result.success_rate.augmented >= result.success_rate.raw
    assert result.mean_return.augmented > result.mean_return.raw
