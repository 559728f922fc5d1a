"""run(params, progress): mean field and GRPO bandit for every J, the phase diagram, then the three checks."""

from __future__ import annotations

import numpy as np

from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.sweeps import GridCell, fit_power_law, run_grid
from models.rlvr_noise.dynamics import BanditRun, Verifier, bandit_grpo, mean_field_path
from models.rlvr_noise.params import Params
from models.rlvr_noise.result import (
    THRESHOLD,
    Checks,
    FinalMass,
    MassCurve,
    PhaseDiagram,
    RateFit,
    Result,
    TimeToThreshold,
)

__all__ = ["RATE_TOLERANCE", "hitting_time", "run"]

RATE_TOLERANCE = 0.25  # "time ~ 1/J" holds when the fitted exponent is within this of 1
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


def hitting_time(path: np.ndarray, threshold: float = THRESHOLD) -> int | None:
    """First step at which `path` is <= threshold, None if it never is."""
    hits = np.nonzero(path <= threshold)[0]
    return int(hits[0]) if hits.size else None


def _phase(params: Params) -> PhaseDiagram:
    grid = np.linspace(0.0, 1.0, params.phase_grid)
    fnr, fpr = np.meshgrid(grid, grid, indexing="ij")
    final = mean_field_path(
        1.0 - fnr.ravel(), fpr.ravel(), params.initial_incorrect_mass, params.steps, params.learning_rate,
        params.modes_per_class,
    )[:, -1]
    mass = final.reshape(fnr.shape)
    return PhaseDiagram(fpr=grid.tolist(), fnr=grid.tolist(), mass=mass.round(6).tolist())


def _rate_fit(model: str, times: list[tuple[float, int | None]]) -> RateFit | None:
    points = [(1.0 / j, t) for j, t in times if j > 0 and t is not None and t > 0]
    fit = fit_power_law([p[0] for p in points], [p[1] for p in points])
    if fit is None:
        return None
    finite = fit.points > 2
    return RateFit(
        model=model,
        exponent=fit.exponent,
        exponent_low=fit.exponent_low if finite else None,
        exponent_high=fit.exponent_high if finite else None,
        points=fit.points,
    )


def _checks(params: Params, finals: list[FinalMass], fits: list[RateFit]) -> Checks:
    x0 = params.initial_incorrect_mass
    wrong = []
    for row in finals:
        for model, value in (("mean field", row.mean_field), ("bandit", row.bandit_mean)):
            if (row.j > 0 and not value < x0) or (row.j < 0 and not value > x0):
                wrong.append(f"J = {row.j:+.2f} ({model}: {value:.3f} vs start {x0:.3f})")
    boundary = not wrong
    boundary_detail = (
        "Boundary: every J > 0 lowered and every J < 0 raised the incorrect mass."
        if boundary
        else "Boundary violated at " + "; ".join(wrong) + "."
    )
    zero = [row for row in finals if abs(row.j) < _TOL]
    neutral: bool | None = None
    neutral_detail = ""
    if zero:
        row = zero[0]
        mf_ok = abs(row.mean_field - x0) < 1e-6
        band = 2.0 * row.bandit_se
        bandit_ok = abs(row.bandit_mean - x0) <= band + _TOL if params.seeds > 1 else True
        neutral = mf_ok and bandit_ok
        neutral_detail = (
            f"Neutral at J = 0: mean field {row.mean_field:.4f}, bandit {row.bandit_mean:.4f} +- {band:.4f} "
            f"(2 standard errors) vs start {x0:.3f}."
        )
    bandit_fit = next((f for f in fits if f.model == "bandit"), None)
    rate: bool | None = None
    rate_detail = "Rate: fewer than two J > 0 reached incorrect mass 0.05, so the 1/J scaling is untested."
    if bandit_fit is not None:
        rate = abs(bandit_fit.exponent - 1.0) <= RATE_TOLERANCE
        mf = next((f for f in fits if f.model == "mean field"), None)
        rate_detail = (
            f"Rate: steps to 0.05 ~ (1/J)^{bandit_fit.exponent:.2f} in the bandit"
            + (f", (1/J)^{mf.exponent:.2f} in the mean field" if mf else "")
            + f" (1/J scaling accepted within +-{RATE_TOLERANCE})."
        )
    return Checks(
        boundary=boundary, boundary_detail=boundary_detail, neutral=neutral, neutral_detail=neutral_detail,
        rate=rate, rate_detail=rate_detail,
    )


