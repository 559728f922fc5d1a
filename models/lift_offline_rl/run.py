"""run(params, progress): per seed, log the walk, LIFT's augmented collection and shortcuts, TD3+BC with checkpoint
selection on validation episodes for each data variant, test episodes; claims."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.claims import Measurement, Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.seeds import seed_values
from models.lift_offline_rl.augment import Transitions, augmented, candidates, raw
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
from models.lift_offline_rl.td3bc import Policy, TD3BCConfig, TD3PlusBC

__all__ = ["MAX_STEPS", "run"]

MAX_STEPS = 120000  # TD3+BC updates over all learners of one run
SHOWN_LOGS = 4
ABLATIONS = ("shortcuts_only", "lift_only", "bc_augmented")
VALIDATION_EPISODES = 100  # checkpoint selection episodes (seeded apart from the test episodes)


def _variants(params: Params) -> tuple[str, ...]:
    return ("raw", "augmented") + (ABLATIONS if params.ablations else ())


def _check_budget(params: Params) -> None:
    sweep = len([n for n in params.trajectory_sweep if n != params.trajectories])
    learners = (len(_variants(params)) + 1) * params.seeds + 3 * sweep  # + the augmentor
    if learners * params.train_steps > MAX_STEPS:
        raise MethodInputError(f"train_steps: {learners} learners x {params.train_steps} steps is above the limit of "
                               f"{MAX_STEPS:,} updates per run; use fewer steps, seeds, ablations or a shorter "
                               "trajectory_sweep")


@dataclass(frozen=True)
class Logs:
    """One seed's logs under one trajectory budget: the walk's first half, then the second half collected plainly
    (raw) and with the augmentor taking over (LIFT), on the same starts and targets."""

    first: list[Trajectory]
    plain: list[Trajectory]
    lifted: list[Trajectory]

    @property
    def raw(self) -> list[Trajectory]:
        return self.first + self.plain

    @property
    def lift(self) -> list[Trajectory]:
        return self.first + self.lifted


Episodes = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Job:
    """One learner of a batched training: its data, seed (initialisation, minibatches), alpha, validation
    episodes, and the curve label when its validation scores are recorded."""

    data: Transitions
    seed: int
    alpha: float
    validation: Episodes
    curve: str | None = None


def _train(env: Positioning, jobs: list[Job], params: Params, progress: Progress,
           curves: list[CurvePoint]) -> list[Policy]:
    """TD3+BC for train_steps updates, every job side by side; each keeps the checkpoint with the best validation
    success (then return)."""
    agent = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(), [j.seed for j in jobs], torch_device(),
                      alphas=[j.alpha for j in jobs])

    def evaluate(k: int, policy: Policy, step: int) -> tuple[float, float]:
        outcome = rollout(env, policy, *jobs[k].validation)
        label = jobs[k].curve
        if label is not None:
            curves.append(CurvePoint(step=step, data=label, success_rate=outcome.success_rate,
                                     mean_return=outcome.mean_return))
        return outcome.success_rate, outcome.mean_return

    agent.fit([j.data for j in jobs], params.train_steps, [np.random.default_rng([j.seed, 3]) for j in jobs],
              progress, evaluate, params.evaluations)
    return [agent.act(k) for k in range(len(jobs))]


@dataclass(frozen=True)
class Half:
    """The walk's first half of one budget, its plain second half, and the augmentor's training data."""

    first: list[Trajectory]
    plain: list[Trajectory]
    data: Transitions


def _half(env: Positioning, count: int, seed: int) -> Half:
    half = max(1, count // 2)
    first = collect(env, half, np.random.default_rng([seed, count, 1]))
    plain = collect(env, count - half, np.random.default_rng([seed, count, 4]))
    return Half(first, plain, augmented(first, env.dimension, np.random.default_rng([seed, count, 5])))


def _logs(env: Positioning, budgets: list[tuple[int, int]], params: Params, validations: list[Episodes],
          progress: Progress) -> list[Logs]:
    """For each (seed, count): the walk's first half; the augmentor (TD3+BC on it plus its shortcuts, all trained
    side by side); the second half with and without the augmentor taking over."""
    halves = [_half(env, count, seed) for seed, count in budgets]
    jobs = [Job(h.data, seed, params.alpha, v) for h, (seed, _), v in zip(halves, budgets, validations, strict=True)]
    augmentors = _train(env, jobs, params, progress, [])
    logs = []
    for h, (seed, count), act in zip(halves, budgets, augmentors, strict=True):
        lifted = collect(env, count - len(h.first), np.random.default_rng([seed, count, 4]),
                         augmentor=lambda o, act=act: act(o[None])[0])  # type: ignore[misc]
        logs.append(Logs(h.first, h.plain, lifted))
    return logs


def _data(env: Positioning, logs: Logs, variant: str, seed: int, count: int) -> Transitions:
    """The transitions one variant learns from."""
    rng = np.random.default_rng([seed, count, 2])
    if variant == "raw":
        return raw(logs.raw, env.dimension)
    if variant == "shortcuts_only":
        return augmented(logs.raw, env.dimension, rng)
    if variant == "lift_only":
        return raw(logs.lift, env.dimension)
    return augmented(logs.lift, env.dimension, rng)  # augmented (LIFT-SC) and behaviour cloning on it


def _paths(logs: Logs, raw_eval: Evaluation, aug_eval: Evaluation, targets: np.ndarray) -> list[Path]:
    def project(points: np.ndarray, target: np.ndarray, kind: PathKind) -> Path:
        shifted = points - target
        return Path(kind=kind, x=shifted[:, 0].tolist(), y=shifted[:, 1].tolist())

    paths = [project(t.positions, t.target, "logged") for t in logs.plain[:SHOWN_LOGS]]
    paths += [project(t.positions, t.target, "logged with the augmentor") for t in logs.lifted[:SHOWN_LOGS] if t.replaced]
    first = logs.first[0]
    for c in candidates(first)[:: max(1, len(candidates(first)) // 4)][:4]:
        paths.append(project(first.positions[[c.i, c.j]], first.target, "shortcut"))
    for k in range(min(SHOWN_LOGS, raw_eval.paths.shape[0])):
        paths.append(project(raw_eval.paths[k], targets[k], "learned (raw)"))
        paths.append(project(aug_eval.paths[k], targets[k], "learned (augmented)"))
    return paths


@dataclass
class SeedRun:
    """One seed: every variant's test evaluation and transition count, the untrained actor's (the null)."""

    evaluations: dict[str, Evaluation]
    sizes: dict[str, int]
    logs: Logs
    untrained: Evaluation
    episodes: Episodes


def _run_seeds(env: Positioning, params: Params, seeds: list[int], progress: Progress, curves: list[CurvePoint]
               ) -> list[SeedRun]:
    """Every seed's augmentor side by side, then every (seed, variant) learner side by side; curves of the first
    seed's raw and augmented learners."""
    episodes = [env.reset(np.random.default_rng([seed, 2]), params.eval_episodes) for seed in seeds]
    validations = [env.reset(np.random.default_rng([seed, 6]), VALIDATION_EPISODES) for seed in seeds]
    variants = _variants(params)
    monotone = MonotoneProgress(progress)
    share = 1.0 / (len(variants) + 1)
    logs = _logs(env, [(seed, params.trajectories) for seed in seeds], params, validations,
                 monotone.stage(0.0, share))
    jobs = [Job(_data(env, logs[i], variant, seed, params.trajectories), seed,
                0.0 if variant == "bc_augmented" else params.alpha, validations[i],
                variant if i == 0 and variant in ("raw", "augmented") else None)
            for i, seed in enumerate(seeds) for variant in variants]
    policies = _train(env, jobs, params, monotone.stage(share, 1.0), curves)
    runs = []
    for i, seed in enumerate(seeds):
        mine = range(i * len(variants), (i + 1) * len(variants))
        untrained = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(), [seed], torch_device()).act(0)
        runs.append(SeedRun({variants[k % len(variants)]: rollout(env, policies[k], *episodes[i]) for k in mine},
                            {variants[k % len(variants)]: jobs[k].data.size for k in mine}, logs[i],
                            rollout(env, untrained, *episodes[i]), episodes[i]))
    return runs


