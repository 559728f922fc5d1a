"""Certificates under hypotheses (Putinar / Schmuedgen style), found by one weighted Gram SDP.

With p the claim and g_i >= 0, h_j = 0 the hypotheses (linear h_j already substituted away), look for

    p - margin = s_0 + sum_i g_i s_i + sum_{i<k} g_i g_k s_ik + sum_j h_j lambda_j

with s SOS of degree <= 2d minus the weight's degree, lambda_j = s_j+ - s_j- (any polynomial is a
difference of two SOS), single g_i first and pairs after (Schmuedgen's products), for 2d the
smallest even degree that covers every polynomial and then the user's degree bound. The SDP,
rounding, projection and LDL^T are the same as without hypotheses (blocks simply carry a weight);
nothing here is trusted: the exact checker and the independent evaluator decide.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from .certificate import Certificate, EqualityTerm, ProductTerm, WeightedSquare
from .equalities import Elimination, lift_residual
from .fastpath import dsos_solution, termwise_squares
from .gram import GramSystem, build_system
from .parser import Problem
from .polynomial import Polynomial, sum_polys
from .putinar_blocks import MAX_ENTRIES, blocks, size_ok
from .sdp import solve_max_margin
from .sos import SosOptions, SosOutcome, refine_solution, solve_system

__all__ = ["MAX_ENTRIES", "ConstrainedSearch", "choose_margins", "constrained_search"]


@dataclass
class ConstrainedSearch:
    """The certificate (when found), the SDP outcome behind it, and what each attempt did."""

    certificate: Certificate | None = None
    outcome: SosOutcome | None = None
    route: str = ""
    attempts: list[tuple[str, str, float]] = field(default_factory=list)  # (name, status, seconds)
    reasons: list[str] = field(default_factory=list)


def choose_margins(bound: float) -> list[Fraction]:
    """Rational margins to try below the SDP's lower bound t* > 0: the largest simple one first."""
    out: list[Fraction] = []
    for factor in (0.999, 0.9, 0.5):
        value = bound * factor
        for den in (1000, 10**6, 10**9):  # three significant digits when the bound allows it
            m = Fraction(math.floor(value * den), den)
            if m > 0:
                break
        else:
            m = Fraction(value).limit_denominator(10**9)
        if m > 0 and m not in out:
            out.append(m)
    return out


def constrained_search(
    problem: Problem,
    elimination: Elimination,
    options: SosOptions,
    degree_bound: int,
    fast_paths: bool,
    check_cancel: Callable[[], None] | None = None,
) -> ConstrainedSearch:
    """Try the certificate above at growing sizes; the first exact one wins (checked by the caller)."""
    search = ConstrainedSearch()
    if elimination.inconsistent is not None:
        search.certificate = _inconsistent(problem, elimination)
        search.route = "inconsistent equalities"
        return search
    p, gs, hs = _reduced(problem, elimination)
    if fast_paths:
        quick = _termwise(p, problem.claim.strict)
        if quick is not None:
            margin, squares = quick
            search.certificate = _lift(problem, elimination, margin, {("sos",): squares}, {})
            search.route = "term-wise"
            search.attempts.append(("term-wise", "found", 0.0))
            if search.certificate is not None:
                return search
    used = sorted({i for q in [p, *gs.values(), *hs.values()] for m in q.terms for i, e in enumerate(m) if e})
    for degree, pairs in _plans(p, gs, hs, degree_bound):
        name = f"degree {degree}, {'pairs' if pairs else 'single'} g_i"
        bases, weights, labels = blocks(p, gs, hs, degree, pairs)
        problem_size = size_ok(len(used), degree, [0 if w is None else w.degree() for w in weights], options.max_gram)
        if problem_size:
            search.reasons.append(f"{name}: {problem_size}")
            search.attempts.append((name, "too large", 0.0))
            continue
        plan = _Plan(name, bases, weights, labels)
        if _try_margins(search, problem, elimination, p, hs, plan, options, fast_paths, check_cancel):
            return search
    return search


def _reduced(problem: Problem, elimination: Elimination) -> tuple[Polynomial, dict[int, Polynomial], dict[int, Polynomial]]:
    """The claim p, the non-constant inequality hypotheses g_i and the equalities h_j left after elimination."""
    p = elimination.apply(problem.claim.polynomial)
    gs = {i: elimination.apply(problem.hypotheses[i].polynomial) for i in problem.inequalities}
    gs = {i: g for i, g in gs.items() if g.constant_value() is None}  # constants add nothing
    hs = {
        j: elimination.apply(problem.hypotheses[j].polynomial)
        for j in problem.equalities if j not in elimination.eliminated
    }
    return p, gs, {j: h for j, h in hs.items() if not h.is_zero()}


def _plans(p: Polynomial, gs: dict[int, Polynomial], hs: dict[int, Polynomial],
           degree_bound: int) -> list[tuple[int, bool]]:
    """(degree, pair products g_i g_j?) in the order tried: the smallest even degree first, then the user's bound."""
    auto = max([2 * math.ceil(q.degree() / 2) for q in [p, *gs.values(), *hs.values()]] + [2])
    plans = [(auto, False), (auto, True)] if len(gs) > 1 else [(auto, False)]
    if degree_bound > auto:
        plans.append((degree_bound, len(gs) > 1))
    return plans


@dataclass(frozen=True)
class _Plan:
    """One size of the certificate: its name in the attempts table and its Gram blocks."""

    name: str
    bases: list[list[Polynomial]]
    weights: list[Polynomial | None]
    labels: list[tuple[object, ...]]


