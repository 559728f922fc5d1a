"""Refuter: search for a rational point where p < 0, verified in exact arithmetic.

NSPI (arXiv 2605.15445) runs a cheap falsification step before any proof search; here it is
random restarts of a local minimiser on p / (1 + |x|^2)^(d/2), followed by rationalisation of the
best point at increasing precision until the exact value is negative. Odd total degree is refuted
directly along a ray where the leading form is negative.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import minimize

from .budget import check_time
from .polynomial import Polynomial

__all__ = ["Counterexample", "counterexample_slice", "refute", "refute_odd_degree"]


@dataclass(frozen=True)
class Counterexample:
    """An exact rational point and the exact (negative) value of p there."""

    point: tuple[Fraction, ...]
    value: Fraction
    method: str


class _NumericPoly:
    """Vectorised float evaluation of p and its gradient through a table of powers x_k^e."""

    def __init__(self, poly: Polynomial) -> None:
        self.exps, self.coeffs = poly.arrays()
        self.degree = poly.degree()
        self.n = len(poly.variables)
        self.cols = np.arange(self.n)
        self.lowered = np.maximum(self.exps - 1, 0)

    def _factors(self, x: np.ndarray) -> np.ndarray:
        table = x[:, None] ** np.arange(self.degree + 1)[None, :]  # n x (d+1)
        return table[self.cols, self.exps]  # terms x n: x_k^(e_k)

    def value(self, x: np.ndarray) -> float:
        return float(self.coeffs @ np.prod(self._factors(x), axis=1))

    def value_and_grad(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        table = x[:, None] ** np.arange(self.degree + 1)[None, :]
        factors = table[self.cols, self.exps]
        derivs = self.exps * table[self.cols, self.lowered]  # d/dx_k of x_k^(e_k)
        ones = np.ones((factors.shape[0], 1))
        before = np.cumprod(np.hstack([ones, factors[:, :-1]]), axis=1)
        after = np.cumprod(np.hstack([ones, factors[:, :0:-1]]), axis=1)[:, ::-1]
        grad = self.coeffs @ (derivs * before * after)
        return float(self.coeffs @ np.prod(factors, axis=1)), np.asarray(grad, dtype=float)

    def scaled(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """p(x) / (1 + |x|^2)^(d/2) and its gradient: bounded, so minimisers stay finite."""
        value, grad = self.value_and_grad(x)
        half = self.degree / 2.0
        w = 1.0 + float(x @ x)
        scale = w**-half
        return value * scale, grad * scale - value * half * 2.0 * x * w ** (-half - 1.0)


def _rationalise(poly: Polynomial, x: np.ndarray, strict: bool = False) -> Counterexample | None:
    """The simplest rational point near x with exact p < 0 (p <= 0 against a strict claim), if any."""
    for bound in (1, 2, 4, 10, 100, 1000, 10**4, 10**6, 10**8, 10**12):
        point = tuple(Fraction(float(v)).limit_denominator(bound) for v in x)
        value = poly.evaluate(point)
        if value < 0 or (strict and value == 0):
            return Counterexample(point, value, "search")
    return None


def refute_odd_degree(poly: Polynomial) -> Counterexample:
    """For odd total degree d: p(t u) ~ t^d p_d(u) with p_d(u) < 0 for a small integer u; grow t."""
    degree = poly.degree()
    lead = poly.homogeneous_part(degree)
    n = len(poly.variables)
    direction: tuple[Fraction, ...] | None = None
    rng = np.random.default_rng(0)
    # a nonzero form of degree d vanishes on at most a d/7 share of {-3..3}^n (Schwartz-Zippel)
    for _ in range(400):
        u = tuple(Fraction(int(e)) for e in rng.integers(-3, 4, size=n))
        value = lead.evaluate(u)
        if value != 0:
            direction = u if value < 0 else tuple(-e for e in u)
            break
    if direction is None:
        raise RuntimeError("no direction with nonzero leading form found")
    t = Fraction(1)
    while True:
        point = tuple(t * e for e in direction)
        value = poly.evaluate(point)
        if value < 0:
            return Counterexample(point, value, "odd degree")
        t *= 2


def refute(
    poly: Polynomial,
    starts: int,
    seed: int,
    check_cancel: Callable[[], None] | None = None,
    strict: bool = False,
) -> Counterexample | None:
    """A counterexample to p >= 0 (to p > 0 when `strict`: a point with p <= 0), or None when none was
    found (which proves nothing)."""
    if poly.is_zero():
        return Counterexample(tuple(Fraction(0) for _ in poly.variables), Fraction(0), "p = 0") if strict else None
    n = len(poly.variables)
    if poly.degree() % 2 == 1:
        return refute_odd_degree(poly)
    origin = tuple(Fraction(0) for _ in range(n))
    if poly.evaluate(origin) < 0 or (strict and poly.evaluate(origin) == 0):
        return Counterexample(origin, poly.evaluate(origin), "origin")
    numeric = _NumericPoly(poly)
    # small integer points first: cheap, and they give the simplest counterexamples (floats screen,
    # exact arithmetic decides)
    grid = (0, 1, -1, 2, -2) if n <= 4 else (0, 1, -1)
    points = list(itertools.islice(itertools.product(grid, repeat=n), 729))
    tolerance = 1e-9 * float(np.abs(numeric.coeffs).max())
    for entries in points:
        if numeric.value(np.array(entries, dtype=float)) < tolerance:
            point = tuple(Fraction(e) for e in entries)
            value = poly.evaluate(point)
            if value < 0 or (strict and value == 0):
                return Counterexample(point, value, "grid")
    rng = np.random.default_rng(seed)
    scales = (0.5, 1.0, 2.0, 4.0)
    for k in range(starts):
        check_time()
        if check_cancel is not None:
            check_cancel()
        x0 = rng.normal(scale=scales[k % len(scales)], size=n)
        res = minimize(numeric.scaled, x0, jac=True, method="L-BFGS-B", options={"maxiter": 150})
        x = np.asarray(res.x, dtype=float)
        numeric_value = numeric.value(x)
        if np.isfinite(numeric_value) and (numeric_value < 0 or (strict and numeric_value < tolerance)):
            found = _rationalise(poly, x, strict)
            if found is not None:
                return found
    return None


def counterexample_slice(poly: Polynomial, point: tuple[Fraction, ...]) -> tuple[list[float], list[float]]:
    """p(t * x*) for t in [-0.25, 1.5]: the counterexample sits at t = 1."""
    exps, coeffs = poly.arrays()
    ts = np.linspace(-0.25, 1.5, 141)
    base = np.array([float(v) for v in point])
    values = [float(coeffs @ np.prod((t * base)[None, :] ** exps, axis=1)) for t in ts]
    return ts.tolist(), values