def _sweep(env: Positioning, params: Params, first: SeedRun, seed: int, progress: Progress) -> list[SweepPoint]:
    points = [SweepPoint(trajectories=params.trajectories,
                         success_rate=Pair(raw=first.evaluations["raw"].success_rate,
                                           augmented=first.evaluations["augmented"].success_rate),
                         transitions=IntPair(raw=first.sizes["raw"], augmented=first.sizes["augmented"]))]
    counts = [n for n in params.trajectory_sweep if n != params.trajectories]
    if not counts:
        return points
    monotone = MonotoneProgress(progress)
    validation = env.reset(np.random.default_rng([seed, 6]), VALIDATION_EPISODES)
    logs = _logs(env, [(seed, count) for count in counts], params, [validation] * len(counts),
                 monotone.stage(0.0, 1 / 3))
    jobs = [Job(_data(env, log, variant, seed, count), seed, params.alpha, validation)
            for log, count in zip(logs, counts, strict=True) for variant in ("raw", "augmented")]
    policies = _train(env, jobs, params, monotone.stage(1 / 3, 1.0), [])
    rates = [rollout(env, policy, *first.episodes).success_rate for policy in policies]
    for k, count in enumerate(counts):
        points.append(SweepPoint(trajectories=count, success_rate=Pair(raw=rates[2 * k], augmented=rates[2 * k + 1]),
                                 transitions=IntPair(raw=jobs[2 * k].data.size, augmented=jobs[2 * k + 1].data.size)))
    return sorted(points, key=lambda s: s.trajectories)


