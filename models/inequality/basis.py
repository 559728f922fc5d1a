"""Monomial basis for the Gram matrix: Newton polytope half, diagonal pruning, term-sparsity blocks.

Reznick: if p = sum q_i^2 then every monomial of every q_i has twice its exponent in the Newton
polytope of p. Diagonal pruning (Kojima-Kim-Waki, Lofberg) removes monomials m whose square m^2 is
neither in supp(p) nor the product of two other basis monomials, since then Q_mm must be 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from scipy.optimize import linprog

from models.common.contract import MethodInputError

from .budget import check_time
from .polynomial import Monomial, Polynomial
from .sparsity import correlative_blocks, term_sparsity_blocks

__all__ = ["block_strategies", "diagonal_prune", "full_basis", "newton_basis"]

MAX_CANDIDATES = 6000


def _add(a: Monomial, b: Monomial) -> Monomial:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def full_basis(n_vars: int, degree: int) -> list[Monomial]:
    """All monomials of total degree <= degree/2 (the dense basis without any reduction)."""
    half = degree // 2
    out: list[Monomial] = []
    for total in range(half + 1):
        for combo in itertools.combinations_with_replacement(range(n_vars), total):
            mono = [0] * n_vars
            for i in combo:
                mono[i] += 1
            out.append(tuple(mono))
    return out


def _candidates(poly: Polynomial) -> list[Monomial]:
    """Monomials e with 2e inside the bounding box and degree range of supp(p)."""
    support = np.array(list(poly.terms), dtype=np.int64)
    lo = support.min(axis=0)
    hi = support.max(axis=0)
    lo_deg, hi_deg = poly.min_degree(), poly.degree()
    ranges = [range((int(a) + 1) // 2, int(b) // 2 + 1) for a, b in zip(lo, hi, strict=True)]
    count = 1
    for r in ranges:
        count *= max(len(r), 1)
    out: list[Monomial] = []
    if count > 50 * MAX_CANDIDATES:
        # too many boxes to enumerate: walk by total degree instead
        iterator: Iterable[tuple[int, ...]] = (
            m for m in full_basis(len(ranges), hi_deg) if all(r.start <= e < r.stop for r, e in zip(ranges, m, strict=True))
        )
    else:
        iterator = itertools.product(*ranges)
    for k, mono in enumerate(iterator):
        if k % 1000 == 0:
            check_time()
        total = 2 * sum(mono)
        if lo_deg <= total <= hi_deg:
            out.append(tuple(int(e) for e in mono))
            if len(out) > MAX_CANDIDATES:
                raise MethodInputError(
                    f"problem: more than {MAX_CANDIDATES} candidate basis monomials; "
                    "use fewer variables or a lower degree"
                )
    return out


def newton_basis(poly: Polynomial) -> list[Monomial]:
    """Monomials e with 2e in the Newton polytope conv(supp p), by one small LP per candidate."""
    if poly.is_zero():
        return []
    support_set = set(poly.terms)
    vertices = np.array(sorted(support_set), dtype=float)
    k = vertices.shape[0]
    a_eq = np.vstack([vertices.T, np.ones((1, k))])
    basis: list[Monomial] = []
    for mono in _candidates(poly):
        check_time()
        doubled = tuple(2 * e for e in mono)
        if doubled in support_set:
            basis.append(mono)
            continue
        b_eq = np.concatenate([np.array(doubled, dtype=float), [1.0]])
        res = linprog(np.zeros(k), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
        if res.status == 0:
            basis.append(mono)
    return sorted(basis, key=lambda m: (sum(m), tuple(-e for e in m)))


def diagonal_prune(basis: Sequence[Monomial], support: set[Monomial]) -> list[Monomial]:
    """Drop m when m^2 is not in supp(p) and is not a product of two distinct basis monomials."""
    current = list(basis)
    changed = True
    while changed:
        changed = False
        members = set(current)
        kept: list[Monomial] = []
        for m in current:
            check_time()
            doubled = _add(m, m)
            if doubled in support:
                kept.append(m)
                continue
            paired = any(
                (other != m and (partner := tuple(d - o for d, o in zip(doubled, other, strict=True))) in members and partner != m)
                for other in current
            )
            if paired:
                kept.append(m)
            else:
                changed = True
        current = kept
    return current


def block_strategies(target: Polynomial, sparsity: bool) -> tuple[list[tuple[str, list[list[Polynomial]]]], int]:
    """Newton-polytope basis after diagonal pruning, and the block splits to try in order:
    correlative cliques, term-sparsity blocks (when they shrink the problem), then one dense block."""
    variables = target.variables
    basis = newton_basis(target)
    raw = len(basis)
    basis = diagonal_prune(basis, set(target.terms))
    support = set(target.terms)
    splits: list[tuple[str, list[list]]] = []
    if sparsity and basis:
        cliques = correlative_blocks(basis, target)
        if cliques is not None:
            splits.append(("correlative", cliques))
        terms = term_sparsity_blocks(basis, support)
        if len(terms) > 1:
            splits.append(("term", terms))
    splits.append(("dense", [basis] if basis else []))
    as_polys = [
        (name, [[Polynomial.monomial(variables, m) for m in group] for group in groups if group])
        for name, groups in splits
    ]
    return as_polys, raw
