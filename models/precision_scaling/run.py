"""run(params, progress): one problem per seed, SGD under each precision scheme, theory, fits and checks."""

from __future__ import annotations

import numpy as np

from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.sweeps import GridCell, cell_rng, fit_power_law, run_grid
from models.precision_scaling.params import Params
from models.precision_scaling.quantise import Scheme
from models.precision_scaling.result import (
    SCHEMES,
    Checks,
    DataPoint,
    EffectiveSize,
    Fit,
    Result,
    RiskPoint,
    SchemeName,
)
from models.precision_scaling.simulation import Problem, SgdRun, make_problem, sgd_risk
from models.precision_scaling.theory import TheoryPoint, theory

__all__ = ["KEEP_FRACTION", "MAX_MEMORY_FLOATS", "MAX_SKETCH_FLOPS", "model_size_from_risk", "run"]

MAX_MEMORY_FLOATS = 40_000_000  # seeds x N x (d + M_max) doubles held at once (about 320 MB)
MAX_SKETCH_FLOPS = 1.2e10  # seeds x N x d x M_max multiply-adds per scheme
MAX_THEORY_FLOPS = 2e10  # theory seeds x schemes x sum over M of (M^2 d + M^3)
THEORY_SEEDS = 3
KEEP_FRACTION = 0.9  # multiplicative keeps the model size: m_eff >= 0.9 M at every M


def _check_budget(params: Params) -> None:
    m_max, n, d, seeds = max(params.model_sizes), params.n_samples, params.dimension, params.seeds
    memory = seeds * n * (d + m_max)
    if memory > MAX_MEMORY_FLOATS:
        raise MethodInputError(
            f"n_samples: seeds x n_samples x (dimension + largest model size) = {memory:,} is above the limit of "
            f"{MAX_MEMORY_FLOATS:,}; use fewer samples, seeds or a smaller dimension"
        )
    if seeds * n * d * m_max > MAX_SKETCH_FLOPS:
        raise MethodInputError(
            f"model_sizes: seeds x n_samples x dimension x largest size = {seeds * n * d * m_max:.2e} is above the "
            f"limit of {MAX_SKETCH_FLOPS:.1e}"
        )
    theory_cost = min(seeds, THEORY_SEEDS) * 3 * sum(m * m * d + m**3 for m in params.model_sizes)
    if theory_cost > MAX_THEORY_FLOPS:
        raise MethodInputError(f"model_sizes: the theory would cost {theory_cost:.2e} operations, above {MAX_THEORY_FLOPS:.1e}")


def _problems(params: Params) -> list[Problem]:
    """The same problems for every scheme: drawn from streams of their own, not the quantisers'."""
    return [
        make_problem(cell_rng(params.seed, 10_000, s), dimension=params.dimension, exponent=params.spectrum_exponent,
                     max_size=max(params.model_sizes), samples=params.n_samples, label_noise=params.label_noise)
        for s in range(params.seeds)
    ]


def _theory(problems: list[Problem], run_: SgdRun) -> list[list[TheoryPoint]]:
    """theory[s][k] for the first THEORY_SEEDS problems."""
    return [
        [theory(p.sketch_of(m), p.spectrum, p.target, run_.noise_variance[s], p.label_noise,
                float(run_.step_sizes[s, k]), run_.record) for k, m in enumerate(run_.sizes)]
        for s, p in enumerate(problems[:THEORY_SEEDS])
    ]


def _fit(sizes: list[int], risk_m: np.ndarray, record: list[int], risk_n: np.ndarray) -> Fit:
    fm, fn = fit_power_law(sizes, risk_m), fit_power_law(record, risk_n)

    def finite(value: float | None) -> float | None:
        return None if value is None or not np.isfinite(value) else float(value)

    return Fit(
        m_exponent=None if fm is None else fm.exponent, m_exponent_low=None if fm is None else finite(fm.exponent_low),
        m_exponent_high=None if fm is None else finite(fm.exponent_high), n_exponent=None if fn is None else fn.exponent,
        n_exponent_low=None if fn is None else finite(fn.exponent_low),
        n_exponent_high=None if fn is None else finite(fn.exponent_high),
    )


def model_size_from_risk(sizes: list[int], full_risk: np.ndarray, risk: float) -> float | None:
    """The full-precision model size whose simulated risk equals `risk`.

    Log-log interpolation inside the simulated range (the full-precision risk must decrease with
    M there); outside it, the power-law fit of the full-precision curve. None if that fit is flat.
    """
    log_m, log_r = np.log(np.asarray(sizes, float)), np.log(full_risk)
    if np.all(np.diff(log_r) < 0) and log_r[-1] <= np.log(risk) <= log_r[0]:
        return float(np.exp(np.interp(np.log(risk), log_r[::-1], log_m[::-1])))
    fit = fit_power_law(sizes, full_risk)
    if fit is None or fit.exponent >= 0:
        return None
    return float((risk / fit.prefactor) ** (1.0 / fit.exponent))


def _exponents_agree(a: Fit, b: Fit) -> bool:
    """The M-exponents' confidence intervals overlap (or, without intervals, differ by under 10%)."""
    if a.m_exponent is None or b.m_exponent is None:
        return False
    if None in (a.m_exponent_low, a.m_exponent_high, b.m_exponent_low, b.m_exponent_high):
        return abs(a.m_exponent - b.m_exponent) <= 0.1 * abs(b.m_exponent)
    return bool(a.m_exponent_low <= b.m_exponent_high and b.m_exponent_low <= a.m_exponent_high)  # type: ignore[operator]


