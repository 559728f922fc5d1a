"""The NSPI pipeline: parse, refute (inside the domain), propose, round + project, check twice, export to Lean."""

from __future__ import annotations

import contextlib
import math
import time
from typing import Any

from models.common.contract import Progress
from models.common.progress import MonotoneProgress

from .ast_check import check_independently
from .budget import OutOfTime, time_budget
from .certificate import Certificate
from .checker import check_certificate
from .claims import measure_claims
from .domain_refute import refute_in_domain
from .equalities import Elimination, eliminate_linear
from .lean_export import THEOREM_NAME, lean_proof
from .lean_runner import run_lean
from .orthant import orthant_search, orthant_variables
from .params import Params
from .parser import Problem, parse_problem
from .polynomial import Polynomial, format_fraction
from .putinar import constrained_search
from .refute import Counterexample, counterexample_slice, refute
from .result import CertificateOut, CheckOut, CounterexampleOut, LeanOut, Result
from .search import Clock, global_search
from .sos import SosOptions, SosOutcome
from .user_certificate import certificate_from_json

__all__ = ["STAGES", "run"]

# disjoint progress ranges, one per stage, in pipeline order (progress never goes back)
STAGES = {"parse": (0.0, 0.02), "refute": (0.02, 0.2), "search": (0.2, 0.85), "check": (0.85, 0.9), "lean": (0.9, 1.0)}


