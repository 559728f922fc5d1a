"""Exact refinement: round a float Gram matrix, project it onto the affine Gram space, factor by LDL^T.

Peyrl & Parrilo (2008), "Computing sum of squares decompositions with rational coefficients": if
the numerical Gram matrix is strictly positive definite, rounding it to rationals and projecting it
orthogonally (Frobenius norm) onto {Q : p = z^T Q z} keeps it positive definite once the rounding
is fine enough. The projection is closed form when every entry feeds one monomial; otherwise an
exact least-norm solve. PSD-ness is then decided by a rational LDL^T factorisation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from models.inequality.budget import check_time

from .gram import GramSystem

__all__ = ["ldl_psd", "project", "round_matrix", "solve_consistent"]

Matrix = list[list[Fraction]]


def round_matrix(gram: np.ndarray, denominator: int, snap: bool) -> Matrix:
    """Entries rounded to k/denominator (dyadic grid) or snapped to the nearest fraction with a bounded
    denominator (continued fractions), symmetric by construction."""
    n = gram.shape[0]
    out: Matrix = [[Fraction(0)] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            value = float(gram[i, j])
            if snap:
                q = Fraction(value).limit_denominator(denominator)
            else:
                q = Fraction(round(value * denominator), denominator)
            out[i][j] = q
            out[j][i] = q
    return out


def solve_consistent(matrix: Matrix, rhs: list[Fraction]) -> list[Fraction] | None:
    """A solution of matrix @ y = rhs, or None if inconsistent: fraction-free (Bareiss) Gauss-Jordan
    elimination on the integer-scaled rows, so every division is exact and no gcd is taken per step."""
    n = len(rhs)
    rows: list[list[int]] = []
    for row, b in zip(matrix, rhs, strict=True):
        entries = [*row, b]
        lcm = math.lcm(*(e.denominator for e in entries))
        rows.append([int(e * lcm) for e in entries])
    previous = 1
    rank = 0
    pivots: list[int] = []
    for col in range(n):
        check_time()  # exact elimination on large rationals can take minutes: honour the budget
        pivot = next((r for r in range(rank, n) if rows[r][col] != 0), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        pivot_row = rows[rank]
        pivot_value = pivot_row[col]
        for r in range(n):
            if r == rank:
                continue
            current = rows[r]
            factor = current[col]
            if factor == 0:
                rows[r] = [(pivot_value * a) // previous for a in current]
            else:
                rows[r] = [(pivot_value * a - factor * b) // previous for a, b in zip(current, pivot_row, strict=True)]
        previous = pivot_value
        pivots.append(col)
        rank += 1
    if any(rows[r][n] != 0 for r in range(rank, n)):
        return None
    solution = [Fraction(0)] * n
    for k, col in enumerate(pivots):
        solution[col] = Fraction(rows[k][n], rows[k][col])
    return solution


def project(system: GramSystem, grams: Sequence[Matrix]) -> list[Matrix] | None:
    """Frobenius-orthogonal projection of the rational blocks onto the affine Gram space (None if empty)."""
    n_rows = len(system.rows)
    residual = list(system.rhs)
    # column data: (block, i, j, weight, {row: coefficient in A})
    columns = []
    for b, block in enumerate(system.blocks):
        for i, j, coefs in block.entries:
            factor = 1 if i == j else 2
            a_col = {row: coef * factor for row, coef in coefs.items()}
            for row, a in a_col.items():
                residual[row] -= a * grams[b][i][j]
            columns.append((b, i, j, Fraction(factor), a_col))
    if all(r == 0 for r in residual):
        return [[list(row) for row in g] for g in grams]
    # G = A M^-1 A^T with M = Frobenius weights (1 on the diagonal, 2 off it)
    diagonal = all(len(c[4]) == 1 for c in columns)
    y: list[Fraction] | None
    if diagonal:
        g_diag = [Fraction(0)] * n_rows
        for _b, _i, _j, weight, a_col in columns:
            for row, a in a_col.items():
                g_diag[row] += a * a / weight
        y = []
        for row in range(n_rows):
            if g_diag[row] == 0:
                if residual[row] != 0:
                    return None
                y.append(Fraction(0))
            else:
                y.append(residual[row] / g_diag[row])
    else:
        y = _solve_by_components(n_rows, [(c[3], c[4]) for c in columns], residual)
        if y is None:
            return None
    out = [[list(row) for row in g] for g in grams]
    for b, i, j, weight, a_col in columns:
        delta = sum((a * y[row] for row, a in a_col.items()), Fraction(0)) / weight
        if delta:
            out[b][i][j] += delta
            if i != j:
                out[b][j][i] += delta
    return out


def _solve_by_components(
    n_rows: int, columns: list[tuple[Fraction, dict[int, Fraction]]], residual: list[Fraction]
) -> list[Fraction] | None:
    """Solve (A M^-1 A^T) y = residual one connected component of rows at a time: rows only couple
    through shared columns, so G is block diagonal and the cubic cost applies per block."""
    parent = list(range(n_rows))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _weight, a_col in columns:
        rows = list(a_col)
        for other in rows[1:]:
            ra, rb = root(rows[0]), root(other)
            if ra != rb:
                parent[ra] = rb
    members: dict[int, list[int]] = {}
    for row in range(n_rows):
        members.setdefault(root(row), []).append(row)
    position = {}
    for group in members.values():
        for k, row in enumerate(group):
            position[row] = k
    blocks: dict[int, Matrix] = {key: [[Fraction(0)] * len(group) for _ in group] for key, group in members.items()}
    for weight, a_col in columns:
        items = list(a_col.items())
        block = blocks[root(items[0][0])]
        for r1, a1 in items:
            for r2, a2 in items:
                block[position[r1]][position[r2]] += a1 * a2 / weight
    y = [Fraction(0)] * n_rows
    for key, group in members.items():
        local = solve_consistent(blocks[key], [residual[row] for row in group])
        if local is None:
            return None
        for row, value in zip(group, local, strict=True):
            y[row] = value
    return y


def ldl_psd(gram: Matrix) -> list[tuple[Fraction, list[Fraction]]] | None:
    """Rational LDL^T: [(d_k, column l_k)] with Q = sum d_k l_k l_k^T and every d_k > 0, or None if Q is
    not positive semidefinite. A zero pivot is allowed only when the rest of its column is zero."""
    n = len(gram)
    work = [list(row) for row in gram]
    factors: list[tuple[Fraction, list[Fraction]]] = []
    for k in range(n):
        check_time()
        d = work[k][k]
        if d < 0:
            return None
        if d == 0:
            if any(work[r][k] != 0 for r in range(k + 1, n)):
                return None
            continue
        column = [Fraction(0)] * n
        column[k] = Fraction(1)
        for r in range(k + 1, n):
            column[r] = work[r][k] / d
        # Schur complement on the lower triangle only (the rest is never read again)
        for r in range(k + 1, n):
            lr = column[r]
            if lr == 0:
                continue
            scaled = lr * d
            row = work[r]
            for c in range(k + 1, r + 1):
                if column[c]:
                    row[c] -= scaled * column[c]
        factors.append((d, column))
    return factors