def _checks(fits: dict[SchemeName, Fit], sizes: dict[SchemeName, list[EffectiveSize]]) -> Checks:
    mult_fraction = min(e.m_eff / e.m for e in sizes["multiplicative"])
    add, mult = sizes["additive"][-1], sizes["multiplicative"][-1]
    same_slope = _exponents_agree(fits["multiplicative"], fits["full"])
    keeps = mult_fraction >= KEEP_FRACTION and same_slope
    from_risk = add.m_from_risk
    shrinks = add.m_eff < KEEP_FRACTION * add.m and from_risk is not None and from_risk < KEEP_FRACTION * add.m

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1f}"

    detail = (
        f"Exponent of risk vs M: full {fmt(fits['full'].m_exponent)}, multiplicative "
        f"{fmt(fits['multiplicative'].m_exponent)} (intervals {'overlap' if same_slope else 'do not overlap'}), additive "
        f"{fmt(fits['additive'].m_exponent)}. Effective model size at M = {add.m}: multiplicative {mult.m_eff:.1f} "
        f"(theory) / {fmt(mult.m_from_risk)} (from risk), additive {add.m_eff:.1f} / {fmt(from_risk)}."
    )
    return Checks(keeps_model_size=keeps, shrinks_model_size=shrinks, detail=detail)


def _summarise(params: Params, cells: list[GridCell[Scheme, SgdRun]], theories: dict[Scheme, list[list[TheoryPoint]]]
               ) -> Result:
    risk, ratio, effective, by_n, fits, noise = {}, {}, {}, {}, {}, {}
    full_final = next(c for c in cells if c.setting == "full").results[0].risk[:, :, -1].mean(axis=0)
    for cell in cells:
        scheme: SchemeName = cell.setting
        run_ = cell.results[0]
        final = run_.risk[:, :, -1]  # (seeds, K)
        mean = final.mean(axis=0)
        th = theories[scheme]
        theory_final = np.mean([[t.risk_at[run_.record[-1]] for t in row] for row in th], axis=0)
        theory_inf = np.mean([[t.infinite_data_risk for t in row] for row in th], axis=0)
        m_eff = np.mean([[t.effective_size for t in row] for row in th], axis=0)
        risk[scheme] = [
            RiskPoint(m=m, risk=float(mean[k]), risk_min=float(final[:, k].min()), risk_max=float(final[:, k].max()),
                      theory=float(theory_final[k]), theory_infinite_data=float(theory_inf[k]))
            for k, m in enumerate(run_.sizes)
        ]
        ratio[scheme] = float(mean[-1] / mean[0])
        effective[scheme] = [
            EffectiveSize(m=m, m_eff=float(m_eff[k]), m_from_risk=model_size_from_risk(run_.sizes, full_final, float(mean[k])))
            for k, m in enumerate(run_.sizes)
        ]
        largest = run_.risk[:, -1, :].mean(axis=0)
        theory_n = np.mean([[row[-1].risk_at[n] for n in run_.record] for row in th], axis=0)
        by_n[scheme] = [DataPoint(n=n, risk=float(largest[i]), theory=float(theory_n[i])) for i, n in enumerate(run_.record)]
        fits[scheme] = _fit(run_.sizes, mean, run_.record, largest)
        noise[scheme] = float(run_.noise_variance.mean())
    return Result(
        bits=params.bits, n_samples=params.n_samples, spectrum_exponent=params.spectrum_exponent, seeds=params.seeds,
        theory_seeds=min(params.seeds, THEORY_SEEDS), risk=risk, ratio_largest_smallest=ratio,
        effective_model_size=effective, risk_vs_n=by_n, fits=fits, noise_variance_mean=noise,
        checks=_checks(fits, effective),
    )


def run(params: Params, progress: Progress) -> Result:
    """Draw the problems, run SGD under full, multiplicative and additive precision, then the theory."""
    _check_budget(params)
    monotone = MonotoneProgress(progress)
    monotone(0.0, "drawing the problems (spectrum, target, sketch, data)")
    problems = _problems(params)

    def simulate(scheme: Scheme, rngs: list[np.random.Generator]) -> list[SgdRun]:
        # one quantisation stream per problem, spawned from the cell's generator
        index = SCHEMES.index(scheme)
        inner = monotone.stage(0.05 + 0.25 * index, 0.05 + 0.25 * (index + 1))  # per-sample progress inside the cell
        return [sgd_risk(problems, params.model_sizes, scheme, params.bits, rngs[0].spawn(len(problems)), inner)]

    cells = run_grid(list(SCHEMES), simulate, seeds=1, base_seed=params.seed, progress=monotone.stage(0.05, 0.8),
                     label=lambda s: f"one-pass SGD, {s} precision")
    theories: dict[Scheme, list[list[TheoryPoint]]] = {}
    for index, cell in enumerate(cells):
        monotone(0.8 + 0.2 * index / len(cells), f"theory, {cell.setting} precision")
        theories[cell.setting] = _theory(problems, cell.results[0])
    monotone(1.0, "done")
    return _summarise(params, cells, theories)
