"""The claims of a run judge it: each seed's checks reject a broken certificate, a false claim or a point
outside the domain, and a Proved answer is green only while every headline claim holds."""

from __future__ import annotations

from fractions import Fraction

from models.common import no_progress
from models.inequality.claims import counterexample_measurement, heldout_measurement, independent_measurement
from models.inequality.params import Params
from models.inequality.parser import parse_problem
from models.inequality.run import run

GOOD = {"multiplier": None, "margin": "0", "squares": [{"coeff": "1", "poly": "x - y"}], "products": [],
        "equalities": []}


def test_independent_check_accepts_the_identity_and_rejects_a_broken_one_on_every_seed() -> None:
    broken = {**GOOD, "squares": [{"coeff": "1", "poly": "x + y"}]}
    for seed in range(3):
        assert independent_measurement("x^2 + y^2 >= 2*x*y", [], GOOD, seed).value == 1.0
        assert independent_measurement("x^2 + y^2 >= 2*x*y", [], broken, seed).value == 0.0


def test_heldout_points_find_a_false_claim_and_respect_the_domain() -> None:
    assert heldout_measurement(parse_problem("x^2 + y^2 >= 3*x*y", []), 0).value < 0  # type: ignore[operator]
    inside = heldout_measurement(parse_problem("x*y*z <= 1/27", ["x >= 0", "y >= 0", "z >= 0", "x + y + z = 1"]), 1)
    assert inside.floor_ok and inside.value is not None and inside.value >= 0
    assert heldout_measurement(parse_problem("x >= 0", ["x^2 = 2"]), 0).floor_ok is False  # no rational point


def test_a_counterexample_outside_the_domain_is_not_a_refutation() -> None:
    problem = parse_problem("x*y >= 1/4", ["x + y = 1"])
    assert counterexample_measurement(problem, (Fraction(0), Fraction(1))).value == 1.0
    assert counterexample_measurement(problem, (Fraction(0), Fraction(0))).value == 0.0  # off x + y = 1
    assert counterexample_measurement(problem, (Fraction(1, 2), Fraction(1, 2))).value == 0.0  # p = 0 there


def test_a_proved_run_holds_its_claims_on_every_seed_and_a_rejected_check_turns_it_amber() -> None:
    result = run(Params(problem="x^2 + y^2 >= 2*x*y", seeds=3, lean_check=False), no_progress)
    claims = {c.id: c for c in result.claims}
    assert all(len(c.seeds) == 3 for c in claims.values())
    assert claims["exact"].holds == claims["independent"].holds == claims["heldout"].holds == "held"
    assert claims["refutation"].holds == "not_tested"
    assert result.verdict().label == "Proved" and result.verdict().tone == "success"
    from models.inequality.claims import measure_claims

    result.independent_check.status = "failed"  # a check that rejected the certificate on the first seed
    result.claims = measure_claims(Params(problem="x^2 + y^2 >= 2*x*y", seeds=3), result)
    assert result.verdict().tone == "warning"


def test_a_refuted_run_verifies_its_counterexample() -> None:
    result = run(Params(problem="x^2 + y^2 >= 3*x*y", seeds=2), no_progress)
    claims = {c.id: c for c in result.claims}
    assert result.status == "refuted" and claims["refutation"].holds == "held"
    assert result.verdict().tone == "error"
