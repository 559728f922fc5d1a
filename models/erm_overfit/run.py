"""run(params, progress): the code (d = 6m), then per seed a sample, the bad exact ERM and the regularised ERM."""

from __future__ import annotations

import numpy as np

from models.common.claims import evaluate_claims, run_seeds, seed_values
from models.common.contract import Progress
from models.erm_overfit.claims import CLAIMS, measure
from models.erm_overfit.code import Code, random_linear_code
from models.erm_overfit.construction import (
    Sample,
    empirical_objective,
    population_excess,
    solve_regularised_erm,
)
from models.erm_overfit.params import Params
from models.erm_overfit.result import Result, SeedOutcome

__all__ = ["DIMENSION_RATIO", "run", "theta_of"]

DIMENSION_RATIO = 6  # d = 6m, the paper's dimension


def theta_of(code: Code, margin: float) -> float:
    return code.coherence + margin * (1.0 - code.coherence)


def _one_seed(params: Params, code: Code, seed: int, progress: Progress) -> tuple[SeedOutcome, np.ndarray, Sample]:
    m, w = params.samples, code.vectors
    theta, lam = theta_of(code, params.threshold_margin), params.lambda_scale * m**-1.5
    progress(0.0, f"seed {seed}: drawing {m} samples")
    sample = Sample.draw(np.random.default_rng(seed), m, w)
    unseen = sample.unseen()
    bad_train = bad_excess = None
    if unseen.size:
        u = w[unseen[0]]
        bad_train = empirical_objective(u, w, sample, theta, 0.0, 0.0) - theta
        bad_excess = population_excess(u, w, theta, 0.0)
    progress(0.2, f"seed {seed}: solving the regularised empirical objective")
    solution = solve_regularised_erm(w, sample, theta, params.noise_scale, lam)
    x = solution.x
    inner = w @ x
    zero = empirical_objective(np.zeros(code.dimension), w, sample, theta, params.noise_scale, lam)
    outcome = SeedOutcome(
        seed=seed, unseen=int(unseen.size), bad_erm_train_excess=bad_train, bad_erm_excess=bad_excess,
        erm_excess=population_excess(x, w, theta, 0.0), erm_excess_total=population_excess(x, w, theta, lam),
        erm_norm=float(np.linalg.norm(x)), erm_max_inner=float(inner.max()),
        erm_max_unseen_inner=float(inner[unseen].max()) if unseen.size else None,
        zero_minus_erm=zero - solution.objective, solver_gap=solution.gap, solver_status=solution.status)
    progress(1.0, f"seed {seed}: done")
    return outcome, inner, sample


def run(params: Params, progress: Progress) -> Result:
    """The code once (a fixed instance for m), then every seed's sample and exact losses; the claims."""
    progress(0.0, "building the code")
    m = params.samples
    code = random_linear_code(DIMENSION_RATIO * m, m + params.extra_bits)
    theta = theta_of(code, params.threshold_margin)
    seeds = seed_values(params.seed, params.seeds)
    results = run_seeds(seeds, lambda s, p: _one_seed(params, code, s, p), progress, start=0.05)
    outcomes = [r[0] for r in results]
    guarantee = (1.0 - theta) / 2.0
    _, inner, sample = results[0]
    mask = np.zeros(len(inner), dtype=bool)
    mask[sample.unseen()] = True
    return Result(
        claims=evaluate_claims(CLAIMS, measure(outcomes, guarantee), seeds), samples=m,
        dimension=code.dimension, code_size=len(code.vectors), coherence=code.coherence, theta=theta,
        strong_convexity=params.lambda_scale * m**-1.5, noise_scale=params.noise_scale, guarantee=guarantee,
        outcomes=outcomes, inner_products=np.round(inner, 6).tolist(), unseen_mask=mask.tolist())
