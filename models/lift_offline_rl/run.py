"""run(params, progress): per seed, log the walk, augment, train TD3+BC on each data variant, evaluate; claims."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models.common.claims import Measurement, Standing, evaluate_claims, seed_values
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.lift_offline_rl.augment import Transitions, augmented, raw, shortcut
from models.lift_offline_rl.claims import CLAIMS, ROOM
from models.lift_offline_rl.env import STEP, Positioning
from models.lift_offline_rl.evaluation import Evaluation, rollout
from models.lift_offline_rl.logging_policy import Trajectory, collect
from models.lift_offline_rl.params import Params
from models.lift_offline_rl.result import (
    VARIANTS,
    CurvePoint,
    IntPair,
    Pair,
    Path,
    PathKind,
    Result,
    SweepPoint,
    VariantScore,
)
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC

__all__ = ["MAX_STEPS", "run"]

MAX_STEPS = 120000  # TD3+BC updates over all learners of one run
SHOWN_LOGS = 4
ABLATIONS = ("no_help", "no_target_shortcuts", "no_state_shortcuts", "help_only", "bc_augmented")


def _variants(params: Params) -> tuple[str, ...]:
    return ("raw", "augmented") + (ABLATIONS if params.ablations else ())


def _check_budget(params: Params) -> None:
    sweep = len([n for n in params.trajectory_sweep if n != params.trajectories])
    learners = len(_variants(params)) * params.seeds + 2 * sweep
    if learners * params.train_steps > MAX_STEPS:
        raise MethodInputError(f"train_steps: {learners} learners x {params.train_steps} steps is above the limit of "
                               f"{MAX_STEPS:,} updates per run; use fewer steps, seeds, ablations or a shorter "
                               "trajectory_sweep")


@dataclass(frozen=True)
class Logs:
    """One seed's logged episodes: the unhelped walk (raw) and the helped walk on the same episodes."""

    plain: list[Trajectory]
    helped: list[Trajectory]


def _logs(env: Positioning, count: int, seed: int, params: Params) -> Logs:
    plain = collect(env, count, np.random.default_rng([seed, count, 1]))
    helped = collect(env, count, np.random.default_rng([seed, count, 1]), help_logging=params.help_logging)
    return Logs(plain, helped)


def _data(env: Positioning, logs: Logs, variant: str, seed: int, count: int) -> tuple[Transitions, int, float]:
    """The transitions one variant learns from (and the trilateration diagnostics of its augmentation)."""
    rng = np.random.default_rng([seed, count, 2])
    if variant == "raw":
        return raw(logs.plain, env.dimension), 0, 0.0
    if variant == "help_only":
        return raw(logs.helped, env.dimension), 0, 0.0
    source = logs.plain if variant == "no_help" else logs.helped
    return augmented(env, source, rng, target_shortcuts=variant != "no_target_shortcuts",
                     state_shortcuts=variant != "no_state_shortcuts")


def _policy(agent: TD3PlusBC):  # type: ignore[no-untyped-def]
    def act(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            tensor = torch.tensor(observations, dtype=torch.float32, device=agent.device)
            return agent.policy(tensor).cpu().numpy().astype(float)
    return act


def _train(env: Positioning, data: Transitions, params: Params, seed: int, label: str, episodes: tuple[np.ndarray, np.ndarray],
           progress: Progress, curves: list[CurvePoint] | None, *, alpha: float) -> Evaluation:
    agent = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(alpha=alpha), seed, torch_device())
    final: list[Evaluation] = []

    def evaluate(learner: TD3PlusBC) -> None:
        outcome = rollout(env, _policy(learner), *episodes)
        final[:] = [outcome]
        if curves is not None:
            curves.append(CurvePoint(step=learner.steps, data=label, success_rate=outcome.success_rate,
                                     mean_return=outcome.mean_return))

    agent.fit(data, params.train_steps, np.random.default_rng([seed, 3]), progress, evaluate,
              params.evaluations if curves is not None else 1)
    return final[0]


