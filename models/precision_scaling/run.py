"""run(params, progress): one problem per seed, SGD under each precision scheme at matched noise, theory, fits, claims."""

from __future__ import annotations

import time

import numpy as np

from models.common.claims import Standing, evaluate_claims
from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.seeds import seed_values
from models.common.sweeps import cell_rng, fit_power_law
from models.precision_scaling.claims import CLAIMS
from models.precision_scaling.measure import measurements, per_seed
from models.precision_scaling.params import Params
from models.precision_scaling.quantise import expected_noise_variance, matched_additive_bits
from models.precision_scaling.result import (
    SCHEMES,
    DataPoint,
    EffectiveSize,
    Fit,
    Result,
    RiskPoint,
    SchemeName,
)
from models.precision_scaling.simulation import ADDITIVE_RANGE, Problem, SgdRun, make_problem, sgd_risk
from models.precision_scaling.theory import TheoryPoint, theory

__all__ = ["MAX_MEMORY_FLOATS", "MAX_SKETCH_FLOPS", "additive_bits", "model_size_from_risk", "run"]

MAX_MEMORY_FLOATS = 40_000_000  # seeds x N x (d + M_max) doubles held at once (about 320 MB)
MAX_SKETCH_FLOPS = 1.2e10  # seeds x N x d x M_max multiply-adds per scheme
MAX_THEORY_FLOPS = 2e10  # theory seeds x schemes x sum over M of (M^2 d + M^3)
THEORY_SEEDS = 3


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
    theory_cost = 3 * (min(seeds, THEORY_SEEDS) * sum(m * m * d + m**3 for m in params.model_sizes)
                       + seeds * (m_max * m_max * d + m_max**3))
    if theory_cost > MAX_THEORY_FLOPS:
        raise MethodInputError(f"model_sizes: the theory would cost {theory_cost:.2e} operations, above {MAX_THEORY_FLOPS:.1e}")


def _problems(params: Params, seeds: list[int]) -> list[Problem]:
    """The same problems for every scheme, seed k's from a stream of its own (not the quantisers')."""
    return [
        make_problem(cell_rng(seed, 10_000, 0), dimension=params.dimension, exponent=params.spectrum_exponent,
                     max_size=max(params.model_sizes), samples=params.n_samples, label_noise=params.label_noise)
        for seed in seeds
    ]


def additive_bits(params: Params) -> int:
    """The additive bit width: as given, or (0) the one matched to the multiplicative noise in closed form."""
    if params.additive_bits:
        return params.additive_bits
    spectrum = np.arange(1, params.dimension + 1, dtype=float) ** -params.spectrum_exponent
    return matched_additive_bits(params.multiplicative_bits, spectrum, ADDITIVE_RANGE)


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


def _curves(runs: dict[SchemeName, SgdRun], theories: dict[SchemeName, list[list[TheoryPoint]]]) -> dict[str, dict]:
    """Seed-mean risk against M and n, effective sizes and fits of every scheme."""
    out: dict[str, dict] = {"risk": {}, "ratio": {}, "effective": {}, "by_n": {}, "fits": {}, "noise": {}}
    full_final = runs["full"].risk[:, :, -1].mean(axis=0)
    for scheme, run_ in runs.items():
        final = run_.risk[:, :, -1]  # (seeds, K)
        mean = final.mean(axis=0)
        th = theories[scheme]
        theory_final = np.mean([[t.risk_at[run_.record[-1]] for t in row] for row in th], axis=0)
        theory_inf = np.mean([[t.infinite_data_risk for t in row] for row in th], axis=0)
        m_eff = np.mean([[t.effective_size for t in row] for row in th], axis=0)
        out["risk"][scheme] = [
            RiskPoint(m=m, risk=float(mean[k]), risk_min=float(final[:, k].min()), risk_max=float(final[:, k].max()),
                      theory=float(theory_final[k]), theory_infinite_data=float(theory_inf[k]))
            for k, m in enumerate(run_.sizes)
        ]
        out["ratio"][scheme] = float(mean[-1] / mean[0])
        out["effective"][scheme] = [
            EffectiveSize(m=m, m_eff=float(m_eff[k]), m_from_risk=model_size_from_risk(run_.sizes, full_final, float(mean[k])))
            for k, m in enumerate(run_.sizes)
        ]
        largest = run_.risk[:, -1, :].mean(axis=0)
        theory_n = np.mean([[row[-1].risk_at[n] for n in run_.record] for row in th], axis=0)
        out["by_n"][scheme] = [DataPoint(n=n, risk=float(largest[i]), theory=float(theory_n[i]))
                               for i, n in enumerate(run_.record)]
        out["fits"][scheme] = _fit(run_.sizes, mean, run_.record, largest)
        out["noise"][scheme] = float(run_.noise_variance.mean())
    return out


