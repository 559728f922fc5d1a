"""Refuter inside the domain of the hypotheses: an exact rational point that satisfies every
hypothesis and violates the claim (p < 0, or p <= 0 for a strict claim).

Linear equalities are used to parametrise the domain (the eliminated variables are computed exactly
from the free ones), so every candidate satisfies them exactly. The search minimises
p / (1 + |y|^2)^(d/2) plus a quadratic penalty on violated inequalities with L-BFGS-B from random
starts, then rationalises the point at increasing precision; a point counts only when exact
arithmetic confirms every hypothesis and the violation. Nonlinear equalities hold exactly only at
special rational points, so they are accepted when met exactly and otherwise leave the claim
unrefuted (which proves nothing).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from scipy.optimize import minimize

from .budget import check_time
from .equalities import Elimination
from .parser import Problem
from .polynomial import Polynomial
from .refute import Counterexample, _NumericPoly

__all__ = ["refute_in_domain"]

PENALTY = 1e3


def _full_point(free: Sequence[Fraction], free_index: Sequence[int], n: int, elimination: Elimination) -> tuple[Fraction, ...]:
    """Free coordinates plus the eliminated ones, computed exactly (last substitution first)."""
    values: list[Fraction | None] = [None] * n
    for i, v in zip(free_index, free, strict=True):
        values[i] = v
    for i in range(n):
        if values[i] is None and i not in elimination.variables_removed:
            values[i] = Fraction(0)
    for sub in reversed(elimination.substitutions):
        point = tuple(Fraction(0) if v is None else v for v in values)
        values[sub.index] = sub.phi.evaluate(point)
    return tuple(Fraction(0) if v is None else v for v in values)


def refute_in_domain(
    problem: Problem,
    elimination: Elimination,
    starts: int,
    seed: int,
    check_cancel: Callable[[], None] | None = None,
) -> Counterexample | None:
    """A point of the domain where the claim fails, or None (which proves nothing)."""
    n = len(problem.variables)
    p = problem.claim.polynomial
    strict_claim = problem.claim.strict
    hyps = problem.hypotheses

    def violates(point: tuple[Fraction, ...]) -> Fraction | None:
        for h in hyps:
            value = h.polynomial.evaluate(point)
            if (h.is_equality and value != 0) or (h.strict and value <= 0) or value < 0:
                return None
        value = p.evaluate(point)
        return value if (value <= 0 if strict_claim else value < 0) else None

    removed = elimination.variables_removed
    free_index = [i for i in range(n) if i not in removed]
    reduced_p = elimination.apply(p)
    reduced_g = [elimination.apply(h.polynomial) for h in hyps if not h.is_equality]
    reduced_h = [elimination.apply(h.polynomial) for h in hyps if h.is_equality and h.polynomial.degree() > 1]

    def try_point(free: Sequence[Fraction], how: str) -> Counterexample | None:
        point = _full_point(free, free_index, n, elimination)
        value = violates(point)
        return None if value is None else Counterexample(point, value, how)

    small = [Fraction(0), Fraction(1), Fraction(-1)]
    grid = [*small, Fraction(2), Fraction(-2), Fraction(1, 2), Fraction(-1, 2)] if len(free_index) <= 3 else small
    for entries in itertools.islice(itertools.product(grid, repeat=len(free_index)), 2401):
        found = try_point(list(entries), "grid")
        if found is not None:
            return found
    if not free_index:
        return None
    objective = _Objective(reduced_p, reduced_g, reduced_h, free_index)
    rng = np.random.default_rng(seed)
    scales = (0.5, 1.0, 2.0, 4.0)
    for k in range(starts):
        check_time()
        if check_cancel is not None:
            check_cancel()
        y0 = rng.normal(scale=scales[k % len(scales)], size=len(free_index))
        res = minimize(objective, y0, jac=True, method="L-BFGS-B", options={"maxiter": 200})
        y = np.asarray(res.x, dtype=float)
        for bound in (1, 2, 4, 10, 100, 1000, 10**4, 10**6, 10**9):
            found = try_point([Fraction(float(v)).limit_denominator(bound) for v in y], "search")
            if found is not None:
                return found
    return None


class _Objective:
    """p / (1 + |y|^2)^(d/2) + PENALTY * (sum min(g, 0)^2 + sum h^2), over the free variables."""

    def __init__(self, p: Polynomial, gs: list[Polynomial], hs: list[Polynomial], free_index: list[int]) -> None:
        keep = free_index

        def restrict(q: Polynomial) -> _NumericPoly:
            terms = {tuple(m[i] for i in keep): c for m, c in q.terms.items()}
            return _NumericPoly(Polynomial(tuple(q.variables[i] for i in keep), terms))

        self.p = restrict(p)
        self.gs = [restrict(g) for g in gs if not g.is_zero()]
        self.hs = [restrict(h) for h in hs if not h.is_zero()]
        self.half = max(p.degree(), 1) / 2.0

    def __call__(self, y: np.ndarray) -> tuple[float, np.ndarray]:
        if self.p.coeffs.size:
            value, grad = self.p.value_and_grad(y)
        else:
            value, grad = 0.0, np.zeros_like(y)
        w = 1.0 + float(y @ y)
        scale = w**-self.half
        total = value * scale
        gradient = grad * scale - value * self.half * 2.0 * y * w ** (-self.half - 1.0)
        for g in self.gs:
            gv, gg = g.value_and_grad(y)
            if gv < 0:
                total += PENALTY * gv * gv
                gradient = gradient + 2.0 * PENALTY * gv * gg
        for h in self.hs:
            hv, hg = h.value_and_grad(y)
            total += PENALTY * hv * hv
            gradient = gradient + 2.0 * PENALTY * hv * hg
        return float(total), np.asarray(gradient, dtype=float)
