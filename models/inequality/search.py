"""Certificate search over all reals: term-wise and DSOS fast paths, the LLM-restricted basis, the SDP
with Newton polytope / sparsity / facial reduction, multipliers (1 + |x|^2)^k, and strict margins."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from models.common.contract import MethodInputError, Progress

from .basis import diagonal_prune, newton_basis
from .certificate import Certificate
from .fastpath import termwise_squares
from .gram import build_system
from .llm import exact_match, llm_configured, propose_squares, restricted_basis
from .multipliers import multiplier
from .params import Params
from .polynomial import Polynomial
from .putinar import choose_margins
from .result import Stage
from .sdp import solve_max_margin
from .sos import GramTooLarge, SosOptions, SosOutcome, find_sos, solve_system

__all__ = ["Clock", "GlobalSearch", "global_search"]


class Clock:
    """Collects per-stage timings for the page."""

    def __init__(self) -> None:
        self.stages: list[Stage] = []
        self.started = time.perf_counter()

    def add(self, name: str, seconds: float, status: str, detail: str = "") -> None:
        self.stages.append(Stage(name=name, seconds=round(seconds, 4), status=status, detail=detail))


@dataclass
class GlobalSearch:
    """The candidate certificate (checked by the caller), the outcome behind it and why not otherwise."""

    certificate: Certificate | None = None
    outcome: SosOutcome | None = None
    route: str = ""
    llm: str = "not requested"
    reasons: list[str] = field(default_factory=list)


def _llm_attempt(target: Polynomial, options: SosOptions, clock: Clock, search: GlobalSearch) -> SosOutcome | None:
    """Squares from the LLM endpoint: used as is when exact, else their monomials restrict the basis."""
    started = time.perf_counter()
    if not llm_configured():
        search.llm = "ignored: LLM_BASE_URL / LLM_MODEL are not set on the server"
        clock.add("propose (LLM)", 0.0, "skipped", search.llm)
        return None
    proposal = propose_squares(target)
    if proposal.squares and exact_match(target, proposal.squares):
        search.llm = f"used: the proposal is an exact certificate ({proposal.note})"
        clock.add("propose (LLM)", time.perf_counter() - started, "used", search.llm)
        return SosOutcome(squares=list(proposal.squares), sparsity="llm", solver="llm")
    newton = diagonal_prune(newton_basis(target), set(target.terms))
    basis, dropped = restricted_basis(proposal.squares, newton)
    if basis and len(basis) <= options.max_gram:
        system = build_system(target, [[Polynomial.monomial(target.variables, m) for m in basis]])
        outcome = solve_system(system, options)
        if outcome.squares is not None:
            verb = "repaired" if dropped else "used"
            why = f"{dropped} monomial(s) outside the Newton polytope dropped, " if dropped else ""
            search.llm = f"{verb}: {why}SDP over the LLM's {len(basis)}-monomial basis (full: {len(newton)}); {proposal.note}"
            clock.add("propose (LLM)", time.perf_counter() - started, verb, search.llm)
            outcome.sparsity, outcome.full_basis_size = "llm basis", len(newton)
            return outcome
    search.llm = f"ignored: no certificate over the LLM's basis ({proposal.note}); full search instead"
    clock.add("propose (LLM)", time.perf_counter() - started, "ignored", search.llm)
    return None


def _record(clock: Clock, power: int, outcome: SosOutcome) -> None:
    found = outcome.squares is not None
    clock.add(f"propose ({outcome.solver or 'SDP'}, k={power})", outcome.seconds_sdp, "ok" if found else "failed",
              f"{outcome.sparsity} blocks {outcome.block_sizes}, margin {outcome.margin:.2e}")
    clock.add(f"round + project (k={power})", outcome.seconds_exact, "PSD" if found else "failed",
              f"denominator {outcome.denominator}, facial rounds {outcome.facial_rounds}" if found else outcome.reason)


def _reporter(progress: Progress, fraction: float) -> Callable[[], None]:
    return lambda: progress(fraction, "searching")


def _sos(target: Polynomial, options: SosOptions, power: int, check: Callable[[], None]) -> SosOutcome:
    try:
        return find_sos(target, options, check_cancel=check)
    except GramTooLarge as exc:
        if power == 0:
            raise MethodInputError(f"problem: {exc}; use fewer variables or a lower degree") from exc
        return SosOutcome(squares=None, reason=str(exc))


def global_search(
    poly: Polynomial, strict: bool, params: Params, options: SosOptions, clock: Clock, progress: Progress
) -> GlobalSearch:
    """p >= 0 (p > 0 when strict) over all reals: the first candidate certificate found."""
    search = GlobalSearch()
    if params.fast_paths:
        started = time.perf_counter()
        constant = poly.terms.get((0,) * len(poly.variables), Fraction(0)) if strict else Fraction(0)
        squares = termwise_squares(poly - Polynomial.constant(poly.variables, constant)) if constant >= 0 else None
        if squares is not None and (constant > 0 or not strict):
            clock.add("term-wise certificate", time.perf_counter() - started, "found", f"{len(squares)} even terms")
            search.certificate = Certificate(squares=tuple(squares), margin=constant)
            search.route = "term-wise"
            return search
        clock.add("term-wise certificate", time.perf_counter() - started, "no", "p has an odd or negative term")
    if strict:
        return _strict(poly, options, clock, progress, search)
    powers = params.max_multiplier_power + 1 if poly.degree() > 0 else 1
    for power in range(powers):
        mult = multiplier(poly, power)
        target = mult.polynomial * poly
        stage = f"SOS of D*p, k={power}" if power else "SOS of p"
        progress(power / powers, f"proposing: {stage}")
        outcome = _llm_attempt(target, options, clock, search) if params.use_llm and power == 0 else None
        if outcome is None:
            outcome = _sos(target, options, power, _reporter(progress, power / powers))
            _record(clock, power, outcome)
        if outcome.squares is None:
            search.reasons.append(f"k={power}: {outcome.reason}")
            if "above the maximum" in outcome.reason:
                break
            continue
        search.certificate = Certificate(
            squares=tuple(outcome.squares),
            multiplier=None if power == 0 else mult.polynomial,
            multiplier_kind="" if power == 0 else mult.kind,
            multiplier_power=power,
        )
        search.outcome, search.route = outcome, outcome.solver or outcome.sparsity
        return search
    return search


def _strict(poly: Polynomial, options: SosOptions, clock: Clock, progress: Progress, search: GlobalSearch) -> GlobalSearch:
    """p > 0: the SDP's largest t with p - t SOS, then an exact certificate of p - m for a rational m < t."""
    started = time.perf_counter()
    shift = poly.terms.get((0,) * len(poly.variables), Fraction(0)) + 1
    shifted = poly - Polynomial.constant(poly.variables, shift)  # nonzero constant: the support of p - t
    basis = diagonal_prune(newton_basis(shifted), set(shifted.terms))
    if not basis or len(basis) > options.max_gram:
        search.reasons.append(f"the margin SDP needs a basis of {len(basis)} monomials (max_gram {options.max_gram})")
        return search
    probe = build_system(shifted, [[Polynomial.monomial(poly.variables, m) for m in basis]],
                         extra_rows=[(0,) * len(poly.variables)])
    bound = solve_max_margin(probe)
    bound = None if bound is None else bound + float(shift)  # the probe's target is p - shift
    clock.add("margin SDP", time.perf_counter() - started, "ok" if bound and bound > 0 else "no margin",
              "no bound" if bound is None else f"inf p >= {bound:.6g} (numerical)")
    scale = max((abs(float(c)) for c in poly.terms.values()), default=1.0)
    if bound is None or bound <= 1e-6 * scale:  # below the solver's accuracy: no margin to certify
        search.reasons.append("the SDP finds no positive margin: inf p may be 0 (a strict claim needs p - m SOS for some m > 0)")
        return search
    for margin in choose_margins(bound):
        progress(0.5, f"proving p - {margin} >= 0")
        outcome = _sos(poly - Polynomial.constant(poly.variables, margin), options, 0, lambda: progress(0.5, "searching"))
        _record(clock, 0, outcome)
        if outcome.squares is not None:
            search.certificate = Certificate(squares=tuple(outcome.squares), margin=margin)
            search.outcome, search.route = outcome, f"{outcome.solver or outcome.sparsity}, margin {margin}"
            return search
        search.reasons.append(f"margin {margin}: {outcome.reason}")
    return search
