"""Cell-centred finite-volume solver of 2-D single-phase Darcy flow, -div(k grad p) = q on [0, 1]^2.

Dirichlet boundary p = g on the four sides; two-point flux with harmonic-mean face transmissibilities
(a boundary face sits h/2 from its cell centre). Solved with scipy's sparse LU.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

__all__ = ["FlowSolution", "assemble", "cell_centres", "solve_darcy"]


def cell_centres(n: int) -> np.ndarray:
    """The 1-D cell centres (i + 1/2) / n of an n-cell grid on [0, 1]."""
    return (np.arange(n) + 0.5) / n


@dataclass(frozen=True)
class FlowSolution:
    """Pressure p[i, j] at cell (x_i, y_j) and the net outward flux through each side of the box."""

    pressure: np.ndarray
    boundary_outflux: float
    source_total: float


def assemble(k: np.ndarray, q: np.ndarray, g: np.ndarray | float = 0.0) -> tuple[sp.csr_matrix, np.ndarray]:
    """The FV system A p = b of -div(k grad p) = q (p flattened with x as the slow index)."""
    n = k.shape[0]
    if k.shape != (n, n) or q.shape != (n, n) or np.any(k <= 0):
        raise ValueError("k and q must be n x n arrays and k positive")
    h = 1.0 / n
    sides = np.broadcast_to(np.asarray(g, dtype=float), (4, n)) if np.ndim(g) == 0 else np.asarray(g, dtype=float)
    index = np.arange(n * n).reshape(n, n)
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    diag = np.zeros((n, n))
    rhs = q * h * h
    # interior faces along x and along y: flux T (p_a - p_b), T the harmonic mean of k
    for a, b, ka, kb in ((index[:-1, :], index[1:, :], k[:-1, :], k[1:, :]),
                         (index[:, :-1], index[:, 1:], k[:, :-1], k[:, 1:])):
        t = 2.0 * ka * kb / (ka + kb)
        rows += [a.ravel(), b.ravel()]
        cols += [b.ravel(), a.ravel()]
        vals += [-t.ravel(), -t.ravel()]
        np.add.at(diag, np.unravel_index(a.ravel(), (n, n)), t.ravel())
        np.add.at(diag, np.unravel_index(b.ravel(), (n, n)), t.ravel())
    # boundary faces: flux 2 k_i (p_i - g)
    boundary = _boundary_cells(n)
    for side, (ii, jj) in enumerate(boundary):
        t = 2.0 * k[ii, jj]
        np.add.at(diag, (ii, jj), t)
        np.add.at(rhs, (ii, jj), t * sides[side])
    rows.append(index.ravel())
    cols.append(index.ravel())
    vals.append(diag.ravel())
    matrix = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n * n, n * n))
    return matrix, rhs.ravel()


def solve_darcy(k: np.ndarray, q: np.ndarray, g: np.ndarray | float = 0.0) -> FlowSolution:
    """Solve -div(k grad p) = q on an n x n grid; `k`, `q` are cell values indexed [i (x), j (y)].

    `g` is the boundary pressure: a scalar, or an array of shape (4, n) for the sides
    x = 0, x = 1, y = 0, y = 1 (each ordered along the other coordinate).
    """
    n = k.shape[0]
    h = 1.0 / n
    matrix, rhs = assemble(k, q, g)
    sides = np.broadcast_to(np.asarray(g, dtype=float), (4, n)) if np.ndim(g) == 0 else np.asarray(g, dtype=float)
    boundary = _boundary_cells(n)
    p = np.asarray(spsolve(matrix.tocsc(), rhs)).reshape(n, n)
    outflux = sum(float(np.sum(2.0 * k[ii, jj] * (p[ii, jj] - sides[s]))) for s, (ii, jj) in enumerate(boundary))
    return FlowSolution(pressure=p, boundary_outflux=outflux, source_total=float(np.sum(q) * h * h))


def _boundary_cells(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(i, j) of the cells along x = 0, x = 1, y = 0, y = 1."""
    r = np.arange(n)
    z = np.zeros(n, dtype=int)
    return [(z, r), (z + n - 1, r), (r, z), (r, z + n - 1)]
