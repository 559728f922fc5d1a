"""run(params, progress): the code (d = 6m), then per seed tens of training sets, each with its unique ERM, SGD
and an unseen codeword, all with exact population losses."""

from __future__ import annotations

import numpy as np

from models.common.claims import evaluate_claims
from models.common.contract import Progress
from models.common.seeds import run_seeds, seed_values
from models.common.stats import binomial_lower_bound
from models.erm_overfit.claims import CLAIMS, measure
from models.erm_overfit.code import random_linear_code
from models.erm_overfit.construction import (
    Sample,
    closed_form_erm,
    feldman_population,
    one_pass_sgd,
    solve_regularised_erm,
)
from models.erm_overfit.params import Params
from models.erm_overfit.result import Instance, Result, SeedSummary

__all__ = ["CHECKED", "DIMENSION_RATIO", "Setting", "run"]

DIMENSION_RATIO = 6  # d = 6m, the paper's dimension
CHECKED = 2  # closed-form sets per seed also solved by the convex solver


class Setting:
    """The fixed instance for given params: code, theta, lambda, alpha, epsilon and the overfitting margin."""

    def __init__(self, params: Params) -> None:
        m = params.samples
        d = DIMENSION_RATIO * m
        self.code = random_linear_code(d, m + params.extra_bits)
        self.theta = (m - 2 + 2 * params.threshold_margin) / np.sqrt(m * d)
        self.guarantee = (1.0 - params.threshold_margin) / np.sqrt(m * d)
        self.lam = m**-1.5
        self.alpha = 2.0 / m  # alpha ||h|| / m = 2 lambda without collisions: the ERM reaches the sphere
        self.epsilon = params.approx_scale * m**-1.5
        self.radius = float(np.sqrt(2.0 * self.epsilon / self.lam))


def _instance(setting: Setting, sample: Sample, check: bool) -> tuple[Instance, float | None]:
    w, theta, alpha, lam = setting.code.vectors, setting.theta, setting.alpha, setting.lam
    closed = closed_form_erm(w, sample, theta, alpha, lam)
    error = None
    if closed is None or check:
        solved = solve_regularised_erm(w, sample, theta, alpha, lam).x
        error = None if closed is None else float(np.abs(closed - solved).max())
    x = closed if closed is not None else solved
    excess = feldman_population(x, w, theta)
    train = max(float((w[m] @ x).max(initial=theta)) for m in (sample.members(w, i) for i in range(sample.signs.size)))
    unseen = np.nonzero(~sample.seen)[0]
    feldman = feldman_population(w[unseen[0]], w, theta) if unseen.size else None
    row = Instance(collisions=sample.collisions, unseen=int(unseen.size), closed_form=closed is not None,
                   erm_excess=excess, erm_train_excess=max(train - theta, 0.0),
                   sgd_excess=feldman_population(one_pass_sgd(w, sample, theta, alpha, lam), w, theta),
                   approx_bound=excess - setting.radius, feldman_excess=feldman)
    return row, error


def _one_seed(params: Params, setting: Setting, seed: int, progress: Progress
              ) -> tuple[list[Instance], float | None]:
    rng = np.random.default_rng(seed)
    rows: list[Instance] = []
    errors: list[float] = []
    for k in range(params.instances):
        if k % 10 == 0:
            progress(k / params.instances, f"seed {seed}: training set {k + 1} of {params.instances}")
        sample = Sample.draw(rng, params.samples, setting.code.vectors)
        row, error = _instance(setting, sample, check=len(errors) < CHECKED)
        rows.append(row)
        if error is not None:
            errors.append(error)
    return rows, (max(errors) if errors else None)


def _summary(seed: int, rows: list[Instance], guarantee: float, error: float | None) -> SeedSummary:
    over = sum(r.erm_excess >= guarantee for r in rows)
    approx = sum(r.approx_bound >= guarantee for r in rows)
    clean = [r for r in rows if r.collisions == 0]
    n = len(rows)
    return SeedSummary(seed=seed, overfit_rate=over / n, overfit_lower=binomial_lower_bound(over, n),
                       approx_rate=approx / n, approx_lower=binomial_lower_bound(approx, n),
                       no_collision_rate=(sum(r.erm_excess >= guarantee for r in clean) / len(clean)) if clean else None,
                       erm_excess=sum(r.erm_excess for r in rows) / n, sgd_excess=sum(r.sgd_excess for r in rows) / n,
                       solver_error=error)


def run(params: Params, progress: Progress) -> Result:
    """The code once (a fixed instance for m), then every seed's training sets; the claims."""
    progress(0.0, "building the code")
    setting = Setting(params)
    seeds = seed_values(params.seed, params.seeds)
    results = run_seeds(seeds, lambda s, p: _one_seed(params, setting, s, p), progress, start=0.05)
    per_seed = [r[0] for r in results]
    errors = [r[1] for r in results]
    claims = evaluate_claims(CLAIMS, measure(per_seed, setting.guarantee, (1.0 - setting.theta) / 2, errors), seeds)
    return Result(
        claims=claims, samples=params.samples, dimension=setting.code.dimension,
        code_size=len(setting.code.vectors), coherence=setting.code.coherence, theta=float(setting.theta),
        guarantee=float(setting.guarantee), strong_convexity=setting.lam, noise_scale=setting.alpha,
        epsilon=setting.epsilon,
        summaries=[_summary(s, rows, setting.guarantee, e) for s, rows, e in zip(seeds, per_seed, errors, strict=True)],
        instances=per_seed)
