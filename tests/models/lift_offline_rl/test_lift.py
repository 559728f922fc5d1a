"""Environment dynamics, Algorithm-1 shortcuts, the logging walk and LIFT's hand-off, run() keys and the headline."""

from __future__ import annotations

import numpy as np
import pytest

from models.common.contract import MethodInputError, no_progress
from models.lift_offline_rl import SPEC
from models.lift_offline_rl.augment import GAMMA, augmented, candidates, mc_returns, raw, shortcuts
from models.lift_offline_rl.env import SENSOR, STEP, Positioning
from models.lift_offline_rl.logging_policy import CAP, Trajectory, collect
from models.lift_offline_rl.params import Params
from models.lift_offline_rl.result import VARIANTS
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC


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


def test_mc_returns_closed_form() -> None:
    rewards = np.array([-1.0, -0.5, -0.25])
    G = mc_returns(rewards, 0.5)
    assert G.tolist() == pytest.approx([-1.0 - 0.25 - 0.0625, -0.5 - 0.125, -0.25, 0.0])


def _brute(t: Trajectory) -> list[tuple[int, int]]:
    """Every (i, j) the paper's condition keeps, by direct sums (no running totals)."""
    G = [sum(GAMMA ** (k - i) * t.rewards[k] for k in range(i, t.length)) for i in range(t.length + 1)]
    out = []
    for i in range(t.length):
        for j in range(i + 2, t.length + 1):
            a = t.actions[i:j].sum(axis=0)
            if np.abs(a).max() <= 1.0 and GAMMA * G[j] - G[i] + t.rewards[j - 1] >= 0.0:
                out.append((i, j))
    return out


def test_shortcut_candidates_match_brute_force_and_move_exactly_between_logged_states() -> None:
    env = Positioning(4)
    logs = collect(env, 6, np.random.default_rng(3))
    total = 0
    for t in logs:
        found = candidates(t)
        assert [(c.i, c.j) for c in found] == _brute(t)
        total += len(found)
        for c in found:
            moved, reward, _ = env.step(t.positions[c.i][None], c.action[None], t.target[None])
            inside = np.abs(t.positions[c.i] + STEP * c.action).max() <= 1.0
            if inside:  # away from the walls the summed action lands exactly on the logged state j
                assert np.allclose(moved[0], t.positions[c.j]) and reward[0] == pytest.approx(c.reward)
    assert total > 0


def test_shortcut_transitions_reuse_logged_observations_and_rewards_only() -> None:
    """One transition per position with a candidate: (o_i, summed action, r_{j-1}, o_j); no target is read.
    (Full observation, so every logged observation is distinct and locates its step.)"""
    env = Positioning(4)
    t = collect(env, 1, np.random.default_rng(4))[0]
    data = shortcuts(t, np.random.default_rng(0))
    starts = {c.i for c in candidates(t)}
    assert data.size == len(starts)
    for o, a, r, o2 in zip(data.observations, data.actions, data.rewards, data.next_observations, strict=True):
        i = int(np.flatnonzero((t.observations == o).all(axis=1))[0])
        j = int(np.flatnonzero((t.observations == o2).all(axis=1))[0])
        assert j >= i + 2 and np.allclose(a, t.actions[i:j].sum(axis=0)) and r == t.rewards[j - 1]
    hidden = Trajectory(t.positions, t.observations, t.actions, t.rewards, t.success, t.target * 0 + 9.0, 0)
    again = shortcuts(hidden, np.random.default_rng(0))
    assert np.array_equal(again.actions, data.actions) and np.array_equal(again.rewards, data.rewards)


def test_logging_walk_moves_one_coordinate_at_a_time() -> None:
    env = Positioning(4)
    logs = collect(env, 5, np.random.default_rng(0))
    for t in logs:
        assert all(np.count_nonzero(a) <= 1 for a in t.actions) and t.replaced == 0
        assert np.allclose(t.rewards, -np.linalg.norm(t.positions[1:] - t.target, axis=1))


def test_augmentor_takes_over_at_the_rate_within_the_cap_and_the_walk_resumes() -> None:
    """With a marker augmentor (action 0.1 on every coordinate) the replaced actions are the marked ones, at most
    CAP per episode, about 60% of the steps; after a hand-off the walk restarts on coordinate 0."""
    env = Positioning(4)
    marker = np.full(4, 0.1)
    logs = collect(env, 40, np.random.default_rng(5), augmentor=lambda o: marker)
    replaced = [int(np.all(t.actions == marker, axis=1).sum()) for t in logs]
    assert replaced == [t.replaced for t in logs] and max(replaced) <= CAP
    share = sum(replaced) / sum(t.length for t in logs)
    assert 0.5 < share < 0.7
    for t in logs:
        for k in range(t.length - 1):
            if np.all(t.actions[k] == marker) and not np.all(t.actions[k + 1] == marker) and np.any(t.actions[k + 1]):
                assert np.flatnonzero(t.actions[k + 1])[0] == 0  # the script starts afresh on coordinate 0


