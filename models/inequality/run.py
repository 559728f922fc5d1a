"""The NSPI pipeline: parse, refute, propose, round + project, verify exactly, export to Lean."""

from __future__ import annotations

import contextlib
import math
import time
from fractions import Fraction

from models.common.contract import MethodInputError, Progress

from .budget import OutOfTime, check_time, time_budget
from .certificate import Certificate, squares_from_ldl
from .checker import check_certificate
from .gram import build_system
from .lean_export import THEOREM_NAME, lean_proof
from .lean_runner import run_lean
from .llm import exact_match, gram_from_squares, llm_configured, propose_squares
from .multipliers import multiplier
from .params import Params
from .parser import parse_inequality
from .polynomial import Polynomial, format_fraction
from .refute import Counterexample, refute
from .result import CertificateOut, CounterexampleOut, LeanOut, Result, Stage
from .sos import GramTooLarge, SosOptions, SosOutcome, block_strategies, find_sos, refine

__all__ = ["run"]


class _Clock:
    """Collects per-stage timings for the page."""

    def __init__(self) -> None:
        self.stages: list[Stage] = []
        self.started = time.perf_counter()

    def add(self, name: str, seconds: float, status: str, detail: str = "") -> None:
        self.stages.append(Stage(name=name, seconds=round(seconds, 4), status=status, detail=detail))


def _slice(poly: Polynomial, point: tuple[Fraction, ...]) -> tuple[list[float], list[float]]:
    """p(t * x*) for t in [-0.25, 1.5]: the counterexample sits at t = 1."""
    exps, coeffs = poly.arrays()
    import numpy as np

    ts = np.linspace(-0.25, 1.5, 141)
    base = np.array([float(v) for v in point])
    values = [float(coeffs @ np.prod((t * base)[None, :] ** exps, axis=1)) for t in ts]
    return ts.tolist(), values


def _refuted(result: dict, poly: Polynomial, found: Counterexample) -> Result:
    point = {v: format_fraction(x) for v, x in zip(poly.variables, found.point, strict=True)}
    ts, values = _slice(poly, found.point) if poly.variables else ([], [])
    return Result(
        **result,
        status="refuted",
        counterexample=CounterexampleOut(point=point, value=format_fraction(found.value)),
        reason=None,
        slice_t=ts,
        slice_values=values,
    )


def _llm_attempt(target: Polynomial, options: SosOptions, clock: _Clock) -> SosOutcome | None:
    """Squares from the LLM endpoint, used as is when exact, else as a Gram matrix to round."""
    started = time.perf_counter()
    if not llm_configured():
        clock.add("propose (LLM)", 0.0, "skipped", "LLM_BASE_URL / LLM_MODEL are not set on the server")
        return None
    proposal = propose_squares(target)
    if proposal.squares and exact_match(target, proposal.squares):
        clock.add("propose (LLM)", time.perf_counter() - started, "exact", proposal.note)
        return SosOutcome(squares=list(proposal.squares), reason="", sparsity="llm")
    strategies, raw = block_strategies(target, sparsity=False)
    dense = strategies[-1][1]
    if dense and proposal.squares:
        system = build_system(target, dense)
        initial = gram_from_squares(system, proposal.squares)
        if initial is not None:
            refined = refine(system, initial, options.max_bits)
            if refined is not None:
                factors, _grams, den = refined
                squares = squares_from_ldl(factors[0], system.blocks[0].basis)
                clock.add("propose (LLM)", time.perf_counter() - started, "refined", proposal.note)
                return SosOutcome(squares=squares, denominator=den, basis_size=len(dense[0]), full_basis_size=raw)
    clock.add("propose (LLM)", time.perf_counter() - started, "no certificate", proposal.note)
    return None