def _summaries(
    params: Params, verifiers: list[Verifier], mean_field: np.ndarray, cells: list[GridCell[Verifier, np.ndarray]]
) -> tuple[list[FinalMass], list[TimeToThreshold], list[MassCurve], list[int]]:
    idx = np.unique(np.linspace(0, params.steps, min(_CURVE_POINTS, params.steps + 1)).round().astype(int))
    finals, times, curves = [], [], []
    for j, verifier, mf, cell in zip(params.j_values, verifiers, mean_field, cells, strict=True):
        paths = np.stack(cell.results)
        mean = paths.mean(axis=0)
        last = paths[:, -1]
        se = float(last.std(ddof=1) / np.sqrt(len(last))) if len(last) > 1 else 0.0
        j = float(j)  # the requested value (TPR - FPR recomputed in floating point can read -0.0)
        finals.append(
            FinalMass(
                j=j, fnr=verifier.fnr, mean_field=float(mf[-1]), bandit_mean=float(mean[-1]), bandit_se=se,
                bandit_q10=float(np.quantile(last, 0.1)), bandit_q90=float(np.quantile(last, 0.9)),
            )
        )
        times.append(TimeToThreshold(j=j, mean_field=hitting_time(mf), bandit_mean=hitting_time(mean)))
        curves.append(
            MassCurve(
                j=j, mean_field=mf[idx].round(6).tolist(), bandit_mean=mean[idx].round(6).tolist(),
                bandit_q10=np.quantile(paths[:, idx], 0.1, axis=0).round(6).tolist(),
                bandit_q90=np.quantile(paths[:, idx], 0.9, axis=0).round(6).tolist(),
            )
        )
    return finals, times, curves, idx.tolist()


def run(params: Params, progress: Progress) -> Result:
    """Sweep J: mean-field paths (one solve_ivp), the GRPO bandit per J, the phase diagram, checks."""
    monotone = MonotoneProgress(progress)
    verifiers = _verifiers(params)
    monotone(0.0, "mean-field flow")
    mean_field = mean_field_path(
        np.array([v.tpr for v in verifiers]), np.array([v.fpr for v in verifiers]),
        params.initial_incorrect_mass, params.steps, params.learning_rate, params.modes_per_class,
    )

    def simulate(verifier: Verifier, rngs: list[np.random.Generator]) -> list[np.ndarray]:
        run_: BanditRun = bandit_grpo(
            verifier, steps=params.steps, group_size=params.group_size, modes=params.modes_per_class,
            lr=params.learning_rate, x0=params.initial_incorrect_mass, rngs=rngs,
        )
        return list(run_.incorrect_mass)

    cells = run_grid(
        verifiers, simulate, seeds=params.seeds, base_seed=params.seed, progress=monotone.stage(0.05, 0.85),
        label=lambda v: f"GRPO bandit, J = {v.youden_j + 0.0:+.2f}",
    )
    monotone(0.85, "phase diagram (mean field)")
    phase = _phase(params)
    finals, times, curves, curve_steps = _summaries(params, verifiers, mean_field, cells)
    fits = [
        fit
        for fit in (
            _rate_fit("mean field", [(t.j, t.mean_field) for t in times]),
            _rate_fit("bandit", [(t.j, t.bandit_mean) for t in times]),
        )
        if fit is not None
    ]
    monotone(1.0, "done")
    return Result(
        fpr=params.fpr, steps=params.steps, seeds=params.seeds, initial_incorrect_mass=params.initial_incorrect_mass,
        final_incorrect_mass=finals, time_to_threshold=times, curve_steps=curve_steps, curves=curves, phase=phase,
        rate_fits=fits, checks=_checks(params, finals, fits),
    )
