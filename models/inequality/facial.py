"""Facial reduction for singular Gram matrices: restrict the basis to the orthogonal complement of a
rational kernel read off the numerical solution.

When p has real zeros x*, every Gram matrix of p has z(x*) in its kernel, so the feasible set lies
on a proper face of the PSD cone and rounding cannot land inside it. Following Laplagne (arXiv
1810.04215) and Permenter-Parrilo, we take the kernel of the (maximal-rank) interior-point
solution, rationalise it in reduced row-echelon form, and write Q = V W V^T with R V = 0: the new
basis q = V^T z is a list of polynomials, and the SDP is solved again in W.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import scipy.linalg as sla

from .polynomial import Polynomial, sum_polys

__all__ = ["rational_kernel", "reduce_basis"]


def rational_kernel(
    gram: np.ndarray, rel_tol: float, max_denominator: int
) -> tuple[list[list[Fraction]], list[int]] | None:
    """Rows R (r x n, reduced echelon form with exact rational entries) spanning the numerical kernel
    of `gram` and their pivot columns, or None when the kernel is empty or does not rationalise within tolerance."""
    n = gram.shape[0]
    values, vectors = np.linalg.eigh(gram)
    top = max(float(values[-1]), 1e-300)
    kernel = vectors[:, values < rel_tol * top]
    r = kernel.shape[1]
    if r == 0 or r == n:
        return None
    kt = kernel.T  # r x n
    _q, _r, piv = sla.qr(kt, pivoting=True)
    pivots = sorted(int(p) for p in piv[:r])
    echelon = np.linalg.solve(kt[:, pivots], kt)  # identity on the pivot columns
    rows: list[list[Fraction]] = []
    for k in range(r):
        row = []
        for c in range(n):
            if c in pivots:
                row.append(Fraction(1 if pivots[k] == c else 0))
            else:
                row.append(Fraction(float(echelon[k, c])).limit_denominator(max_denominator))
        rows.append(row)
    as_float = np.array([[float(v) for v in row] for row in rows])
    residual = np.linalg.norm(gram @ as_float.T) / max(float(np.linalg.norm(as_float)), 1.0)
    if residual > 1e-4 * top:
        return None
    return rows, pivots


def reduce_basis(
    basis: Sequence[Polynomial], kernel_rows: Sequence[Sequence[Fraction]], pivots: Sequence[int]
) -> list[Polynomial]:
    """q_f = z_f - sum_k R[k, f] z_{pivot k} for every non-pivot index f (the columns of V with R V = 0)."""
    n = len(basis)
    variables = basis[0].variables
    free = [c for c in range(n) if c not in pivots]
    reduced = []
    for f in free:
        pieces = [basis[f]]
        for row, pivot in zip(kernel_rows, pivots, strict=True):
            if row[f] != 0:
                pieces.append(basis[pivot].scale(-row[f]))
        poly = sum_polys(pieces, variables)
        if not poly.is_zero():
            reduced.append(poly)
    return reduced
