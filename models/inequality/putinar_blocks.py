"""The blocks stage of the certificate under hypotheses (`putinar.py`): which weighted SOS blocks a certificate
of degree 2d has, their monomial bases, and the size check that runs on binomials before anything is built."""

from __future__ import annotations

import itertools
import math

from .polynomial import Monomial, Polynomial

__all__ = ["MAX_ENTRIES", "MAX_WEIGHT_PRODUCTS", "blocks", "size_ok"]

MAX_WEIGHT_PRODUCTS = 100_000  # term products of g_i * g_k (as the parser bounds a product)
MAX_ENTRIES = 12_000  # Gram entries of one weighted system (all blocks), checked before building it


def _basis(used: list[int], n: int, degree: int) -> list[Monomial]:
    out: list[Monomial] = []
    for total in range(degree + 1):
        for combo in itertools.combinations_with_replacement(used, total):
            mono = [0] * n
            for i in combo:
                mono[i] += 1
            out.append(tuple(mono))
    return out


def blocks(
    p: Polynomial, gs: dict[int, Polynomial], hs: dict[int, Polynomial], degree: int, pairs: bool
) -> tuple[list[list[Polynomial]], list[Polynomial | None], list[tuple[object, ...]]]:
    """The weighted Gram blocks of one certificate size: the plain SOS block, one per g_i (and per pair g_i g_k
    within the degree), and two per equality h_j; each with its monomial basis, weight and label."""
    variables = p.variables
    n = len(variables)
    polys = [p, *gs.values(), *hs.values()]
    used = sorted({i for q in polys for m in q.terms for i, e in enumerate(m) if e})
    weights: list[tuple[tuple[object, ...], Polynomial | None]] = [(("sos",), None)]
    for i, g in gs.items():
        weights.append((("product", (i,)), g))
    if pairs:
        for (i, g), (k, h) in itertools.combinations(gs.items(), 2):
            # bounded before multiplying: a product above the degree is never used, a huge one never built
            if g.degree() + h.degree() <= degree and len(g.terms) * len(h.terms) <= MAX_WEIGHT_PRODUCTS:
                weights.append((("product", (i, k)), g * h))
    for j, h in hs.items():
        weights += [(("eq", j, 1), h), (("eq", j, -1), -h)]
    bases, ws, labels = [], [], []
    for label, weight in weights:
        wdeg = 0 if weight is None else weight.degree()
        if wdeg > degree:
            continue
        basis = [Polynomial.monomial(variables, m) for m in _basis(used, n, (degree - wdeg) // 2)]
        bases.append(basis)
        ws.append(weight)
        labels.append(label)
    return bases, ws, labels


def size_ok(n_used: int, degree: int, weight_degrees: list[int], max_gram: int) -> str:
    """'' when every block fits, else the reason (computed from binomials before building anything)."""
    entries = 0
    for wdeg in weight_degrees:
        half = (degree - wdeg) // 2
        size = math.comb(n_used + half, half) if half >= 0 else 0
        if size > max_gram:
            return f"Gram block of size {size} is above the maximum of {max_gram} (max_gram)"
        entries += size * (size + 1) // 2
    if entries > MAX_ENTRIES:
        return f"{entries} Gram entries at degree {degree}, above the maximum of {MAX_ENTRIES}"
    return ""