def _simulate(params: Params, seeds: list[int], problems: list[Problem], bits: dict[SchemeName, int],
              monotone: MonotoneProgress) -> dict[SchemeName, SgdRun]:
    """One-pass SGD of every scheme; seed k's rounding stream depends only on (seed k, scheme)."""
    runs: dict[SchemeName, SgdRun] = {}
    for index, scheme in enumerate(SCHEMES):
        inner = monotone.stage(0.05 + 0.25 * index, 0.05 + 0.25 * (index + 1))
        rngs = [cell_rng(seed, 20_000 + index, 0) for seed in seeds]
        runs[scheme] = sgd_risk(problems, params.model_sizes, scheme, bits[scheme], rngs, inner, params.noise_level)
    return runs


def run(params: Params, progress: Progress) -> Result:
    """Draw the problems, run SGD under full, multiplicative and additive precision, then the theory and claims."""
    start = time.perf_counter()
    _check_budget(params)
    monotone = MonotoneProgress(progress)
    monotone(0.0, "drawing the problems (spectrum, target, sketch, data)")
    seeds = seed_values(params.seed, params.seeds)
    problems = _problems(params, seeds)
    bits: dict[SchemeName, int] = {"full": 0, "multiplicative": params.multiplicative_bits,
                                   "additive": additive_bits(params)}
    runs = _simulate(params, seeds, problems, bits, monotone)
    theories: dict[SchemeName, list[list[TheoryPoint]]] = {}
    for index, scheme in enumerate(SCHEMES):
        monotone(0.8 + 0.15 * index / len(SCHEMES), f"theory, {scheme} precision")
        theories[scheme] = _theory(problems, runs[scheme])
    monotone(0.95, "the claims, seed by seed")
    rows = per_seed(seeds, problems, runs)
    c = _curves(runs, theories)
    closed = {s: float(np.mean([expected_noise_variance(s, bits[s], float(v), ADDITIVE_RANGE)
                                for v in problems[0].spectrum])) for s in SCHEMES}
    result = Result(
        multiplicative_bits=bits["multiplicative"], additive_bits=bits["additive"], noise_level=params.noise_level,
        additive_bits_matched=params.additive_bits == 0, noise_variance_closed_form=closed, per_seed=rows,
        n_samples=params.n_samples, spectrum_exponent=params.spectrum_exponent, seeds=params.seeds,
        theory_seeds=min(params.seeds, THEORY_SEEDS), risk=c["risk"], ratio_largest_smallest=c["ratio"],
        effective_model_size=c["effective"], risk_vs_n=c["by_n"], fits=c["fits"], noise_variance_mean=c["noise"],
        claims=evaluate_claims(CLAIMS, measurements(rows), seeds), seconds=0.0,
    )
    result.standing = Standing(
        metric="effective model size from the risk fit, kappa = M_eff / M, at matched noise", lower_is_better=False,
        method="multiplicative", labels={"multiplicative": "multiplicative (float-like)", "additive": "additive (int-like)"},
        seed_scores={s: [r.kappa[s] for r in rows] for s in ("multiplicative", "additive")})
    result.seconds = time.perf_counter() - start
    monotone(1.0, "done")
    return result
