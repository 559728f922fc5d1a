"""The named valuation distributions of the page, built from their parameters."""

from __future__ import annotations

from models.bilateral_trade.distributions import (
    GaussianCopula,
    Rectangle,
    RectangleMixture,
    ValuationDistribution,
)
from models.bilateral_trade.params import DistributionParams
from models.common.contract import MethodInputError

__all__ = ["build_distribution"]


def _rectangles(spec: DistributionParams) -> list[Rectangle]:
    if not spec.rectangles:
        raise MethodInputError(
            "distribution.rectangles is empty: give at least one rectangle with a positive mass"
        )
    rects = []
    for index, r in enumerate(spec.rectangles):
        for side, (lo, hi) in (("s", r.s), ("b", r.b)):
            if not (0.0 <= lo <= 1.0 and 0.0 <= hi <= 1.0):
                raise MethodInputError(
                    f"distribution.rectangles[{index}].{side} = [{lo}, {hi}] lies outside [0, 1]"
                )
            if lo > hi:
                raise MethodInputError(
                    f"distribution.rectangles[{index}].{side} = [{lo}, {hi}]: lo must not exceed hi"
                )
        rects.append(Rectangle(r.s[0], r.s[1], r.b[0], r.b[1], r.mass))
    if sum(r.mass for r in rects) <= 0:
        raise MethodInputError(
            "distribution.rectangles: the total mass is 0; give at least one rectangle a positive mass"
        )
    return rects


def build_distribution(spec: DistributionParams) -> ValuationDistribution:
    """The distribution named by `spec.kind` (Lunghi et al. 2026 examples and user mixtures)."""
    eta, w = spec.eta, spec.width
    if spec.kind == "uniform":
        return RectangleMixture([Rectangle(0, 1, 0, 1, 1)], "independent uniform on [0,1]^2")
    if spec.kind == "factor_two":
        atoms = [Rectangle(0, 0, 0.5 - eta, 0.5 - eta, 0.5), Rectangle(0.5 + eta, 0.5 + eta, 1, 1, 0.5)]
        return RectangleMixture(atoms, f"factor-two atoms (0, {0.5 - eta:g}) and ({0.5 + eta:g}, 1)")
    if spec.kind == "two_markets":
        markets = [Rectangle(0, 0.15, 0.3, 0.5, 0.5), Rectangle(0.45, 0.6, 0.8, 1.0, 0.5)]
        return RectangleMixture(markets, "two separated markets")
    if spec.kind == "two_squares":
        # squares of side w just inside each factor-two atom, so they stay in [0,1]^2
        low_b = max(0.5 - eta - w, 0.0)
        squares = [
            Rectangle(0, w, low_b, low_b + w, 0.5),
            Rectangle(0.5 + eta, min(0.5 + eta + w, 1.0), 1 - w, 1, 0.5),
        ]
        return RectangleMixture(squares, f"two squares of side {w:g} (bounded-density factor two)")
    if spec.kind == "gaussian_copula":
        return GaussianCopula(spec.rho, f"Gaussian copula, rho = {spec.rho:g}")
    return RectangleMixture(_rectangles(spec), f"mixture of {len(spec.rectangles)} rectangles")