def _try_margins(
    search: ConstrainedSearch, problem: Problem, elimination: Elimination, p: Polynomial,
    hs: dict[int, Polynomial], plan: _Plan, options: SosOptions, fast_paths: bool,
    check_cancel: Callable[[], None] | None,
) -> bool:
    """Solve one plan at each candidate margin (0 for a non-strict claim); record the attempts on `search`
    and True once an exact certificate is lifted."""
    name = plan.name
    margins = [Fraction(0)]
    if problem.claim.strict:
        zero = (0,) * len(p.variables)
        probe = build_system(p, plan.bases, plan.weights, plan.labels, extra_rows=[zero])
        bound = solve_max_margin(probe)
        if bound is None or bound <= 1e-6 * (max(abs(float(c)) for c in p.terms.values()) if p.terms else 1.0):
            search.reasons.append(f"{name}: the SDP finds no positive margin (inf p may be 0 on the domain)")
            search.attempts.append((name, "no margin", 0.0))
            return False
        margins = choose_margins(bound)
    for margin in margins:
        target = p - Polynomial.constant(p.variables, margin)
        system = build_system(target, plan.bases, plan.weights, plan.labels)
        outcome = _solve(system, options, fast_paths, check_cancel)
        search.attempts.append((f"{name}, margin {margin}", "PSD" if outcome.squares is not None else "failed",
                                outcome.seconds_sdp + outcome.seconds_exact))
        if outcome.squares is None:
            search.reasons.append(f"{name}: {outcome.reason}")
            continue
        parts: dict[tuple[object, ...], list[WeightedSquare]] = {}
        for label, squares in outcome.block_squares:
            parts.setdefault(label, []).extend(squares)
        certificate = _lift(problem, elimination, margin, parts, hs)
        if certificate is None:
            search.reasons.append(f"{name}: lifting the equalities left a remainder")
            continue
        search.certificate, search.outcome = certificate, outcome
        search.route = f"{outcome.solver} ({name})"
        return True
    return False


def _solve(system: GramSystem, options: SosOptions, fast_paths: bool, check_cancel: Callable[[], None] | None) -> SosOutcome:
    if fast_paths:
        lp = dsos_solution(system)
        if lp is not None:
            outcome = SosOutcome(squares=None, basis_size=sum(b.size for b in system.blocks))
            outcome.block_sizes, outcome.sparsity = [b.size for b in system.blocks], "weighted"
            outcome = refine_solution(system, lp, options, outcome, check_cancel)
            if outcome.squares is not None:
                return outcome
    return solve_system(system, options, check_cancel)


def _termwise(p: Polynomial, strict: bool) -> tuple[Fraction, list[WeightedSquare]] | None:
    """p (minus its constant term as the margin, for a strict claim) as a sum of even terms."""
    if not strict:
        squares = termwise_squares(p)
        return None if squares is None else (Fraction(0), squares)
    constant = p.terms.get((0,) * len(p.variables), Fraction(0))
    if constant <= 0:
        return None
    squares = termwise_squares(p - Polynomial.constant(p.variables, constant))
    return None if squares is None else (constant, squares)


def _expand(squares: list[WeightedSquare], variables: tuple[str, ...]) -> Polynomial:
    return sum_polys((s.expand() for s in squares), variables)


def _lift(
    problem: Problem,
    elimination: Elimination,
    margin: Fraction,
    parts: dict[tuple[object, ...], list[WeightedSquare]],
    hs: dict[int, Polynomial],
) -> Certificate | None:
    """The certificate in the original variables: equality multipliers for the substituted equalities
    come from dividing the residual (None if a remainder is left: the reduced identity was not exact)."""
    variables = problem.variables
    s0 = parts.get(("sos",), [])
    products = []
    for label, squares in parts.items():
        if label[0] == "product" and squares:
            products.append(ProductTerm(tuple(label[1]), tuple(squares)))  # type: ignore[arg-type]
    lambdas: dict[int, Polynomial] = {}
    for j in hs:
        lam = _expand(parts.get(("eq", j, 1), []), variables) - _expand(parts.get(("eq", j, -1), []), variables)
        if not lam.is_zero():
            lambdas[j] = lam
    residual = problem.claim.polynomial - Polynomial.constant(variables, margin) - _expand(list(s0), variables)
    for term in products:
        weight = Polynomial.constant(variables, 1)
        for i in term.hypotheses:
            weight = weight * problem.hypotheses[i].polynomial
        residual = residual - weight * _expand(list(term.squares), variables)
    for j, lam in lambdas.items():
        residual = residual - problem.hypotheses[j].polynomial * lam
    lifted, rest = lift_residual(residual, elimination)
    if not rest.is_zero():
        return None
    for j, lam in lifted.items():
        lambdas[j] = lambdas[j] + lam if j in lambdas else lam
    equalities = tuple(EqualityTerm(j, lam) for j, lam in sorted(lambdas.items()) if not lam.is_zero())
    return Certificate(squares=tuple(s0), margin=margin, products=tuple(products), equalities=equalities)


def _inconsistent(problem: Problem, elimination: Elimination) -> Certificate:
    """sum_j c_j h_j = c != 0 as polynomials: p - margin = sum_j h_j (c_j / c)(p - margin) (vacuous claim)."""
    assert elimination.inconsistent is not None
    constant, combo = elimination.inconsistent
    variables = problem.variables
    margin = Fraction(1) if problem.claim.strict else Fraction(0)
    target = problem.claim.polynomial - Polynomial.constant(variables, margin)
    equalities = tuple(EqualityTerm(j, target.scale(w / constant)) for j, w in sorted(combo.items()) if w)
    return Certificate(squares=(), margin=margin, equalities=equalities)
