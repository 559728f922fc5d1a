"""run(params, progress): the code, a sample, the overfitting ERM (exact losses), then projected GD on a grid."""

from __future__ import annotations

import numpy as np

from models.common.contract import MethodInputError, Progress
from models.common.progress import MonotoneProgress
from models.common.sweeps import fit_power_law
from models.erm_overfit.code import Code, gold_code
from models.erm_overfit.construction import Sample, empirical_loss, population_loss, projected_gd
from models.erm_overfit.params import Params
from models.erm_overfit.result import GdPoint, Result

__all__ = ["MAX_GD_WORK", "run"]

MAX_GD_WORK = 1.5e10  # etas x max horizon x code size x (dimension + samples) multiply-adds
_ORDER = {31: 5, 127: 7, 511: 9}
_MAX_SEQUENCES = 32  # at n = 9: 32 x 511 = 16,352 vectors, about the size of the n = 7 code


def _code(dimension: int) -> Code:
    n = _ORDER[dimension]
    return gold_code(n, _MAX_SEQUENCES if n == 9 else None)


def _check_budget(params: Params, code_size: int) -> None:
    work = len(params.etas) * max(params.horizons) * code_size * (params.dimension + params.samples)
    if work > MAX_GD_WORK:
        raise MethodInputError(
            f"horizons: {len(params.etas)} etas x T = {max(params.horizons)} on {code_size:,} code vectors costs "
            f"{work:.2e} operations, above the limit of {MAX_GD_WORK:.1e}; use fewer etas, shorter horizons or d = 31"
        )


def _gd(params: Params, code: Code, sample: Sample, progress: MonotoneProgress) -> list[GdPoint]:
    m, lam = params.samples, params.strong_convexity
    points = []
    for index, eta in enumerate(params.etas):
        stage = progress.stage(0.1 + 0.85 * index / len(params.etas), 0.1 + 0.85 * (index + 1) / len(params.etas))
        path = projected_gd(code.vectors, sample, lam, eta, params.horizons, stage)
        for horizon, x in zip(path.horizons, path.iterates, strict=True):
            train = empirical_loss(x, code.vectors, sample, lam, with_noise=True)
            population = population_loss(x, code.vectors, lam)
            points.append(GdPoint(
                eta=eta, horizon=horizon, gap=population - train, lower_bound=float(np.sqrt(eta * horizon / m**1.5)),
                upper_bound=eta * horizon / m, train_loss=train, population_loss=population,
                norm=float(np.linalg.norm(x)),
            ))
    return points


def _slope(points: list[GdPoint]) -> tuple[float | None, float | None, float | None, bool]:
    ordered = sorted(points, key=lambda p: p.eta * p.horizon)
    fit = fit_power_law([p.eta * p.horizon for p in ordered], [p.gap for p in ordered])
    gaps = [p.gap for p in ordered]
    monotone = all(b >= a - 1e-12 for a, b in zip(gaps, gaps[1:], strict=False))
    if fit is None:
        return None, None, None, monotone
    finite = fit.points > 2
    return fit.exponent, fit.exponent_low if finite else None, fit.exponent_high if finite else None, monotone


def run(params: Params, progress: Progress) -> Result:
    """Exact ERM analysis on one sample, then projected GD for every eta up to the longest horizon."""
    monotone = MonotoneProgress(progress)
    monotone(0.0, "building the Gold code")
    code = _code(params.dimension)
    k = code.vectors.shape[0]
    _check_budget(params, k)
    sample = Sample.draw(np.random.default_rng(params.seed), params.samples, code.vectors)
    unseen = sample.unseen()
    monotone(0.05, f"{unseen.size} code vectors in no sample; exact losses of the overfitting ERM")
    lam = params.strong_convexity
    erm_train = erm_reg = erm_pop = erm_excess = None
    if unseen.size:
        bad = code.vectors[unseen[0]]
        erm_train = empirical_loss(bad, code.vectors, sample, 0.0)
        erm_reg = empirical_loss(bad, code.vectors, sample, lam)
        erm_pop = population_loss(bad, code.vectors, lam)
        erm_excess = erm_pop - 0.5  # the population minimum 1/2 is attained at x = 0
    reference = code.vectors[unseen[0] if unseen.size else 0]
    inner = np.delete(code.vectors @ reference, unseen[0] if unseen.size else 0)
    values, counts = np.unique(np.round(inner * code.length).astype(int), return_counts=True)
    points = _gd(params, code, sample, monotone)
    slope, low, high, is_monotone = _slope(points)
    monotone(1.0, "done")
    return Result(
        samples=params.samples, dimension=params.dimension, code_size=k, coherence=code.coherence,
        strong_convexity=lam, unseen_vectors=int(unseen.size), expected_unseen=k / 2**params.samples,
        erm_train_loss=erm_train, erm_regularised_train_loss=erm_reg, min_train_loss=0.5, erm_population_loss=erm_pop,
        erm_population_excess=erm_excess, excess_lower_bound=0.25 - code.coherence, gd=points, gd_slope=slope,
        gd_slope_low=low, gd_slope_high=high, gd_monotone=is_monotone,
        inner_product_values=(values / code.length).tolist(), inner_product_counts=counts.tolist(),
    )
