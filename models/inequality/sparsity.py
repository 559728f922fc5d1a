"""Sparsity: split the Gram matrix into blocks (term sparsity, TSSOS) or variable cliques (correlative).

Term sparsity with block closure (Wang, Magron & Lasserre 2021, TSSOS) joins basis monomials a, b
when a + b is in the support; the connected components become Gram blocks. Correlative sparsity
(Waki, Kim, Kojima & Muramatsu 2006) writes p = sum_k sigma_k(x_{I_k}) over the maximal cliques I_k
of a chordal extension of the variable interaction graph. Both are restrictions, so a failed
sparse SDP is retried densely by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence

from .budget import check_time
from .polynomial import Monomial, Polynomial

__all__ = ["correlative_blocks", "term_sparsity_blocks"]


def _add(a: Monomial, b: Monomial) -> Monomial:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def variable_cliques(poly: Polynomial) -> list[set[int]]:
    """Maximal cliques of a chordal extension (greedy minimum-degree elimination) of the graph whose
    edges join variables that share a term."""
    n = len(poly.variables)
    adjacency: list[set[int]] = [set() for _ in range(n)]
    for mono in poly.terms:
        used = [i for i, e in enumerate(mono) if e]
        for i in used:
            adjacency[i].update(j for j in used if j != i)
    remaining = set(range(n))
    cliques: list[set[int]] = []
    graph = [set(a) for a in adjacency]
    while remaining:
        v = min(remaining, key=lambda u: (len(graph[u] & remaining), u))
        neighbours = graph[v] & remaining
        clique = neighbours | {v}
        for a in neighbours:  # fill-in: make the neighbourhood a clique
            graph[a] |= neighbours - {a}
        if not any(clique <= c for c in cliques):
            cliques.append(clique)
        remaining.discard(v)
    return [c for c in cliques if not any(c < d for d in cliques)]


def correlative_blocks(basis: Sequence[Monomial], poly: Polynomial) -> list[list[Monomial]] | None:
    """One block per variable clique (basis monomials supported inside it), or None when the cliques
    do not shrink the largest block or leave a monomial of p uncovered."""
    cliques = variable_cliques(poly)
    if len(cliques) <= 1:
        return None
    blocks = []
    for clique in cliques:
        block = [m for m in basis if all(e == 0 or i in clique for i, e in enumerate(m))]
        if block:
            blocks.append(block)
    if not blocks or max(len(b) for b in blocks) >= len(basis):
        return None
    return blocks


def _find(parent: list[int], i: int) -> int:
    """Union-find root with path halving."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def term_sparsity_blocks(basis: Sequence[Monomial], support: set[Monomial]) -> list[list[Monomial]]:
    """Blocks of the basis: connected components of the term-sparsity graph, closed until stable.

    Edge (a, b) when a + b is in supp(p) or is the square of a basis monomial; each component's
    pairwise products are then added to the support and the graph rebuilt (block closure).
    """
    basis = list(basis)
    n = len(basis)
    known = set(support) | {_add(m, m) for m in basis}
    labels = list(range(n))
    while True:
        parent = list(range(n))
        for i in range(n):
            check_time()
            for j in range(i + 1, n):
                if _add(basis[i], basis[j]) in known:
                    ri, rj = _find(parent, i), _find(parent, j)
                    if ri != rj:
                        parent[ri] = rj
        new_labels = [_find(parent, i) for i in range(n)]
        groups: dict[int, list[int]] = {}
        for i, label in enumerate(new_labels):
            groups.setdefault(label, []).append(i)
        grown = set(known)
        for members in groups.values():
            check_time()
            for i in members:
                for j in members:
                    grown.add(_add(basis[i], basis[j]))
        if grown == known and new_labels == labels:
            break
        known, labels = grown, new_labels
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    return [[basis[i] for i in g] for g in ordered]
