"""run(params, progress): for every seed, the J sweep (mean field and GRPO bandit), the bandit phase diagram
and the J = 0 diffusion run; each claim is measured on every seed, the figures show the first seed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.common.claims import Measurement, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import run_seeds, seed_values
from models.common.sweeps import cell_rng
from models.rlvr_noise.claims import CLAIMS, LINE_Z, NEUTRAL_Z, RATE_TOLERANCE
from models.rlvr_noise.competition import CompetitionRun, measure_competition, run_competition
from models.rlvr_noise.dynamics import (
    Verifier,
    bandit_grpo,
    mean_field_path,
    neutral_diffusion,
    rate_law_time,
)
from models.rlvr_noise.params import Params
from models.rlvr_noise.result import (
    THRESHOLD,
    Diffusion,
    FinalMass,
    MassCurve,
    PhaseDiagram,
    Result,
    TimeToThreshold,
)

__all__ = ["DIFFUSION_RUNS", "MAX_WORK", "PHASE_RUNS", "hitting_time", "run"]

PHASE_RUNS = 8  # GRPO runs per cell of the phase diagram
DIFFUSION_RUNS = 1024  # GRPO runs at J = 0 for the variance check
DIFFUSION_SPREAD = 0.1  # the J = 0 run lasts until the predicted sd of x reaches 0.1 x0 (1 - x0)
MAX_WORK = 5e9  # GRPO path-steps x group size x arms in one seed (the defaults use about 4.5e8)
_CURVE_POINTS = 201
_TOL = 1e-9


def _verifiers(params: Params) -> list[Verifier]:
    out = []
    for j in params.j_values:
        fnr = 1.0 - params.fpr - j
        if fnr < -_TOL or fnr > 1.0 + _TOL:
            raise MethodInputError(
                f"j_values: J = {j} is impossible with fpr = {params.fpr}: it needs FNR = 1 - FPR - J = {fnr:.3f}, "
                f"outside [0, 1]; with this FPR, J must lie in [{-params.fpr:.3f}, {1 - params.fpr:.3f}]"
            )
        out.append(Verifier(fpr=params.fpr, fnr=min(max(fnr, 0.0), 1.0)))
    return out


def _diffusion_horizon(params: Params) -> tuple[int, float, float]:
    """Steps of the J = 0 run, and the diffusion limit's per-step variance D and drift b at the start."""
    x0 = params.initial_incorrect_mass
    limit = neutral_diffusion(params.fpr, x0, params.learning_rate, params.modes_per_class, params.group_size)
    if limit.variance_per_step <= 0:
        return 0, 0.0, 0.0
    horizon = math.ceil((DIFFUSION_SPREAD * x0 * (1 - x0)) ** 2 / limit.variance_per_step)
    return min(max(horizon, 10), params.steps), limit.variance_per_step, limit.drift_per_step