def _paths(env: Positioning, logs: Logs, raw_eval: Evaluation, aug_eval: Evaluation, targets: np.ndarray) -> list[Path]:
    def project(points: np.ndarray, target: np.ndarray, kind: PathKind) -> Path:
        shifted = points - target
        return Path(kind=kind, x=shifted[:, 0].tolist(), y=shifted[:, 1].tolist())

    paths = [project(t.positions, t.target, "logged") for t in logs.plain[:SHOWN_LOGS]]
    paths += [project(t.positions, t.target, "logged with help") for t in logs.helped[:SHOWN_LOGS] if t.helped_from >= 0]
    first = logs.plain[0]
    for i in range(0, len(first.positions) - 1, max(1, (len(first.positions) - 1) // 4)):
        cut = shortcut(env, first.positions[i], first.target, first.target, env.horizon)
        start = first.positions[i]
        steps = np.cumsum(np.clip(cut.actions, -1, 1) * STEP, axis=0) + start
        paths.append(project(np.vstack([start, np.clip(steps, -1, 1)]), first.target, "shortcut"))
    for k in range(min(SHOWN_LOGS, raw_eval.paths.shape[0])):
        paths.append(project(raw_eval.paths[k], targets[k], "learned (raw)"))
        paths.append(project(aug_eval.paths[k], targets[k], "learned (augmented)"))
    return paths


@dataclass
class SeedRun:
    """One seed: every variant's evaluation and transition count; the first seed also keeps its curves."""

    evaluations: dict[str, Evaluation]
    sizes: dict[str, int]
    logs: Logs
    recovered: int
    error: float
    episodes: tuple[np.ndarray, np.ndarray]


def _run_seed(env: Positioning, params: Params, seed: int, progress: Progress, curves: list[CurvePoint] | None
              ) -> SeedRun:
    episodes = env.reset(np.random.default_rng([seed, 2]), params.eval_episodes)
    logs = _logs(env, params.trajectories, seed, params)
    variants = _variants(params)
    monotone = MonotoneProgress(progress)
    evaluations: dict[str, Evaluation] = {}
    sizes: dict[str, int] = {}
    recovered, error = 0, 0.0
    for k, variant in enumerate(variants):
        data, found, worst = _data(env, logs, variant, seed, params.trajectories)
        if variant == "augmented":
            recovered, error = found, worst
        sizes[variant] = data.size
        stage = monotone.stage(k / len(variants), (k + 1) / len(variants))
        stage(0.0, f"seed {seed}: {VARIANTS[variant]}")
        keep = curves if variant in ("raw", "augmented") else None
        label = "raw" if variant == "raw" else "augmented"
        evaluations[variant] = _train(env, data, params, seed, label, episodes, stage, keep,
                                      alpha=0.0 if variant == "bc_augmented" else params.alpha)
    return SeedRun(evaluations, sizes, logs, recovered, error, episodes)


def _sweep(env: Positioning, params: Params, first: SeedRun, seed: int, progress: Progress) -> list[SweepPoint]:
    points = [SweepPoint(trajectories=params.trajectories,
                         success_rate=Pair(raw=first.evaluations["raw"].success_rate,
                                           augmented=first.evaluations["augmented"].success_rate),
                         transitions=IntPair(raw=first.sizes["raw"], augmented=first.sizes["augmented"]))]
    counts = [n for n in params.trajectory_sweep if n != params.trajectories]
    monotone = MonotoneProgress(progress)
    for index, count in enumerate(counts):
        logs = _logs(env, count, seed, params)
        scores = {}
        for j, variant in enumerate(("raw", "augmented")):
            data, _, _ = _data(env, logs, variant, seed, count)
            stage = monotone.stage((2 * index + j) / (2 * len(counts)), (2 * index + j + 1) / (2 * len(counts)))
            scores[variant] = (_train(env, data, params, seed, variant, first.episodes, stage, None,
                                      alpha=params.alpha).success_rate, data.size)
        points.append(SweepPoint(trajectories=count,
                                 success_rate=Pair(raw=scores["raw"][0], augmented=scores["augmented"][0]),
                                 transitions=IntPair(raw=scores["raw"][1], augmented=scores["augmented"][1])))
    return sorted(points, key=lambda s: s.trajectories)


def _measure(runs: list[SeedRun]) -> dict[str, list[Measurement]]:
    measured: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for run in runs:
        e = run.evaluations
        room = e["raw"].success_rate < ROOM
        gain = 100 * (e["augmented"].success_rate - e["raw"].success_rate)
        measured["success_gain"].append(Measurement(gain, floor_ok=room))
        measured["path_length"].append(Measurement(e["augmented"].mean_steps / e["raw"].mean_steps,
                                                   floor_ok=e["augmented"].success_rate >= 0.5))
        no_help = e.get("no_help")
        measured["without_help"].append(Measurement(
            None if no_help is None else 100 * (no_help.success_rate - e["raw"].success_rate), floor_ok=room))
        bc = e.get("bc_augmented")
        measured["rl_over_bc"].append(Measurement(None if bc is None else e["augmented"].mean_steps / bc.mean_steps))
    return measured


def run(params: Params, progress: Progress) -> Result:
    """Every variant on every seed (curves, paths and the sweep on the first seed), then the claims."""
    _check_budget(params)
    seeds = seed_values(params.seed, params.seeds)
    monotone = MonotoneProgress(progress)
    env = Positioning(params.dimension, params.partial_observation)
    sweep_share = 0.3 if params.trajectory_sweep else 0.0
    width = (1.0 - sweep_share) / len(seeds)
    curves: list[CurvePoint] = []
    runs = [_run_seed(env, params, seed, monotone.stage(k * width, (k + 1) * width), curves if k == 0 else None)
            for k, seed in enumerate(seeds)]
    first = runs[0]
    sweep = _sweep(env, params, first, seeds[0], monotone.stage(1.0 - sweep_share, 1.0))
    r, a = first.evaluations["raw"], first.evaluations["augmented"]
    starts, targets = first.episodes
    variants = [VariantScore(variant=v, label=VARIANTS[v], success_rate=[s.evaluations[v].success_rate for s in runs],
                             mean_steps=[s.evaluations[v].mean_steps for s in runs],
                             mean_return=[s.evaluations[v].mean_return for s in runs],
                             transitions=[s.sizes[v] for s in runs]) for v in _variants(params)]
    success = {v.variant: 100 * float(np.mean(v.success_rate)) for v in variants if v.variant in ("raw", "augmented")}
    monotone(1.0, "done")
    return Result(
        dimension=params.dimension, trajectories=params.trajectories, partial_observation=params.partial_observation,
        help_logging=params.help_logging, train_steps=params.train_steps,
        success_rate=Pair(raw=r.success_rate, augmented=a.success_rate),
        mean_return=Pair(raw=r.mean_return, augmented=a.mean_return),
        mean_steps=Pair(raw=r.mean_steps, augmented=a.mean_steps),
        transitions=IntPair(raw=first.sizes["raw"], augmented=first.sizes["augmented"]),
        logging_success_rate=Pair(raw=float(np.mean([t.success for t in first.logs.plain])),
                                  augmented=float(np.mean([t.success for t in first.logs.helped]))),
        targets_recovered=first.recovered, recovery_error=first.error,
        optimal_steps=float(np.ceil(np.abs(starts - targets).max(axis=1) / STEP).mean()), curves=curves,
        sweep=sweep, paths=_paths(env, first.logs, r, a, targets), seed_list=seeds, variants=variants,
        claims=evaluate_claims(CLAIMS, _measure(runs), seeds),
        standing=Standing(metric="success rate (%)", lower_is_better=False, method="augmented", scores=success,
                          labels={v: VARIANTS[v] for v in success}),
    )