def _blas_single_thread() -> contextlib.AbstractContextManager[object]:
    """Small dense problems run fastest on one BLAS thread; oversubscribed threads slowed the refuter
    ten-fold on a shared 2-core machine. threadpoolctl is optional."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional dependency
        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def run(params: Params, progress: Progress) -> Result:
    """Prove p >= 0 with an exactly checked certificate, refute it with an exact point, or say why not."""
    with _blas_single_thread():
        return _run(params, progress)


def _run(params: Params, progress: Progress) -> Result:
    clock = _Clock()
    progress(0.01, "parsing")
    started = time.perf_counter()
    inequality = parse_inequality(params.problem)
    poly = inequality.polynomial
    clock.add("parse", time.perf_counter() - started, "ok", f"{len(poly.terms)} terms, degree {poly.degree()}")
    base: dict = {
        "variables": list(poly.variables),
        "polynomial": poly.format(),
        "polynomial_latex": poly.latex(),
        "degree": poly.degree(),
        "n_terms": len(poly.terms),
    }

    progress(0.05, "refuting: searching for a point with p < 0")
    started = time.perf_counter()
    found = refute(poly, params.refute_starts, params.seed, check_cancel=lambda: progress(0.1, "refuting"))
    if found is not None:
        clock.add("refute", time.perf_counter() - started, "counterexample", found.method)
        result = _refuted(base, poly, found)
        result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
        progress(1.0, "refuted")
        return result
    clock.add("refute", time.perf_counter() - started, "none found", f"{params.refute_starts} restarts")

    options = SosOptions(
        sparsity=params.sparsity,
        facial_reduction=params.facial_reduction,
        max_bits=params.max_bits,
        max_gram=params.max_gram,
        solver=params.solver,
    )
    certificate: Certificate | None = None
    outcome: SosOutcome | None = None
    reasons: list[str] = []
    checker_text = ""
    search_started = time.perf_counter()
    try:
        with time_budget(params.time_budget_s):
            certificate, outcome, checker_text = _search(poly, params, options, clock, reasons, progress)
    except OutOfTime:
        clock.add("search budget", time.perf_counter() - search_started, "out of time",
                  f"stopped after {params.time_budget_s:g} s")
        reasons.append(f"the certificate search stopped after its time budget of {params.time_budget_s:g} s "
                       "(time_budget_s); try a larger budget, fewer variables or a lower degree")
    return _finish(base, poly, params, certificate, outcome, checker_text, reasons, clock, progress)


def _search(
    poly: Polynomial, params: Params, options: SosOptions, clock: _Clock, reasons: list[str], progress: Progress
) -> tuple[Certificate | None, SosOutcome | None, str]:
    """Try p, then D*p for growing multiplier powers; the first exactly checked certificate wins."""
    certificate: Certificate | None = None
    outcome: SosOutcome | None = None
    checker_text = ""
    for power in range(params.max_multiplier_power + 1):
        if power > 0 and poly.degree() == 0:
            break
        mult = multiplier(poly, power)
        target = mult.polynomial * poly
        label = "SOS of p" if power == 0 else f"SOS of D*p, D = {'(|x|^2)' if mult.kind == 'homogeneous' else '(1+|x|^2)'}^{power}"
        progress(0.15 + 0.6 * power / (params.max_multiplier_power + 1), f"proposing: {label}")

        def check(label: str = label) -> None:
            progress(0.2, f"searching {label}")
            check_time()

        outcome = _llm_attempt(target, options, clock) if params.use_llm and power == 0 else None
        if outcome is None:
            try:
                outcome = find_sos(target, options, check_cancel=check)
            except GramTooLarge as exc:
                if power == 0:
                    raise MethodInputError(f"problem: {exc}; use fewer variables or a lower degree") from exc
                reasons.append(f"k={power}: {exc}")
                break
            clock.add(f"propose (SDP, k={power})", outcome.seconds_sdp, "ok" if outcome.squares is not None else "failed",
                      f"{outcome.solver} {outcome.sparsity} blocks {outcome.block_sizes}, margin {outcome.margin:.2e}")
            clock.add(f"round + project (k={power})", outcome.seconds_exact,
                      "PSD" if outcome.squares is not None else "failed",
                      f"denominator {outcome.denominator}, facial rounds {outcome.facial_rounds}" if outcome.squares is not None else outcome.reason)
        if outcome.squares is None:
            reasons.append(f"k={power}: {outcome.reason}")
            continue
        candidate = Certificate(
            squares=tuple(outcome.squares),
            multiplier=None if power == 0 else mult.squares,
            multiplier_kind="" if power == 0 else mult.kind,
            multiplier_power=power,
        )
        started = time.perf_counter()
        report = check_certificate(poly, candidate.to_json())
        clock.add("verify (exact checker)", time.perf_counter() - started, "passed" if report.ok else "failed", report.reason)
        checker_text = report.reason
        if report.ok:
            certificate = candidate
            break
        reasons.append(f"k={power}: the exact checker rejected the certificate ({report.reason})")
    return certificate, outcome, checker_text


def _finish(
    base: dict, poly: Polynomial, params: Params, certificate: Certificate | None, outcome: SosOutcome | None,
    checker_text: str, reasons: list[str], clock: _Clock, progress: Progress,
) -> Result:
    """The proved result (with its Lean file and check) or the not_proved result with its reasons."""
    if certificate is None or outcome is None:
        result = Result(**base, status="not_proved",
                        reason=_not_proved_reason(reasons, params),
                        gram_labels=outcome.gram_labels if outcome else [], gram=outcome.gram if outcome else [])
        result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
        progress(1.0, "not proved")
        return result

    progress(0.85, "writing the Lean proof")
    started = time.perf_counter()
    source = lean_proof(poly, certificate)
    lean = LeanOut(status="not_run", file="proof.lean", messages="Lean check switched off")
    if params.lean_check:
        progress(0.9, "checking with Lean")
        lean_run = run_lean(source, THEOREM_NAME, params.lean_timeout_s)
        lean = LeanOut(status=lean_run.status, file="proof.lean", messages=lean_run.messages)  # type: ignore[arg-type]
    clock.add("Lean", time.perf_counter() - started, lean.status, lean.messages[:300])
    cert_json = certificate.to_json()
    result = Result(
        **base,
        status="proved",
        certificate=CertificateOut.model_validate(cert_json),
        certificate_latex=certificate.latex(),
        multiplier_latex=_multiplier_latex(certificate, len(poly.variables), poly),
        checker=checker_text,
        lean=lean,
        lean_source=source,
        proposer=outcome.solver or outcome.sparsity,
        sparsity=outcome.sparsity,
        basis_size=outcome.basis_size,
        full_basis_size=outcome.full_basis_size,
        block_sizes=outcome.block_sizes,
        margin=outcome.margin if math.isfinite(outcome.margin) else None,
        denominator=outcome.denominator,
        facial_rounds=outcome.facial_rounds,
        multiplier_power=certificate.multiplier_power,
        gram_labels=outcome.gram_labels,
        gram=outcome.gram,
    )
    result.stages, result.total_seconds = clock.stages, time.perf_counter() - clock.started
    progress(1.0, "proved")
    return result


def _not_proved_reason(reasons: list[str], params: Params) -> str:
    """What failed at each multiplier power, plus what to try next (no refutation was found either)."""
    text = "; ".join(reasons) or "no certificate found"
    if params.max_multiplier_power < 3:
        text += (". No counterexample was found either: p may be nonnegative without being a sum of squares "
                 "(try a larger multiplier power k)")
    return text


def _multiplier_latex(certificate: Certificate, n_vars: int, poly: Polynomial) -> str:
    if certificate.multiplier is None:
        return ""
    names = " + ".join(f"{Polynomial.variable(poly.variables, v).latex()}^{{2}}" for v in poly.variables)
    inner = names if certificate.multiplier_kind == "homogeneous" else f"1 + {names}"
    power = certificate.multiplier_power
    return f"\\left({inner}\\right)" + ("" if power == 1 else f"^{{{power}}}")

