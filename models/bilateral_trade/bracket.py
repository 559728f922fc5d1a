"""A certified bracket gbb_lower <= GBB <= gbb_upper around the continuous GBB optimum."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.bilateral_trade.distributions import GaussianCopula, ValuationDistribution, gft_table

__all__ = ["GbbBracket", "lagrangian_upper_bound"]

QUADRATURE_TOLERANCE = 1e-4  # Gaussian copula statistics come from a quadrature table (~1e-5)


@dataclass(frozen=True)
class GbbBracket:
    """gbb_lower <= GBB <= gbb_upper, with how each side was obtained."""

    lower: float
    upper: float
    lower_method: str
    upper_method: str
    multiplier: float | None  # the Lagrange multiplier lambda of the upper bound


def lagrangian_upper_bound(
    dist: ValuationDistribution,
    multiplier: float,
    start_cells: int = 64,
    tolerance: float = 2e-4,
    max_cells: int = 400_000,
    max_levels: int = 14,
) -> float | None:
    """A certified upper bound on sup_{p,q} GFT(p, q) + lambda profit(p, q), hence on GBB.

    Weak duality: for any distribution x over couples with E_x[profit] >= 0 and any lambda >= 0,
    E_x[GFT] <= E_x[GFT + lambda profit] <= sup Phi_lambda. Phi_lambda is Lipschitz when the
    marginal densities are bounded by M_s, M_b: moving p by dp changes GFT by at most
    P(s between the two prices) <= M_s |dp| (|b - s| <= 1), and profit = (q - p) P(trade) by at most
    |dp| + M_s |dp| (likewise for q). So on a cell of side h, Phi <= Phi(centre) + h/2 C with
    C = (1 + lambda)(M_s + M_b) + 2 lambda. Branch and bound: cells whose bound cannot beat the best
    centre value (plus `tolerance`) are closed, the others split in four. Returns None when a
    marginal density is unbounded (atoms), where no such Lipschitz bound exists.
    """
    m_s, m_b = dist.marginal_density_bounds()
    if not (math.isfinite(m_s) and math.isfinite(m_b)):
        return None
    lam = max(multiplier, 0.0)
    lipschitz = (1 + lam) * (m_s + m_b) + 2 * lam
    side = 1.0 / start_cells
    centres = (np.arange(start_cells) + 0.5) * side
    p, q = (a.ravel() for a in np.meshgrid(centres, centres, indexing="ij"))
    closed = -math.inf  # the largest bound of a closed cell
    for _ in range(max_levels):
        table = gft_table(dist, p, q)
        phi = table["gft"] + lam * table["profit"]
        bound = phi + 0.5 * side * lipschitz
        best = float(phi.max())
        open_cells = bound > best + tolerance
        closed = max(closed, float(bound[~open_cells].max(initial=-math.inf)))
        if not open_cells.any():
            break
        if 4 * int(open_cells.sum()) > max_cells:
            return max(closed, float(bound.max()))
        side /= 2
        shift = 0.5 * side
        p, q = p[open_cells], q[open_cells]
        p = np.concatenate([p - shift, p - shift, p + shift, p + shift])
        q = np.concatenate([q - shift, q + shift, q - shift, q + shift])
    else:
        table = gft_table(dist, p, q)
        closed = max(closed, float((table["gft"] + lam * table["profit"]).max() + 0.5 * side * lipschitz))
    if isinstance(dist, GaussianCopula):
        closed += (1 + lam) * QUADRATURE_TOLERANCE
    return closed