def _measure(runs: list[SeedRun]) -> dict[str, list[Measurement]]:
    measured: dict[str, list[Measurement]] = {c.id: [] for c in CLAIMS}
    for run in runs:
        e = run.evaluations
        room = e["raw"].success_rate < ROOM
        per_episode = 100 * (e["augmented"].successes - e["raw"].successes)
        null = 100 * (run.untrained.success_rate - e["raw"].success_rate)
        measured["success_gain"].append(Measurement(float(per_episode.mean()), floor_ok=room,
                                                    units=per_episode.tolist(), null=null))
        measured["path_length"].append(Measurement(e["augmented"].mean_steps / e["raw"].mean_steps,
                                                   floor_ok=e["augmented"].success_rate >= 0.5,
                                                   null=run.untrained.mean_steps / e["raw"].mean_steps))
        shortcut_only = e.get("shortcuts_only")
        measured["without_help"].append(Measurement(
            None if shortcut_only is None else 100 * (shortcut_only.success_rate - e["raw"].success_rate),
            floor_ok=room))
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
    curves: list[CurvePoint] = []
    runs = _run_seeds(env, params, seeds, monotone.stage(0.0, 1.0 - sweep_share), curves)
    first = runs[0]
    sweep = _sweep(env, params, first, seeds[0], monotone.stage(1.0 - sweep_share, 1.0))
    r, a = first.evaluations["raw"], first.evaluations["augmented"]
    starts, targets = first.episodes
    variants = [VariantScore(variant=v, label=VARIANTS[v], success_rate=[s.evaluations[v].success_rate for s in runs],
                             mean_steps=[s.evaluations[v].mean_steps for s in runs],
                             mean_return=[s.evaluations[v].mean_return for s in runs],
                             transitions=[s.sizes[v] for s in runs]) for v in _variants(params)]
    success = {v.variant: [100 * x for x in v.success_rate] for v in variants}
    monotone(1.0, "done")
    return Result(
        dimension=params.dimension, trajectories=params.trajectories, partial_observation=params.partial_observation,
        train_steps=params.train_steps,
        success_rate=Pair(raw=r.success_rate, augmented=a.success_rate),
        mean_return=Pair(raw=r.mean_return, augmented=a.mean_return),
        mean_steps=Pair(raw=r.mean_steps, augmented=a.mean_steps),
        transitions=IntPair(raw=first.sizes["raw"], augmented=first.sizes["augmented"]),
        logging_success_rate=Pair(raw=float(np.mean([t.success for t in first.logs.plain])),
                                  augmented=float(np.mean([t.success for t in first.logs.lifted]))),
        replaced_actions=int(sum(t.replaced for t in first.logs.lifted)),
        shortcut_transitions=first.sizes["augmented"] - sum(t.length for t in first.logs.lift),
        optimal_steps=float(np.ceil(np.abs(starts - targets).max(axis=1) / STEP).mean()), curves=curves,
        sweep=sweep, paths=_paths(first.logs, r, a, targets), seed_list=seeds, variants=variants,
        claims=evaluate_claims(CLAIMS, _measure(runs), seeds),
        standing=Standing(metric="test success rate (%)", lower_is_better=False, method="augmented", seed_scores=success,
                          labels={v: VARIANTS[v] for v in success}),
    )
