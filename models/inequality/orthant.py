"""Hypotheses x_i >= 0 tried as x_i = t_i^2: a global SOS certificate of p(t^2), mapped back exactly.

When every hypothesis says that a variable is nonnegative, p >= 0 on the domain iff q(t) = p(t^2)
>= 0 on all of R^n (t_i^2 in place of each such x_i). q is even in every t_i, so for a certificate
M(t) q(t) = sum c s(t)^2 the odd parts cancel: splitting each s by the parity S of its exponents,
s = sum_S t^S r_S(t^2), gives exactly

    M(x) p(x) = sum_S prod_{i in S} x_i * sum c r_S(x)^2,

a Schmuedgen certificate in the hypotheses x_i >= 0 (products of any size). A multiplier
(1 + |t|^2)^k or (|t|^2)^k becomes (1 + sum x_i + sum y_j^2)^k or (sum x_i + sum y_j^2)^k, positive
on the domain (the second one off the origin, where p must vanish): both checks accept these forms.
Schur's inequality x(x-y)(x-z) + ... >= 0 on the orthant is proved this way (not at degree 6 by the
plain Putinar/Schmuedgen search).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from models.common.contract import Progress

from .certificate import Certificate, ProductTerm, WeightedSquare
from .params import Params
from .parser import Problem
from .polynomial import Monomial, Polynomial, sum_polys
from .search import Clock, GlobalSearch, global_search
from .sos import SosOptions

__all__ = ["nonnegative_variables", "orthant_search", "orthant_variables"]


def nonnegative_variables(problem: Problem) -> dict[int, int]:
    """Variable index -> hypothesis index for the hypotheses that read exactly x_i >= 0 (or x_i > 0)."""
    out: dict[int, int] = {}
    for k, h in enumerate(problem.hypotheses):
        if h.is_equality or len(h.polynomial.terms) != 1:
            continue
        (mono, coeff), = h.polynomial.terms.items()
        if coeff == 1 and sum(mono) == 1:
            out.setdefault(mono.index(1), k)
    return out


def orthant_variables(problem: Problem) -> dict[int, int] | None:
    """The map above when every hypothesis is of that form (else None: the substitution does not apply)."""
    found = nonnegative_variables(problem)
    if not found or len(set(found.values())) != len(problem.hypotheses):
        return None
    return found


def _squared(poly: Polynomial, indices: Sequence[int]) -> Polynomial:
    """p(t^2): exponents of the substituted variables doubled."""
    chosen = set(indices)
    terms = {tuple(2 * e if i in chosen else e for i, e in enumerate(m)): c for m, c in poly.terms.items()}
    return Polynomial(poly.variables, terms)


def _halved(poly: Polynomial, indices: Sequence[int]) -> Polynomial | None:
    """The inverse of `_squared` (None when some substituted exponent is odd)."""
    chosen = set(indices)
    terms: dict[Monomial, Fraction] = {}
    for mono, coeff in poly.terms.items():
        if any(mono[i] % 2 for i in chosen):
            return None
        terms[tuple(e // 2 if i in chosen else e for i, e in enumerate(mono))] = coeff
    return Polynomial(poly.variables, terms)


def _split(square: WeightedSquare, indices: Sequence[int]) -> dict[tuple[int, ...], WeightedSquare]:
    """s(t) = sum_S t^S r_S(t^2): the parity classes S (as variable indices) and c r_S(x)^2."""
    variables = square.poly.variables
    chosen = set(indices)
    parts: dict[tuple[int, ...], dict[Monomial, Fraction]] = {}
    for mono, coeff in square.poly.terms.items():
        parity = tuple(i for i in indices if mono[i] % 2)
        reduced = tuple((e - e % 2) // 2 if i in chosen else e for i, e in enumerate(mono))
        parts.setdefault(parity, {})[reduced] = coeff
    return {parity: WeightedSquare(square.coeff, Polynomial(variables, terms)) for parity, terms in parts.items()}


def orthant_search(
    problem: Problem, params: Params, options: SosOptions, clock: Clock, progress: Progress
) -> GlobalSearch | None:
    """The substituted global search and its certificate in x (None when the hypotheses do not fit)."""
    found = orthant_variables(problem)
    if found is None:
        return None
    indices = sorted(found)
    q = _squared(problem.claim.polynomial, indices)
    search = global_search(q, problem.claim.strict, params, options, clock, progress)
    if search.certificate is None:
        return search
    cert = search.certificate
    s0: list[WeightedSquare] = []
    products: dict[tuple[int, ...], list[WeightedSquare]] = {}
    for square in cert.squares:
        for parity, part in _split(square, indices).items():
            if not part.poly.is_zero():
                (products.setdefault(tuple(found[i] for i in parity), []) if parity else s0).append(part)
    multiplier = None if cert.multiplier is None else _halved(cert.multiplier, indices)
    if cert.multiplier is not None and multiplier is None:
        search.certificate = None
        search.reasons.append("the substituted multiplier is not even in the substituted variables")
        return search
    kind = {"affine": "orthant-affine", "homogeneous": "orthant-homogeneous"}.get(cert.multiplier_kind, "")
    search.certificate = Certificate(
        squares=tuple(s0), multiplier=multiplier, multiplier_kind=kind, multiplier_power=cert.multiplier_power,
        margin=cert.margin, products=tuple(ProductTerm(ids, tuple(sq)) for ids, sq in sorted(products.items())),
    )
    search.route = f"x = t^2 substitution, {search.route}"
    return search


def orthant_multiplier_base(variables: Sequence[str], nonnegative: Sequence[int]) -> Polynomial:
    """sum_{i nonnegative} x_i + sum_{other j} x_j^2 (what |t|^2 becomes after x_i = t_i^2)."""
    chosen = set(nonnegative)
    pieces = [Polynomial.variable(variables, v) if i in chosen else Polynomial.variable(variables, v) ** 2
              for i, v in enumerate(variables)]
    return sum_polys(pieces, variables)
