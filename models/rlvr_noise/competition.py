"""The within-correct-mode competition (Rad et al.'s decoupling): unequal masses inside the correct class.

One GRPO experiment per seed at J = `competition_j` and one at J = 0 from the same start, plus the mean
field of every logit. Measured: (i) whether the incorrect mass follows the one-dimensional law once time is
read on the concentration clock (the decoupling), against the same law on the step clock (the null); (ii)
whether the initially favoured correct mode takes its class (the replicator with fitness equal to the share),
against the J = 0 runs (the null).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.common.claims import Measurement
from models.common.contract import Progress
from models.common.progress import MonotoneProgress
from models.common.sweeps import cell_rng
from models.rlvr_noise.dynamics import (
    Verifier,
    bandit_grpo,
    concentration_clock,
    logits_from_shares,
    mean_field_path,
    mean_field_policy,
    rate_law_time,
)
from models.rlvr_noise.params import Params
from models.rlvr_noise.result import THRESHOLD, Competition

__all__ = ["CompetitionRun", "measure_competition", "run_competition"]

_POINTS = 201


@dataclass(frozen=True)
class CompetitionRun:
    """The page's summary and the per-run values the claims need."""

    summary: Competition
    clock_deviation: list[float]  # per run that reached 0.05: tau at the hit / rate law - 1
    step_deviation: list[float]  # the same on the step clock (the equal-split law read naively)
    favoured_final: list[float]  # per run: favoured mode's share of the correct class at the end
    favoured_final_neutral: list[float]  # the same at J = 0
    mean_field_gap: float  # max over steps |x_mean_field(t) - x_equal_law(tau(t))|


def _favoured(policy: np.ndarray, modes: int) -> np.ndarray:
    return policy[..., 0] / policy[..., :modes].sum(axis=-1)


def _first_hit(path: np.ndarray) -> int | None:
    hits = np.nonzero(path <= THRESHOLD)[0]
    return int(hits[0]) if hits.size else None


def run_competition(params: Params, seed: int, progress: Progress) -> CompetitionRun:
    """GRPO and the mean field from the unequal start at J = competition_j, and GRPO at J = 0."""
    m, lr, x0, runs, steps = (params.modes_per_class, params.learning_rate, params.initial_incorrect_mass,
                              params.bandit_seeds, params.steps)
    theta0 = logits_from_shares(x0, np.asarray(params.correct_shares()))
    verifier, neutral = Verifier.from_j(params.competition_j, params.fpr), Verifier(fpr=params.fpr, fnr=1 - params.fpr)
    stages = MonotoneProgress(progress)
    policy = np.empty((runs, steps + 1, 2 * m))
    mass = bandit_grpo(verifier, steps=steps, group_size=params.group_size, modes=m, lr=lr, x0=x0, initial_logits=theta0,
                       rngs=[cell_rng(seed, 3000, r) for r in range(runs)], policy_out=policy,
                       progress=stages.stage(0.0, 0.5))
    policy0 = np.empty((runs, steps + 1, 2 * m))
    bandit_grpo(neutral, steps=steps, group_size=params.group_size, modes=m, lr=lr, x0=x0, initial_logits=theta0,
                rngs=[cell_rng(seed, 4000, r) for r in range(runs)], policy_out=policy0, progress=stages.stage(0.5, 1.0))
    clock = concentration_clock(policy)
    law = rate_law_time(verifier, lr, m, x0, THRESHOLD) or float("nan")
    mf_policy = mean_field_policy(theta0, verifier.tpr, verifier.fpr, steps, lr)
    mf_mass, mf_clock = mf_policy[:, m:].sum(axis=1), concentration_clock(mf_policy)
    horizon = int(np.ceil(mf_clock[-1])) + 1
    equal = mean_field_path(np.array([verifier.tpr]), np.array([verifier.fpr]), x0, horizon, lr, m)[0]
    gap = float(np.abs(mf_mass - np.interp(mf_clock, np.arange(horizon + 1), equal)).max())
    hits = [(r, _first_hit(mass[r])) for r in range(runs)]
    reached = [(r, h) for r, h in hits if h is not None]
    idx = np.unique(np.linspace(0, steps, min(_POINTS, steps + 1)).round().astype(int))
    summary = Competition(
        j=params.competition_j,
        shares=[round(v, 6) for v in params.correct_shares()],
        runs=runs, curve_steps=idx.tolist(), mass_bandit=mass.mean(axis=0)[idx].round(6).tolist(),
        mass_mean_field=mf_mass[idx].round(6).tolist(), mass_equal_law=equal[: steps + 1][idx].round(6).tolist(),
        clock_bandit=clock.mean(axis=0)[idx].round(3).tolist(),
        favoured_bandit=_favoured(policy, m).mean(axis=0)[idx].round(6).tolist(),
        favoured_mean_field=_favoured(mf_policy, m)[idx].round(6).tolist(),
        favoured_neutral=_favoured(policy0, m).mean(axis=0)[idx].round(6).tolist(),
        rate_law=float(law),
        hit_steps=float(np.mean([h for _, h in reached])) if reached else None,
        hit_clock=float(np.mean([clock[r, h] for r, h in reached])) if reached else None,
    )
    return CompetitionRun(summary, [float(clock[r, h] / law - 1) for r, h in reached],
                          [float(h / law - 1) for _, h in reached], _favoured(policy[:, -1], m).tolist(),
                          _favoured(policy0[:, -1], m).tolist(), gap)


def measure_competition(run_: CompetitionRun, runs: int, modes: int) -> dict[str, Measurement]:
    """decoupling (per run, concentration clock; null: step clock), winner (null: J = 0), the mean-field check."""
    if modes == 1:
        none = Measurement(None, note="one correct mode: no competition inside the correct class")
        return {"decoupling": none, "winner": none, "decoupling_mean_field": none}
    missing = runs - len(run_.clock_deviation)
    if not run_.clock_deviation:
        decoupling = Measurement(None, note="no GRPO run reached 0.05 within the steps")
    else:
        decoupling = Measurement(float(np.mean(run_.clock_deviation)), floor_ok=missing == 0,
                                 note=f"{len(run_.clock_deviation)} of {runs} runs reached 0.05; step clock "
                                      f"{np.mean(run_.step_deviation):+.3f}",
                                 units=run_.clock_deviation, null=float(np.mean(run_.step_deviation)))
    winner = Measurement(float(np.mean(run_.favoured_final)), units=run_.favoured_final,
                         null=float(np.mean(run_.favoured_final_neutral)),
                         note=f"start {run_.summary.shares[0]:.3g}; J = 0 runs end at "
                              f"{np.mean(run_.favoured_final_neutral):.3f}")
    return {"decoupling": decoupling, "winner": winner,
            "decoupling_mean_field": Measurement(run_.mean_field_gap, note="max over steps")}
