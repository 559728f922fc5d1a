"""The paper's claims the prover checks on every run (issue 25), measured per seed of the randomised checks.

The answer (Proved / Refuted / Not proved) is deterministic; what a seed changes is the randomness of the
checks that judge it: the independent evaluator's random rational points, and held-out random points of
the domain at which a proved claim must not fail. A seed that finds a wrong certificate or a point where
a "proved" p is negative makes the claim fail on that seed.

Every claim is an exact check (rational arithmetic, or a verified point): judged on its value, no interval,
and no trivial reference (a method with no idea produces no certificate to check). Paper passages (the
abstract only is reachable, ../shared/papers/inequality.md):
- `exact`: abstract, the LLM's approximate SOS decomposition is refined "into exact SOS certificates"
- `independent`: abstract, the certificates are exact, so any independent evaluation must accept the identity
"""

from __future__ import annotations

import random
from fractions import Fraction

from models.common.claims import QUALITATIVE, Claim, ClaimResult, Measurement, evaluate_claims
from models.common.seeds import seed_values

from .ast_check import check_independently
from .equalities import eliminate_linear
from .params import Params
from .parser import Problem, parse_problem
from .result import Result

__all__ = ["CLAIMS", "HELDOUT_POINTS", "NO_NULL", "counterexample_measurement", "heldout_measurement", "independent_measurement", "measure_claims"]

HELDOUT_POINTS = 200  # random points drawn per seed; those inside the domain are the held-out instances

CLAIMS = (
    Claim("exact", "A certificate is an exact SOS identity (rational arithmetic, term by term)", paper=QUALITATIVE,
          quantity="exact identity holds (1 = yes, 0 = a check rejected it)", op=">=", target=1.0, exact=True,
          why="an exact identity either holds or it does not: any rejection refutes it"),
    Claim("independent", "An evaluator sharing no code with the prover accepts the identity at the seed's random "
          "rational points", paper=QUALITATIVE, quantity="identity holds at every sampled point (1 = yes)",
          op=">=", target=1.0, exact=True, why="exact rational evaluation: one failing point refutes the identity"),
    Claim("heldout", "A proved claim holds at held-out random points of the domain", paper=QUALITATIVE,
          quantity="smallest p over the seed's held-out points inside the domain", op=">=", target=0.0,
          floor="at least one held-out point inside the domain", headline=False, exact=True),
    Claim("refutation", "A counterexample is an exact rational point of the domain where the claim fails",
          paper=QUALITATIVE, quantity="counterexample verified exactly (1 = yes)", op=">=", target=1.0,
          headline=False, exact=True),
    Claim("lean", "Lean 4 with Mathlib accepts the exported proof", paper=QUALITATIVE,
          quantity="Lean accepted (1 = yes, 0 = rejected; not tested where the server has no Lean)", op=">=",
          target=1.0, headline=False, exact=True),
)
NO_NULL = {"exact": "an exact check of the certificate found: a method with no idea finds none to check",
           "independent": "an exact check of the certificate found: a method with no idea finds none to check"}


def independent_measurement(text: str, hypotheses: list[str], certificate: dict[str, object], seed: int) -> Measurement:
    """The independent ast evaluator at this seed's random points."""
    report = check_independently(text, hypotheses, certificate, seed=seed)
    return Measurement(1.0 if report.ok else 0.0, note="" if report.ok else report.reason[:120])


def _domain_point(problem: Problem, rng: random.Random) -> tuple[Fraction, ...] | None:
    """A random rational point, moved onto the linear equalities by their substitutions; None when it misses
    a hypothesis (a nonlinear equality, or an inequality it violates)."""
    n = len(problem.variables)
    x = [Fraction(rng.randint(-3000, 3000), rng.choice((100, 1000))) for _ in range(n)]
    elimination = eliminate_linear([(j, problem.hypotheses[j].polynomial) for j in problem.equalities])
    for sub in reversed(elimination.substitutions):  # a later phi never names an earlier-eliminated variable
        x[sub.index] = sub.phi.evaluate(x)
    point = tuple(x)
    for h in problem.hypotheses:
        value = h.polynomial.evaluate(point)
        if (h.is_equality and value != 0) or (not h.is_equality and (value < 0 or (h.strict and value == 0))):
            return None
    return point


def heldout_measurement(problem: Problem, seed: int, points: int = HELDOUT_POINTS) -> Measurement:
    """The smallest p (exact, shown as a float) over the held-out points inside the domain."""
    rng = random.Random(seed * 7919 + 17)
    inside = [pt for pt in (_domain_point(problem, rng) for _ in range(points)) if pt is not None]
    if not inside:
        return Measurement(None, floor_ok=False, note="no random point fell inside the domain")
    smallest = min(problem.claim.polynomial.evaluate(pt) for pt in inside)
    return Measurement(float(smallest), note=f"{len(inside)} of {points} points inside the domain")


def counterexample_measurement(problem: Problem, point: tuple[Fraction, ...]) -> Measurement:
    """1 when the point satisfies every hypothesis and p < 0 there (p <= 0 against a strict claim), exactly."""
    value = problem.claim.polynomial.evaluate(point)
    fails = value <= 0 if problem.claim.strict else value < 0
    inside = all((h.polynomial.evaluate(point) == 0) if h.is_equality else
                 (h.polynomial.evaluate(point) > 0 if h.strict else h.polynomial.evaluate(point) >= 0)
                 for h in problem.hypotheses)
    return Measurement(1.0 if fails and inside else 0.0)


def _point(result: Result) -> tuple[Fraction, ...]:
    assert result.counterexample is not None
    return tuple(Fraction(result.counterexample.point[v]) for v in result.variables)


def measure_claims(params: Params, result: Result) -> list[ClaimResult]:
    """Every claim on every seed of the run (`seed`, `seed + 1`, ...): the deterministic ones once, the
    independent evaluator and the held-out points at each seed's own random points."""
    seeds = seed_values(params.seed, params.seeds)
    problem = parse_problem(params.problem, params.hypotheses)
    none = [Measurement(None)] * len(seeds)
    measured: dict[str, list[Measurement]] = {}
    checked = result.exact_check.status != "not_run"
    measured["exact"] = [Measurement(1.0 if result.exact_check.status == "passed" else 0.0)] * len(seeds) \
        if checked else none
    if result.certificate is not None:
        cert = result.certificate.model_dump()
        measured["independent"] = [
            Measurement(1.0 if result.independent_check.status == "passed" else 0.0) if s == params.seed
            else independent_measurement(params.problem, list(params.hypotheses), cert, s) for s in seeds]
    if result.status == "proved":
        measured["heldout"] = [heldout_measurement(problem, s) for s in seeds]
    if result.status == "refuted" and result.counterexample is not None:
        measured["refutation"] = [counterexample_measurement(problem, _point(result))] * len(seeds)
    lean = {"accepted": 1.0, "rejected": 0.0}.get(result.lean.status)
    measured["lean"] = [Measurement(lean, note=result.lean.messages[:120])] * len(seeds)
    return evaluate_claims(CLAIMS, measured, seeds)
