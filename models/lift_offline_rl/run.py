"""run(params, progress): log the walk, augment, train TD3+BC on raw and augmented data, evaluate, sweep."""

from __future__ import annotations

import numpy as np
import torch

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.lift_offline_rl.augment import Transitions, augmented, raw, shortcut
from models.lift_offline_rl.env import STEP, Positioning
from models.lift_offline_rl.evaluation import Evaluation, rollout
from models.lift_offline_rl.logging_policy import Trajectory, collect
from models.lift_offline_rl.params import Params
from models.lift_offline_rl.result import CurvePoint, IntPair, Pair, Path, Result, SweepPoint
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC

__all__ = ["MAX_STEPS", "run"]

MAX_STEPS = 40000  # TD3+BC updates over all learners of one run
SHOWN_LOGS = 4


def _check_budget(params: Params) -> None:
    learners = 2 * (1 + len([n for n in params.trajectory_sweep if n != params.trajectories]))
    if learners * params.train_steps > MAX_STEPS:
        raise MethodInputError(f"train_steps: {learners} learners x {params.train_steps} steps is above the limit of "
                               f"{MAX_STEPS:,} updates per run; use fewer steps or a shorter trajectory_sweep")


def _datasets(env: Positioning, count: int, params: Params) -> tuple[list[Trajectory], list[Trajectory], Transitions,
                                                                      Transitions, int, float]:
    """Raw logs (the unhelped walk) and the augmented set (helped walk on the same episodes, plus shortcuts)."""
    logs = collect(env, count, np.random.default_rng([params.seed, count, 1]))
    helped = collect(env, count, np.random.default_rng([params.seed, count, 1]), help_logging=params.help_logging)
    data, recovered, error = augmented(env, helped, np.random.default_rng([params.seed, count, 2]))
    return logs, helped, raw(logs, env.dimension), data, recovered, error


def _policy(agent: TD3PlusBC):  # type: ignore[no-untyped-def]
    def act(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            tensor = torch.tensor(observations, dtype=torch.float32, device=agent.device)
            return agent.policy(tensor).cpu().numpy().astype(float)
    return act


def _train(env: Positioning, data: Transitions, params: Params, label: str, starts: np.ndarray, targets: np.ndarray,
           progress: Progress, curves: list[CurvePoint] | None) -> tuple[TD3PlusBC, Evaluation]:
    agent = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(), params.seed, torch_device())
    final: list[Evaluation] = []

    def evaluate(learner: TD3PlusBC) -> None:
        outcome = rollout(env, _policy(learner), starts, targets)
        final[:] = [outcome]
        if curves is not None:
            curves.append(CurvePoint(step=learner.steps, data=label, success_rate=outcome.success_rate,
                                     mean_return=outcome.mean_return))

    agent.fit(data, params.train_steps, np.random.default_rng([params.seed, 3]), progress, evaluate,
              params.evaluations if curves is not None else 1)
    return agent, final[0]


def _paths(env: Positioning, logs: list[Trajectory], helped: list[Trajectory], raw_eval: Evaluation,
           aug_eval: Evaluation, targets: np.ndarray) -> list[Path]:
    def project(points: np.ndarray, target: np.ndarray, kind: str) -> Path:
        shifted = points - target
        return Path(kind=kind, x=shifted[:, 0].tolist(), y=shifted[:, 1].tolist())

    paths = [project(t.positions, t.target, "logged") for t in logs[:SHOWN_LOGS]]
    paths += [project(t.positions, t.target, "logged with help") for t in helped[:SHOWN_LOGS] if t.helped_from >= 0]
    first = logs[0]
    for i in range(0, len(first.positions) - 1, max(1, (len(first.positions) - 1) // 4)):
        cut = shortcut(env, first.positions[i], first.target, first.target, env.horizon)
        start = first.positions[i]
        steps = np.cumsum(np.clip(cut.actions, -1, 1) * STEP, axis=0) + start
        paths.append(project(np.vstack([start, np.clip(steps, -1, 1)]), first.target, "shortcut"))
    for k in range(min(SHOWN_LOGS, raw_eval.paths.shape[0])):
        paths.append(project(raw_eval.paths[k], targets[k], "learned (raw)"))
        paths.append(project(aug_eval.paths[k], targets[k], "learned (augmented)"))
    return paths


def run(params: Params, progress: Progress) -> Result:
    """Headline learners with learning curves at `trajectories`, then final success for each sweep count."""
    _check_budget(params)
    monotone = MonotoneProgress(progress)
    env = Positioning(params.dimension, params.partial_observation)
    starts, targets = env.reset(np.random.default_rng([params.seed, 2]), params.eval_episodes)
    monotone(0.0, f"logging {params.trajectories} trajectories and augmenting them")
    logs, helped, raw_data, aug_data, recovered, error = _datasets(env, params.trajectories, params)
    counts = [n for n in params.trajectory_sweep if n != params.trajectories]
    share = 1.0 / (2 * (1 + len(counts)))
    curves: list[CurvePoint] = []
    _, raw_eval = _train(env, raw_data, params, "raw", starts, targets, monotone.stage(0, share), curves)
    _, aug_eval = _train(env, aug_data, params, "augmented", starts, targets, monotone.stage(share, 2 * share), curves)
    sweep = [SweepPoint(trajectories=params.trajectories,
                        success_rate=Pair(raw=raw_eval.success_rate, augmented=aug_eval.success_rate),
                        transitions=IntPair(raw=raw_data.size, augmented=aug_data.size))]
    for index, count in enumerate(counts):
        _, _, r_data, a_data, _, _ = _datasets(env, count, params)
        base = 2 * (index + 1) * share
        _, r = _train(env, r_data, params, "raw", starts, targets, monotone.stage(base, base + share), None)
        _, a = _train(env, a_data, params, "augmented", starts, targets, monotone.stage(base + share, base + 2 * share),
                      None)
        sweep.append(SweepPoint(trajectories=count, success_rate=Pair(raw=r.success_rate, augmented=a.success_rate),
                                transitions=IntPair(raw=r_data.size, augmented=a_data.size)))
    optimal = np.ceil(np.abs(starts - targets).max(axis=1) / STEP)
    monotone(1.0, "done")
    return Result(
        dimension=params.dimension, trajectories=params.trajectories, partial_observation=params.partial_observation,
        help_logging=params.help_logging, train_steps=params.train_steps,
        success_rate=Pair(raw=raw_eval.success_rate, augmented=aug_eval.success_rate),
        mean_return=Pair(raw=raw_eval.mean_return, augmented=aug_eval.mean_return),
        mean_steps=Pair(raw=raw_eval.mean_steps, augmented=aug_eval.mean_steps),
        transitions=IntPair(raw=raw_data.size, augmented=aug_data.size),
        logging_success_rate=Pair(raw=float(np.mean([t.success for t in logs])),
                                  augmented=float(np.mean([t.success for t in helped]))),
        targets_recovered=recovered, recovery_error=error, optimal_steps=float(optimal.mean()), curves=curves,
        sweep=sorted(sweep, key=lambda s: s.trajectories), paths=_paths(env, logs, helped, raw_eval, aug_eval, targets),
    )