def test_augmented_data_keep_the_logs() -> None:
    env = Positioning(4)
    logs = collect(env, 10, np.random.default_rng(1))
    data = augmented(logs, 4, np.random.default_rng(2))
    base = raw(logs, 4)
    assert data.size > base.size and np.array_equal(data.observations[: base.size], base.observations)


def test_result_keys_claims_and_determinism() -> None:
    params = Params(dimension=2, trajectories=6, trajectory_sweep=[3], train_steps=50, evaluations=2, eval_episodes=10,
                    seeds=2, ablations=True)
    a = SPEC.run(params, no_progress)
    b = SPEC.run(params, no_progress)
    assert a.model_dump() == b.model_dump()
    assert [v.variant for v in a.variants] == list(VARIANTS)
    assert all(len(v.success_rate) == 2 for v in a.variants) and a.seed_list == [0, 1]
    assert {c.id for c in a.claims} == {"success_gain", "path_length", "without_help", "rl_over_bc"}
    assert all(c.holds != "not_tested" for c in a.claims)
    assert [s.trajectories for s in a.sweep] == [3, 6]
    assert set(SPEC.figures(a)) == {"variants", "paths", "success_vs_trajectories", "learning_curves"}
    gain = next(c for c in a.claims if c.id == "success_gain")
    for outcome, run_seed in zip(gain.seeds, range(2), strict=True):
        raw_v, aug_v = a.variants[0].success_rate[run_seed], a.variants[1].success_rate[run_seed]
        assert outcome.value == pytest.approx(100 * (aug_v - raw_v))
        assert outcome.floor_ok == (raw_v < 0.9) and outcome.units == 10
    assert gain.null is not None and gain.null.name == "the untrained actor"


def test_without_ablations_the_ablation_claims_are_not_tested() -> None:
    result = SPEC.run(Params(dimension=2, trajectories=4, train_steps=50, evaluations=1, eval_episodes=10),
                      no_progress)
    held = {c.id: c.holds for c in result.claims}
    assert held["without_help"] == "not_tested" and held["rl_over_bc"] == "not_tested"
    assert [v.variant for v in result.variants] == ["raw", "augmented"]


def test_too_many_steps_names_the_field() -> None:
    with pytest.raises(MethodInputError, match="train_steps"):
        SPEC.run(Params(train_steps=20000, seeds=5, trajectory_sweep=[10, 20]), no_progress)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_headline_partial_observation_ten_logs(seed: int) -> None:
    """The defaults: the path-length claim reports exactly the measured ratio and its verdict. Whether shorter
    paths or the +20 points hold on a seed is the claims' business."""
    result = SPEC.run(Params(seed=seed, seeds=1), no_progress)
    claims = {c.id: c for c in result.claims}
    path = claims["path_length"].seeds[0]
    ratio = result.mean_steps.augmented / result.mean_steps.raw
    assert path.value == pytest.approx(ratio)
    assert path.holds == (ratio < 1.0 and path.floor_ok)


def test_learners_trained_side_by_side_follow_their_lone_trajectories() -> None:
    """TD3+BC of three learners (own seed, data, minibatches, alpha) stacked equals each trained alone: the same
    actor outputs after the same updates, the same validation scores at each checkpoint, the same best one."""
    env = Positioning(2)
    data = [augmented(collect(env, n, np.random.default_rng(n)), 2, np.random.default_rng(9)) for n in (3, 4, 5)]
    seeds, alphas = [7, 8, 7], [2.5, 0.0, 1.0]
    probe = env.observe(*env.reset(np.random.default_rng(1), 16))

    def train(ks: list[int]) -> tuple[TD3PlusBC, list[tuple[int, int, float]]]:
        agent = TD3PlusBC(2, 2, TD3BCConfig(hidden=16), [seeds[k] for k in ks], "cpu", alphas=[alphas[k] for k in ks])
        seen: list[tuple[int, int, float]] = []

        def evaluate(i: int, policy, step: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
            score = float(np.abs(policy(probe)).mean())
            seen.append((ks[i], step, score))
            return score, 0.0

        agent.fit([data[k] for k in ks], 40, [np.random.default_rng([seeds[k], k]) for k in ks], no_progress,
                  evaluate, 3)
        return agent, seen

    together, seen = train([0, 1, 2])
    assert len({tuple(np.round(together.act(k)(probe).ravel(), 6)) for k in range(3)}) == 3  # they differ
    for k in range(3):
        alone, mine = train([k])
        assert np.allclose(alone.act(0)(probe), together.act(k)(probe), atol=1e-6)
        ours = [s for s in seen if s[0] == k]
        assert [s[1] for s in ours] == [s[1] for s in mine] == [13, 27, 40]
        assert [s[2] for s in ours] == pytest.approx([s[2] for s in mine], abs=1e-6)