def _blas_single_thread() -> contextlib.AbstractContextManager[object]:
    """Small dense problems run fastest on one BLAS thread; oversubscribed threads slowed the refuter
    ten-fold on a shared 2-core machine. threadpoolctl is optional."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional dependency
        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def run(params: Params, progress: Progress) -> Result:
    """Prove the claim under its hypotheses with a certificate both checks accept, refute it with an exact
    point of the domain, or say why neither happened."""
    with _blas_single_thread():
        result = _run(params, MonotoneProgress(progress))
        result.claims = measure_claims(params, result)
        return result


def _stage(bar: MonotoneProgress, name: str) -> Progress:
    return bar.stage(*STAGES[name])


def _base(problem: Problem) -> Result:
    """The result's description of the problem (variables, relation, normalised hypotheses, p); every ending
    fills in its status and the rest."""
    poly = problem.claim.polynomial
    symbols = {">=": ">= 0", "<=": ">= 0", ">": "> 0", "<": "> 0", "=": "= 0"}
    return Result(
        status="not_proved",
        variables=list(problem.variables),
        relation=problem.claim.relation,
        strict=problem.claim.strict,
        hypotheses=[f"{h.polynomial.format()} {symbols[h.relation]}" for h in problem.hypotheses],
        polynomial=poly.format(),
        polynomial_latex=poly.latex(),
        degree=poly.degree(),
        n_terms=len(poly.terms),
    )


def _run(params: Params, bar: MonotoneProgress) -> Result:
    clock = Clock()
    _stage(bar, "parse")(0.0, "parsing")
    started = time.perf_counter()
    problem = parse_problem(params.problem, params.hypotheses)
    poly = problem.claim.polynomial
    clock.add("parse", time.perf_counter() - started, "ok",
              f"{len(poly.terms)} terms, degree {poly.degree()}, {len(problem.hypotheses)} hypotheses")
    base = _base(problem)
    if params.certificate is not None:
        return _verify_given(problem, params, base, clock, bar)
    elimination = eliminate_linear([(j, problem.hypotheses[j].polynomial) for j in problem.equalities])
    certificate: Certificate | None = None
    outcome: SosOutcome | None = None
    route, llm = "", "requested" if params.use_llm else "not requested"
    reasons: list[str] = []
    checks: tuple[CheckOut, CheckOut] | None = None
    try:
        with time_budget(params.time_budget_s):
            found = _refute(problem, elimination, params, clock, _stage(bar, "refute"))
            if found is not None:
                return _refuted(base, problem, found, clock, bar)
            certificate, outcome, route, llm, reasons = _search(problem, elimination, params, clock, _stage(bar, "search"))
            checks = _checks(problem, params, certificate, clock, _stage(bar, "check")) if certificate else None
    except OutOfTime:
        clock.add("time budget", time.perf_counter() - clock.started, "out of time", f"stopped after {params.time_budget_s:g} s")
        reasons.append(f"the search stopped at its time budget of {params.time_budget_s:g} s (time_budget_s); "
                       "try a larger budget, fewer variables or a lower degree")
        certificate, checks = None, None
    if certificate is None or checks is None or not (checks[0].status == checks[1].status == "passed"):
        if checks is not None:
            reasons.append(f"a check rejected the certificate (exact: {checks[0].detail}; independent: {checks[1].detail})")
        return _not_proved(base, params, problem, outcome, reasons, llm, clock, bar, checks)
    return _proved(base, problem, params, certificate, outcome, route, llm, checks, clock, bar)


def _refute(
    problem: Problem, elimination: Elimination, params: Params, clock: Clock, progress: Progress
) -> Counterexample | None:
    progress(0.0, "refuting: searching the domain for a point where the claim fails")
    started = time.perf_counter()
    if problem.hypotheses:
        found = refute_in_domain(problem, elimination, params.refute_starts, params.seed,
                                 check_cancel=lambda: progress(0.5, "refuting"))
    else:
        found = refute(problem.claim.polynomial, params.refute_starts, params.seed,
                       check_cancel=lambda: progress(0.5, "refuting"), strict=problem.claim.strict)
    where = "in the domain" if problem.hypotheses else "over all reals"
    if found is None:
        clock.add("refute", time.perf_counter() - started, "none found", f"{params.refute_starts} restarts {where}")
    else:
        clock.add("refute", time.perf_counter() - started, "counterexample", f"{found.method} {where}")
    progress(1.0, "refuter done")
    return found


def _search(
    problem: Problem, elimination: Elimination, params: Params, clock: Clock, progress: Progress
) -> tuple[Certificate | None, SosOutcome | None, str, str, list[str]]:
    options = SosOptions(sparsity=params.sparsity, facial_reduction=params.facial_reduction, max_bits=params.max_bits,
                         max_gram=params.max_gram, solver=params.solver, dsos=params.fast_paths)
    if not problem.hypotheses:
        found = global_search(problem.claim.polynomial, problem.claim.strict, params, options, clock, progress)
        return found.certificate, found.outcome, found.route, found.llm, found.reasons
    started = time.perf_counter()
    progress(0.0, "searching a certificate under the hypotheses")
    constrained = constrained_search(problem, elimination, options, params.degree_bound, params.fast_paths,
                                     check_cancel=lambda: progress(0.5, "searching"))
    for name, status, seconds in constrained.attempts:
        clock.add(f"propose ({name})", seconds, status)
    clock.add("search under hypotheses", time.perf_counter() - started,
              "found" if constrained.certificate else "failed",
              f"{len(elimination.substitutions)} linear equalities substituted")
    llm = "ignored: the LLM proposer is used only without hypotheses" if params.use_llm else "not requested"
    if constrained.certificate is None and orthant_variables(problem) is not None:
        started = time.perf_counter()
        substituted = orthant_search(problem, params, options, clock, progress)
        assert substituted is not None
        clock.add("x = t^2 substitution", time.perf_counter() - started,
                  "found" if substituted.certificate else "failed", "every hypothesis is x_i >= 0")
        if substituted.certificate is not None:
            return substituted.certificate, substituted.outcome, substituted.route, llm, []
        constrained.reasons += [f"x = t^2: {r}" for r in substituted.reasons]
    return constrained.certificate, constrained.outcome, constrained.route, llm, constrained.reasons


def _checks(
    problem: Problem, params: Params, certificate: Certificate, clock: Clock, progress: Progress
) -> tuple[CheckOut, CheckOut]:
    """Both checks on the published JSON form: the exact checker and the independent ast evaluator."""
    return _check_json(problem, params, certificate.to_json(), clock, progress)


def _check_json(
    problem: Problem, params: Params, cert_json: dict[str, Any], clock: Clock, progress: Progress
) -> tuple[CheckOut, CheckOut]:
    progress(0.0, "checking exactly")
    started = time.perf_counter()
    report = check_certificate(problem, cert_json)
    exact = CheckOut(status="passed" if report.ok else "failed", detail=report.reason)
    clock.add("verify (exact checker)", time.perf_counter() - started, exact.status, report.reason)
    progress(0.5, "checking independently")
    started = time.perf_counter()
    independent_report = check_independently(params.problem, params.hypotheses, cert_json, seed=params.seed)
    independent = CheckOut(status="passed" if independent_report.ok else "failed", detail=independent_report.reason)
    clock.add("verify (independent ast evaluation)", time.perf_counter() - started, independent.status,
              independent_report.reason)
    return exact, independent


def _refuted(result: Result, problem: Problem, found: Counterexample, clock: Clock, bar: MonotoneProgress) -> Result:
    poly = problem.claim.polynomial
    point = {v: format_fraction(x) for v, x in zip(poly.variables, found.point, strict=True)}
    ts, values = counterexample_slice(poly, found.point) if poly.variables else ([], [])
    result.status = "refuted"
    result.counterexample = CounterexampleOut(point=point, value=format_fraction(found.value))
    result.slice_t, result.slice_values = ts, values
    result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
    bar(1.0, "refuted")
    return result


def _not_proved(
    result: Result, params: Params, problem: Problem, outcome: SosOutcome | None, reasons: list[str], llm: str,
    clock: Clock, bar: MonotoneProgress, checks: tuple[CheckOut, CheckOut] | None = None,
) -> Result:
    text = "; ".join(reasons) or "no certificate found"
    if not problem.hypotheses and not problem.claim.strict and params.max_multiplier_power < 3 and "budget" not in text:
        text += (". No counterexample was found either: p may be nonnegative without being a sum of squares "
                 "(try a larger multiplier power k)")
    elif problem.hypotheses and "budget" not in text:
        text += ". No counterexample was found in the domain either (try a larger degree_bound)"
    result.status, result.reason, result.llm = "not_proved", text, llm
    if checks:
        result.exact_check, result.independent_check = checks
    if outcome:
        result.gram_labels, result.gram = outcome.gram_labels, outcome.gram
    result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
    bar(1.0, "not proved")
    return result


def _proved(
    result: Result, problem: Problem, params: Params, certificate: Certificate, outcome: SosOutcome | None,
    route: str, llm: str, checks: tuple[CheckOut, CheckOut], clock: Clock, bar: MonotoneProgress,
) -> Result:
    lean_progress = _stage(bar, "lean")
    lean_progress(0.0, "writing the Lean proof")
    started = time.perf_counter()
    source = lean_proof(problem, certificate)
    lean = LeanOut(status="not_run", file="proof.lean", messages="Lean check switched off")
    if params.lean_check:
        lean_progress(0.2, "checking with Lean")
        lean_run = run_lean(source, THEOREM_NAME, params.lean_timeout_s)
        lean = LeanOut(status=lean_run.status, file="proof.lean", messages=lean_run.messages)
    clock.add("Lean", time.perf_counter() - started, lean.status, lean.messages[:300])
    if outcome is not None:
        _describe_search(result, outcome)
    result.status, result.route, result.llm = "proved", route, llm
    result.certificate = CertificateOut.model_validate(certificate.to_json())
    result.certificate_latex = certificate.latex()
    result.multiplier_latex = _multiplier_latex(certificate, problem.claim.polynomial)
    result.checker = checks[0].detail
    result.exact_check, result.independent_check = checks
    result.lean, result.lean_source, result.multiplier_power = lean, source, certificate.multiplier_power
    result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
    bar(1.0, "proved")
    return result


def _verify_given(problem: Problem, params: Params, result: Result, clock: Clock, bar: MonotoneProgress) -> Result:
    """A user-supplied certificate: both checks, then Lean; no refuter and no search."""
    assert params.certificate is not None
    cert_json = params.certificate.model_dump()
    with time_budget(params.time_budget_s):
        try:
            checks = _check_json(problem, params, cert_json, clock, _stage(bar, "check"))
        except OutOfTime:
            checks = (CheckOut(status="failed", detail=f"stopped at the time budget of {params.time_budget_s:g} s"),
                      CheckOut())
    if not checks[0].status == checks[1].status == "passed":
        reason = f"the given certificate was rejected (exact: {checks[0].detail}; independent: {checks[1].detail})"
        result.status, result.reason, result.route = "not_proved", reason, "user certificate"
        result.exact_check, result.independent_check = checks
        result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
        bar(1.0, "not proved")
        return result
    certificate = certificate_from_json(problem, cert_json)
    return _proved(result, problem, params, certificate, None, "user certificate", "not requested", checks, clock, bar)


def _describe_search(result: Result, outcome: SosOutcome) -> None:
    """What the SOS search behind a certificate did: its proposer, bases, margin, rounding and Gram."""
    result.proposer, result.sparsity = outcome.solver or outcome.sparsity, outcome.sparsity
    result.basis_size, result.full_basis_size = outcome.basis_size, outcome.full_basis_size
    result.block_sizes = outcome.block_sizes
    result.sdp_margin = outcome.margin if math.isfinite(outcome.margin) else None
    result.denominator, result.facial_rounds = outcome.denominator, outcome.facial_rounds
    result.gram_labels, result.gram = outcome.gram_labels, outcome.gram


def _multiplier_latex(certificate: Certificate, poly: Polynomial) -> str:
    if certificate.multiplier is None:
        return ""
    if certificate.multiplier_kind not in ("affine", "homogeneous"):
        return f"\\left({certificate.multiplier.latex()}\\right)"
    names = " + ".join(f"{Polynomial.variable(poly.variables, v).latex()}^{{2}}" for v in poly.variables)
    inner = names if certificate.multiplier_kind == "homogeneous" else f"1 + {names}"
    power = certificate.multiplier_power
    return f"\\left({inner}\\right)" + ("" if power == 1 else f"^{{{power}}}")
