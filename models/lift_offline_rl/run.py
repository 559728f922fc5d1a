"""run(params, progress): per seed, log the walk, LIFT's augmented collection and shortcuts, TD3+BC with checkpoint
selection on validation episodes for each data variant, test episodes; claims."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch

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
from models.lift_offline_rl.td3bc import TD3BCConfig, TD3PlusBC

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


def _policy(agent: TD3PlusBC):  # type: ignore[no-untyped-def]
    def act(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            tensor = torch.tensor(observations, dtype=torch.float32, device=agent.device)
            return agent.policy(tensor).cpu().numpy().astype(float)
    return act


def _train(env: Positioning, data: Transitions, params: Params, seed: int, label: str, validation: Episodes,
           progress: Progress, curves: list[CurvePoint] | None, *, alpha: float) -> TD3PlusBC:
    """TD3+BC for train_steps updates; the checkpoint with the best validation success (then return) is kept."""
    agent = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(alpha=alpha), seed, torch_device())
    best: list[tuple[tuple[float, float], dict[str, torch.Tensor]]] = []

    def evaluate(learner: TD3PlusBC) -> None:
        outcome = rollout(env, _policy(learner), *validation)
        score = (outcome.success_rate, outcome.mean_return)
        if not best or score > best[0][0]:
            best[:] = [(score, copy.deepcopy(learner.actor.state_dict()))]
        if curves is not None:
            curves.append(CurvePoint(step=learner.steps, data=label, success_rate=outcome.success_rate,
                                     mean_return=outcome.mean_return))

    agent.fit(data, params.train_steps, np.random.default_rng([seed, 3]), progress, evaluate, params.evaluations)
    agent.actor.load_state_dict(best[0][1])
    return agent


Episodes = tuple[np.ndarray, np.ndarray]


def _logs(env: Positioning, count: int, seed: int, params: Params, validation: Episodes, progress: Progress
          ) -> Logs:
    """The walk's first half; the augmentor (TD3+BC on it plus its shortcuts); the second half with and without."""
    half = max(1, count // 2)
    first = collect(env, half, np.random.default_rng([seed, count, 1]))
    plain = collect(env, count - half, np.random.default_rng([seed, count, 4]))
    data = augmented(first, env.dimension, np.random.default_rng([seed, count, 5]))
    augmentor = _train(env, data, params, seed, "augmentor", validation, progress, None, alpha=params.alpha)
    act = _policy(augmentor)
    lifted = collect(env, count - half, np.random.default_rng([seed, count, 4]), augmentor=lambda o: act(o[None])[0])
    return Logs(first, plain, lifted)


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


def _run_seed(env: Positioning, params: Params, seed: int, progress: Progress, curves: list[CurvePoint] | None
              ) -> SeedRun:
    episodes = env.reset(np.random.default_rng([seed, 2]), params.eval_episodes)
    validation = env.reset(np.random.default_rng([seed, 6]), VALIDATION_EPISODES)
    variants = _variants(params)
    monotone = MonotoneProgress(progress)
    share = 1.0 / (len(variants) + 1)
    logs = _logs(env, params.trajectories, seed, params, validation, monotone.stage(0.0, share))
    evaluations: dict[str, Evaluation] = {}
    sizes: dict[str, int] = {}
    for k, variant in enumerate(variants):
        data = _data(env, logs, variant, seed, params.trajectories)
        sizes[variant] = data.size
        stage = monotone.stage((k + 1) * share, (k + 2) * share)
        stage(0.0, f"seed {seed}: {VARIANTS[variant]}")
        keep = curves if variant in ("raw", "augmented") else None
        agent = _train(env, data, params, seed, variant, validation, stage, keep,
                       alpha=0.0 if variant == "bc_augmented" else params.alpha)
        evaluations[variant] = rollout(env, _policy(agent), *episodes)
    untrained = TD3PlusBC(env.dimension, env.dimension, TD3BCConfig(alpha=params.alpha), seed, torch_device())
    return SeedRun(evaluations, sizes, logs, rollout(env, _policy(untrained), *episodes), episodes)


def _sweep(env: Positioning, params: Params, first: SeedRun, seed: int, progress: Progress) -> list[SweepPoint]:
    points = [SweepPoint(trajectories=params.trajectories,
                         success_rate=Pair(raw=first.evaluations["raw"].success_rate,
                                           augmented=first.evaluations["augmented"].success_rate),
                         transitions=IntPair(raw=first.sizes["raw"], augmented=first.sizes["augmented"]))]
    counts = [n for n in params.trajectory_sweep if n != params.trajectories]
    monotone = MonotoneProgress(progress)
    validation = env.reset(np.random.default_rng([seed, 6]), VALIDATION_EPISODES)
    for index, count in enumerate(counts):
        stage = monotone.stage(index / len(counts), (index + 1) / len(counts))
        logs = _logs(env, count, seed, params, validation, MonotoneProgress(stage).stage(0.0, 1 / 3))
        scores = {}
        for j, variant in enumerate(("raw", "augmented")):
            data = _data(env, logs, variant, seed, count)
            agent = _train(env, data, params, seed, variant, validation,
                           MonotoneProgress(stage).stage((j + 1) / 3, (j + 2) / 3), None, alpha=params.alpha)
            scores[variant] = (rollout(env, _policy(agent), *first.episodes).success_rate, data.size)
        points.append(SweepPoint(trajectories=count,
                                 success_rate=Pair(raw=scores["raw"][0], augmented=scores["augmented"][0]),
                                 transitions=IntPair(raw=scores["raw"][1], augmented=scores["augmented"][1])))
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