def _check_budget(params: Params) -> None:
    horizon, _, _ = _diffusion_horizon(params)
    paths = (len(params.j_values) * params.bandit_seeds * params.steps
             + params.phase_grid**2 * PHASE_RUNS * (params.steps // 2) + DIFFUSION_RUNS * horizon)
    work = paths * params.group_size * 2 * params.modes_per_class
    if work > MAX_WORK:
        raise MethodInputError(
            f"steps: (J values x GRPO runs x steps + phase-diagram and J = 0 runs) x group size x arms = {work:.2e} "
            f"is above the limit of {MAX_WORK:.1e} per seed; use fewer steps, runs, J values or a smaller group"
        )


def hitting_time(path: np.ndarray, threshold: float = THRESHOLD) -> int | None:
    """First step at which `path` is <= threshold, None if it never is."""
    hits = np.nonzero(path <= threshold)[0]
    return int(hits[0]) if hits.size else None


@dataclass(frozen=True)
class SeedRun:
    """One seed's experiments: the J sweep, the phase diagram, the J = 0 diffusion run."""

    finals: list[FinalMass]
    times: list[TimeToThreshold]
    curves: list[MassCurve]
    curve_steps: list[int]
    phase: PhaseDiagram
    diffusion: Diffusion | None
    competition: CompetitionRun
    diffusion_final: np.ndarray | None = None  # each J = 0 run's mass at the end (the neutral claim's units)


def _sweep(params: Params, verifiers: list[Verifier], seed: int, progress: Progress
           ) -> tuple[list[FinalMass], list[TimeToThreshold], list[MassCurve], list[int]]:
    """Mean field and GRPO bandit for every J (all bandit runs in one vectorised pass)."""
    x0, lr, m, runs = params.initial_incorrect_mass, params.learning_rate, params.modes_per_class, params.bandit_seeds
    mean_field = mean_field_path(np.array([v.tpr for v in verifiers]), np.array([v.fpr for v in verifiers]),
                                 x0, params.steps, lr, m)
    rngs = [cell_rng(seed, index, r) for index in range(len(verifiers)) for r in range(runs)]
    paths = bandit_grpo([v for v in verifiers for _ in range(runs)], steps=params.steps, group_size=params.group_size,
                        modes=m, lr=lr, x0=x0, rngs=rngs, progress=progress).reshape(len(verifiers), runs, -1)
    idx = np.unique(np.linspace(0, params.steps, min(_CURVE_POINTS, params.steps + 1)).round().astype(int))
    finals, times, curves = [], [], []
    for j, verifier, mf, cell in zip(params.j_values, verifiers, mean_field, paths, strict=True):
        mean, last = cell.mean(axis=0), cell[:, -1]
        j = float(j)  # the requested value (TPR - FPR recomputed in floating point can read -0.0)
        finals.append(FinalMass(j=j, fnr=verifier.fnr, mean_field=float(mf[-1]), bandit_mean=float(mean[-1]),
                                bandit_se=float(last.std(ddof=1) / np.sqrt(runs)),
                                bandit_q10=float(np.quantile(last, 0.1)), bandit_q90=float(np.quantile(last, 0.9))))
        times.append(TimeToThreshold(j=j, rate_law=rate_law_time(verifier, lr, m, x0, THRESHOLD),
                                     mean_field=hitting_time(mf), bandit_mean=hitting_time(mean)))
        curves.append(MassCurve(j=j, mean_field=mf[idx].round(6).tolist(), bandit_mean=mean[idx].round(6).tolist(),
                                bandit_q10=np.quantile(cell[:, idx], 0.1, axis=0).round(6).tolist(),
                                bandit_q90=np.quantile(cell[:, idx], 0.9, axis=0).round(6).tolist()))
    return finals, times, curves, idx.tolist()


def _phase(params: Params, seed: int, progress: Progress) -> PhaseDiagram:
    """The GRPO bandit on every (FPR, FNR) cell of the grid, PHASE_RUNS runs each, for half the steps."""
    grid = np.linspace(0.0, 1.0, params.phase_grid)
    cells = [Verifier(fpr=float(fpr), fnr=float(fnr)) for fnr in grid for fpr in grid]
    steps = max(params.steps // 2, 5)
    rngs = [cell_rng(seed, 1000 + c, r) for c in range(len(cells)) for r in range(PHASE_RUNS)]
    final = bandit_grpo([v for v in cells for _ in range(PHASE_RUNS)], steps=steps, group_size=params.group_size,
                        modes=params.modes_per_class, lr=params.learning_rate, x0=params.initial_incorrect_mass,
                        rngs=rngs, progress=progress)[:, -1].reshape(params.phase_grid, params.phase_grid, PHASE_RUNS)
    se = final.std(axis=2, ddof=1) / np.sqrt(PHASE_RUNS)
    return PhaseDiagram(fpr=grid.tolist(), fnr=grid.tolist(), steps=steps, runs_per_cell=PHASE_RUNS,
                        mass=final.mean(axis=2).round(6).tolist(), standard_error=se.round(8).tolist())


def _diffusion(params: Params, seed: int, progress: Progress) -> tuple[Diffusion | None, np.ndarray | None]:
    """DIFFUSION_RUNS GRPO runs at TPR = FPR = fpr until the predicted spread is small; variance against t·D."""
    horizon, variance, drift = _diffusion_horizon(params)
    if horizon == 0:
        return None, None
    p, x0 = params.fpr, params.initial_incorrect_mass
    mass = bandit_grpo(Verifier(fpr=p, fnr=1.0 - p), steps=horizon, group_size=params.group_size,
                       modes=params.modes_per_class, lr=params.learning_rate, x0=x0,
                       rngs=[cell_rng(seed, 2000, r) for r in range(DIFFUSION_RUNS)], progress=progress)
    idx = np.unique(np.linspace(0, horizon, min(41, horizon + 1)).round().astype(int))
    return Diffusion(
        p=p, runs=DIFFUSION_RUNS, variance_per_step=variance, drift_per_step=drift, curve_steps=idx.tolist(),
        variance=mass[:, idx].var(axis=0, ddof=1).tolist(), predicted_variance=(idx * variance).tolist(),
        final_mean=float(mass[:, -1].mean()), predicted_mean=x0 + horizon * drift,
        final_se=float(mass[:, -1].std(ddof=1) / np.sqrt(DIFFUSION_RUNS)),
    ), mass[:, -1]


def _one_seed(params: Params, verifiers: list[Verifier], seed: int, progress: Progress) -> SeedRun:
    monotone = MonotoneProgress(progress)
    monotone(0.0, f"seed {seed}: mean field and GRPO bandit for every J")
    finals, times, curves, curve_steps = _sweep(params, verifiers, seed, monotone.stage(0.0, 0.4))
    monotone(0.4, f"seed {seed}: phase diagram (GRPO bandit on the FPR x FNR grid)")
    phase = _phase(params, seed, monotone.stage(0.4, 0.75))
    monotone(0.75, f"seed {seed}: J = 0 diffusion ({DIFFUSION_RUNS} GRPO runs)")
    diffusion, diffusion_final = _diffusion(params, seed, monotone.stage(0.75, 0.85))
    monotone(0.85, f"seed {seed}: unequal masses inside the correct class")
    competition = run_competition(params, seed, monotone.stage(0.85, 1.0))
    return SeedRun(finals, times, curves, curve_steps, phase, diffusion, competition, diffusion_final)


def _sign(run_: SeedRun, x0: float) -> Measurement:
    rows = [r for r in run_.finals if abs(r.j) > _TOL]
    if not rows:
        return Measurement(None)
    wrong = [r for r in rows if not all((v < x0) if r.j > 0 else (v > x0) for v in (r.mean_field, r.bandit_mean))]
    note = "; ".join(f"J = {r.j:+.2f}: mean field {r.mean_field:.3f}, bandit {r.bandit_mean:.3f}" for r in wrong)
    both = any(r.j > 0 for r in rows) and any(r.j < 0 for r in rows)
    units = [0.0 if r in wrong else 1.0 for r in rows]
    return Measurement(float(np.mean(units)), floor_ok=both, note=note, units=units, null=0.0)


def _rate(run_: SeedRun, steps: int, which: str) -> Measurement:
    deviations, notes = [], []
    for t in run_.times:
        if t.rate_law is None:
            continue
        hit = t.mean_field if which == "mean_field" else t.bandit_mean
        if hit is None:  # not reached: a failure only if the rate law says it should have been, with slack
            if t.rate_law * (1 + RATE_TOLERANCE) < steps:
                deviations.append(steps / t.rate_law - 1)
                notes.append(f"J = {t.j:+.2f} not reached in {steps} steps (rate law {t.rate_law:.0f})")
            continue
        deviations.append(abs(hit / t.rate_law - 1))
        notes.append(f"J = {t.j:+.2f}: {hit} vs {t.rate_law:.0f}")
    return Measurement(max(deviations) if deviations else None, note="; ".join(notes),
                       null=_j_blind(run_, which) if deviations else None)


def _j_blind(run_: SeedRun, which: str) -> float | None:
    """The trivial reference: one hitting time for every J (the mean of the measured ones) against the law."""
    pairs = [(t.mean_field if which == "mean_field" else t.bandit_mean, t.rate_law) for t in run_.times]
    hits = [(h, law) for h, law in pairs if h is not None and law is not None]
    if not hits:
        return None
    blind = float(np.mean([h for h, _ in hits]))
    return max(abs(blind / law - 1) for _, law in hits)


def _phase_claims(phase: PhaseDiagram, x0: float) -> tuple[Measurement, Measurement]:
    mass, se = np.array(phase.mass), np.array(phase.standard_error)
    j = 1.0 - np.array(phase.fnr)[:, None] - np.array(phase.fpr)[None, :]
    off = np.abs(j) > _TOL
    right = np.where(j > 0, mass < x0, mass > x0)
    wrong = int((off & ~right).sum())
    line = ~off
    z = np.where(se[line] > 0, np.abs(mass[line] - x0) / np.where(se[line] > 0, se[line], 1.0),
                 np.where(np.abs(mass[line] - x0) > _TOL, np.inf, 0.0))
    worst = float(z.max()) if z.size else None
    units = right[off].astype(float).tolist()
    return (Measurement(float(np.mean(units)) if units else None, note=f"{wrong} of {int(off.sum())} cells wrong",
                        units=units or None, null=0.0),
            Measurement(worst if worst is None or math.isfinite(worst) else 1e9,
                        note=f"{int((z > LINE_Z).sum())} of {z.size} line cells beyond {LINE_Z:g} SE"))


def _neutral(diffusion: Diffusion | None, final: np.ndarray | None) -> Measurement:
    if diffusion is None or final is None:
        return Measurement(None, note="no reward variance at TPR = FPR = FPR (0 or 1): nothing diffuses")
    ratio = diffusion.variance[-1] / diffusion.predicted_variance[-1]
    runs = final.size  # per run: its squared deviation, scaled so that the mean is the unbiased variance ratio
    units = (final - final.mean()) ** 2 * runs / (runs - 1) / diffusion.predicted_variance[-1]
    z = (diffusion.final_mean - diffusion.predicted_mean) / max(diffusion.final_se, 1e-300)
    return Measurement(ratio, floor_ok=abs(z) <= NEUTRAL_Z, null=0.0, units=units.tolist(),
                       note=f"after {diffusion.curve_steps[-1]} steps; mean off the prediction by {z:+.2f} SE")


def _measure(params: Params, run_: SeedRun) -> dict[str, Measurement]:
    x0 = params.initial_incorrect_mass
    phase, line = _phase_claims(run_.phase, x0)
    return {"sign": _sign(run_, x0), "phase": phase, "phase_line": line,
            "rate_mean_field": _rate(run_, params.steps, "mean_field"),
            "rate_bandit": _rate(run_, params.steps, "bandit"), "neutral": _neutral(run_.diffusion, run_.diffusion_final),
            **measure_competition(run_.competition, params.bandit_seeds, params.modes_per_class)}


def run(params: Params, progress: Progress) -> Result:
    """Every seed: the J sweep, the phase diagram and the J = 0 run; claims over seeds, figures of the first."""
    verifiers = _verifiers(params)
    _check_budget(params)
    seeds = seed_values(params.seed, params.seeds)
    runs = run_seeds(seeds, lambda seed, stage: _one_seed(params, verifiers, seed, stage), progress)
    measured = [_measure(params, r) for r in runs]
    claims = evaluate_claims(CLAIMS, {c.id: [m[c.id] for m in measured] for c in CLAIMS}, seeds)
    first = runs[0]
    progress(1.0, "done")
    return Result(
        fpr=params.fpr, steps=params.steps, seeds=params.seeds, bandit_seeds=params.bandit_seeds,
        group_size=params.group_size, learning_rate=params.learning_rate,
        initial_incorrect_mass=params.initial_incorrect_mass, final_incorrect_mass=first.finals,
        time_to_threshold=first.times, curve_steps=first.curve_steps, curves=first.curves, phase=first.phase,
        diffusion=first.diffusion, competition=first.competition.summary, claims=claims,
    )
