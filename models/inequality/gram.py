"""The affine Gram space {Q = diag(Q_1..Q_k) : target = sum_b g_b q_b^T Q_b q_b} as exact and float data.

Each block b has a list of basis polynomials q_b (plain monomials, or combinations of monomials
after facial reduction) and a weight g_b: 1 for the plain SOS part, a product of hypotheses g_i for
a Putinar/Schmuedgen term, +h or -h for an equality. Coordinates are the upper-triangular entries
of each block; the constraint for monomial alpha reads
sum_{b, i<=j} w_ij * coef_alpha(g_b q_i q_j) * Q_ij = target_alpha with w_ij = 2 off the diagonal, 1 on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from .budget import check_time
from .polynomial import Monomial, Polynomial

__all__ = ["GramBlock", "GramSystem", "build_system"]


@dataclass
class GramBlock:
    """One diagonal block: its basis polynomials and, per upper entry (i, j), row -> coefficient."""

    basis: list[Polynomial]
    entries: list[tuple[int, int, dict[int, Fraction]]] = field(default_factory=list)
    weight: Polynomial | None = None  # None: 1
    label: tuple[object, ...] = ("sos",)

    @property
    def size(self) -> int:
        return len(self.basis)

    @property
    def is_monomial(self) -> bool:
        return all(len(q.terms) == 1 and next(iter(q.terms.values())) == 1 for q in self.basis)


@dataclass
class GramSystem:
    """All blocks, the monomial rows, and the exact right-hand side (coefficients of the target)."""

    target: Polynomial
    blocks: list[GramBlock]
    rows: list[Monomial]
    rhs: list[Fraction]

    @property
    def consistent_support(self) -> bool:
        """False when the target has a monomial no basis product can produce (then no SOS exists)."""
        covered = set(self.rows[: self.n_product_rows])
        return all(m in covered for m in self.target.terms)

    n_product_rows: int = 0

    def float_system(self, scale: float) -> tuple[sp.csr_matrix, np.ndarray, list[int]]:
        """A acting on the concatenation of vec(Q_b) (column-major), b/scale, and block offsets."""
        data: list[float] = []
        row_idx: list[int] = []
        col_idx: list[int] = []
        offsets: list[int] = []
        offset = 0
        for block in self.blocks:
            offsets.append(offset)
            n = block.size
            for i, j, coefs in block.entries:
                for row, coef in coefs.items():
                    value = float(coef)
                    row_idx.append(row)
                    col_idx.append(offset + i + j * n)
                    data.append(value)
                    if i != j:
                        row_idx.append(row)
                        col_idx.append(offset + j + i * n)
                        data.append(value)
            offset += n * n
        matrix = sp.csr_matrix((data, (row_idx, col_idx)), shape=(len(self.rows), offset))
        rhs = np.array([float(v) for v in self.rhs], dtype=float) / scale
        return matrix, rhs, offsets

    def polynomial_of(self, grams: Sequence[Sequence[Sequence[Fraction]]]) -> Polynomial:
        """sum_b q_b^T Q_b q_b, expanded exactly (used by tests and the facial-reduction check)."""
        out: dict[Monomial, Fraction] = {}
        for block, gram in zip(self.blocks, grams, strict=True):
            for i, j, coefs in block.entries:
                weight = gram[i][j] * (1 if i == j else 2)
                if weight == 0:
                    continue
                for row, coef in coefs.items():
                    mono = self.rows[row]
                    out[mono] = out.get(mono, Fraction(0)) + weight * coef
        return Polynomial(self.target.variables, out)


def build_system(
    target: Polynomial,
    block_bases: Sequence[Sequence[Polynomial]],
    weights: Sequence[Polynomial | None] | None = None,
    labels: Sequence[tuple[object, ...]] | None = None,
    extra_rows: Sequence[Monomial] = (),
) -> GramSystem:
    """Expand every product g_b q_i q_j of every block and index the monomials that appear (the time
    budget is checked once per basis row, so a large system cannot outlive it)."""
    row_of: dict[Monomial, int] = {}
    rows: list[Monomial] = []
    blocks: list[GramBlock] = []
    for b, basis in enumerate(block_bases):
        weight = weights[b] if weights is not None else None
        label = labels[b] if labels is not None else ("sos",)
        block = GramBlock(basis=list(basis), weight=weight, label=label)
        for i in range(len(basis)):
            check_time()
            for j in range(i, len(basis)):
                coefs: dict[int, Fraction] = {}
                qi, qj = basis[i], basis[j]
                if weight is None and len(qi.terms) == 1 and len(qj.terms) == 1:
                    (mi, ci), (mj, cj) = next(iter(qi.terms.items())), next(iter(qj.terms.items()))
                    product = {tuple(a + b for a, b in zip(mi, mj, strict=True)): ci * cj}
                else:
                    product = (qi * qj if weight is None else weight * qi * qj).terms
                for mono, coef in product.items():
                    if mono not in row_of:
                        row_of[mono] = len(rows)
                        rows.append(mono)
                    coefs[row_of[mono]] = coefs.get(row_of[mono], Fraction(0)) + coef
                block.entries.append((i, j, coefs))
        blocks.append(block)
    n_product_rows = len(rows)
    for mono in [*target.terms, *extra_rows]:
        if mono not in row_of:
            row_of[mono] = len(rows)
            rows.append(mono)
    rhs = [target.terms.get(mono, Fraction(0)) for mono in rows]
    return GramSystem(target=target, blocks=blocks, rows=rows, rhs=rhs, n_product_rows=n_product_rows)
