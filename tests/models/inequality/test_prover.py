"""End-to-end maths: known true inequalities are proved with certificates that pass the exact checker,
false ones are refuted with exact points, and non-SOS polynomials need a multiplier."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from models.common.contract import no_progress
from models.inequality.basis import full_basis
from models.inequality.checker import check_certificate
from models.inequality.multipliers import multiplier
from models.inequality.params import Params
from models.inequality.parser import parse_inequality, parse_polynomial, parse_problem
from models.inequality.polynomial import Polynomial, sum_polys
from models.inequality.run import run
from models.inequality.sos import SosOptions, find_sos

FAST = {"refute_starts": 4, "lean_check": False}

TRUE_CASES = {
    "AM-GM 2": "x^2 + y^2 >= 2*x*y",
    "AM-GM 4": "x^4 + y^4 + z^4 + w^4 >= 4*x*y*z*w",
    "Schur t=2": "x^2*(x - y)*(x - z) + y^2*(y - x)*(y - z) + z^2*(z - x)*(z - y) >= 0",
    "Lagrange 2": "(a^2 + b^2)*(x^2 + y^2) >= (a*x + b*y)^2",
    "Lagrange 3": "(a^2 + b^2 + c^2)*(x^2 + y^2 + z^2) >= (a*x + b*y + c*z)^2",
    "rational coefficients": "x^4 + 1/3 >= 1/2*x^2",
    "sum (xi-xj)^4": "(x - y)^4 + (y - z)^4 + (z - x)^4 >= 0",
}


def _value(poly: Polynomial, point: dict[str, str]) -> Fraction:
    return poly.evaluate([Fraction(point[v]) for v in poly.variables])


@pytest.mark.parametrize("name", list(TRUE_CASES))
def test_true_inequalities_are_proved_and_checked(name: str) -> None:
    result = run(Params(problem=TRUE_CASES[name], **FAST), no_progress)
    assert result.status == "proved", result.reason
    certificate = result.certificate.model_dump()
    assert check_certificate(parse_problem(TRUE_CASES[name]), certificate).ok
    assert result.independent_check.status == "passed"
    assert all(Fraction(s["coeff"]) > 0 for s in certificate["squares"])


def test_tampered_certificate_fails_the_checker() -> None:
    problem = TRUE_CASES["Schur t=2"]
    result = run(Params(problem=problem, **FAST), no_progress)
    poly = parse_problem(problem)
    certificate = result.certificate.model_dump()
    assert check_certificate(poly, certificate).ok
    tampered = {**certificate, "squares": [dict(s) for s in certificate["squares"]]}
    tampered["squares"][0]["coeff"] = str(Fraction(tampered["squares"][0]["coeff"]) + Fraction(1, 1000))
    report = check_certificate(poly, tampered)
    assert not report.ok and "identity fails" in report.reason
    negative = {**certificate, "squares": [{"coeff": "-1", "poly": "x"}, *certificate["squares"]]}
    assert not check_certificate(poly, negative).ok
    garbage = {**certificate, "squares": [{"coeff": "1", "poly": "__import__('os')"}]}
    assert not check_certificate(poly, garbage).ok


def _random_sos_quartic(n: int, seed: int) -> Polynomial:
    rng = np.random.default_rng(seed)
    names = tuple(f"x{i + 1}" for i in range(n))
    basis = full_basis(n, 4)
    squares = []
    for _ in range(n + 2):
        picks = rng.choice(len(basis), size=6, replace=False)
        q = Polynomial(names, {basis[i]: Fraction(int(rng.integers(1, 4)) * int(rng.choice([-1, 1]))) for i in picks})
        squares.append(q * q)
    return sum_polys(squares, names)


def test_ten_variable_sos_quartic_is_proved_exactly() -> None:
    poly = _random_sos_quartic(10, seed=3)
    assert len(poly.variables) == 10 and poly.degree() == 4
    result = run(Params(problem=f"{poly.format()} >= 0", **FAST), no_progress)
    assert result.status == "proved", result.reason
    assert check_certificate(parse_problem(f"{poly.format()} >= 0"), result.certificate.model_dump()).ok


@pytest.mark.parametrize("problem", ["x^3 >= 0", "x^2 - 2*x*y >= 0", "x*y >= 0", "x^2 + y^2 >= 3*x*y",
                                     "x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2 + 1/100"])
def test_false_inequalities_are_refuted_exactly(problem: str) -> None:
    result = run(Params(problem=problem, **FAST), no_progress)
    assert result.status == "refuted"
    poly = parse_inequality(problem).polynomial
    value = _value(poly, result.counterexample.point)
    assert value < 0
    assert Fraction(result.counterexample.value) == value


def test_motzkin_needs_a_multiplier() -> None:
    motzkin = parse_polynomial("x^4*y^2 + x^2*y^4 - 3*x^2*y^2 + 1")
    plain = find_sos(motzkin, SosOptions(dsos=False))
    assert plain.squares is None  # not SOS at its own degree
    result = run(Params(problem="x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2", **FAST), no_progress)
    assert result.status == "proved"
    assert result.multiplier_power >= 1 and result.certificate.multiplier
    assert check_certificate(parse_problem("x^4*y^2 + x^2*y^4 - 3*x^2*y^2 + 1 >= 0"), result.certificate.model_dump()).ok


def test_multiplier_squares_expand_to_the_multiplier() -> None:
    p = parse_polynomial("x^2 + y^2 + 1")
    for power in range(4):
        mult = multiplier(p, power)
        expanded = sum_polys((s.expand() for s in mult.squares), p.variables)
        assert expanded == mult.polynomial


def test_zero_and_constant_problems() -> None:
    assert run(Params(problem="x - x >= 0", **FAST), no_progress).status == "proved"
    assert run(Params(problem="3 >= 2", **FAST), no_progress).status == "proved"
    assert run(Params(problem="3 > 2", **FAST), no_progress).status == "proved"
    assert run(Params(problem="2 > 2", **FAST), no_progress).status == "refuted"
    assert run(Params(problem="2 >= 3", **FAST), no_progress).status == "refuted"


def test_fast_first_order_path_falls_back_to_the_interior_point_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.inequality.sos as sos_module
    from models.inequality.sdp import SdpSolution

    calls: list[int] = []

    def useless_fast(system: object) -> SdpSolution:
        calls.append(1)
        sizes = [b.size for b in system.blocks]  # type: ignore[attr-defined]
        return SdpSolution([np.zeros((n, n)) for n in sizes], 0.0, "scs (fast)", "optimal")

    monkeypatch.setattr(sos_module, "solve_gram_sdp_fast", useless_fast)
    monkeypatch.setattr(sos_module, "FAST_BLOCK", 3)
    poly = parse_polynomial("x^4 + y^4 + z^4 + x^2*y^2 + 1 - x*y*z")
    outcome = find_sos(poly, SosOptions(sparsity=False, dsos=False))
    assert calls and outcome.squares is not None and outcome.solver == "clarabel"


def test_dsos_first_pass_gives_exact_squares_without_the_sdp(monkeypatch: pytest.MonkeyPatch) -> None:
    import models.inequality.sos as sos_module

    def no_sdp(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the SDP should not run")

    monkeypatch.setattr(sos_module, "solve_gram_sdp", no_sdp)
    poly = parse_polynomial("x^4 + y^4 + 1 - x*y")  # diagonally dominant Gram on its Newton basis
    outcome = find_sos(poly, SosOptions())
    assert outcome.squares is not None and outcome.solver == "dsos (LP)"
    total = sum_polys((s.expand() for s in outcome.squares), poly.variables)
    assert total == poly


def test_termwise_fast_path_reads_the_terms() -> None:
    from models.inequality.fastpath import termwise_squares

    assert termwise_squares(parse_polynomial("3*x^4*y^2 + 1/2*z^2 + 7")) is not None
    assert termwise_squares(parse_polynomial("x^4 - x^2")) is None
    assert termwise_squares(parse_polynomial("x^3 + x^4")) is None
