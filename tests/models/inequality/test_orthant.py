"""Hypotheses x_i >= 0 tried as x_i = t_i^2: the parity split maps a global certificate back exactly."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from models.inequality.ast_check import check_independently
from models.inequality.certificate import WeightedSquare
from models.inequality.checker import check_certificate
from models.inequality.orthant import _split, _squared, orthant_variables
from models.inequality.parser import parse_problem
from models.inequality.polynomial import Polynomial, sum_polys

from .conftest import prove

SCHUR = "x*(x - y)*(x - z) + y*(y - x)*(y - z) + z*(z - x)*(z - y) >= 0"
NONNEG = ["x >= 0", "y >= 0", "z >= 0"]
VARS = ("x", "y", "z")


def test_schur_t1_on_the_orthant_is_proved_through_the_substitution() -> None:
    result = prove(SCHUR, NONNEG)
    assert result.status == "proved" and result.route.startswith("x = t^2 substitution")
    assert result.exact_check.status == result.independent_check.status == "passed"
    certificate = result.certificate.model_dump()
    assert certificate["multiplier"] == "x + y + z"
    assert {tuple(t["hypotheses"]) for t in certificate["products"]} <= {(0, 1), (0, 2), (1, 2), (0,), (1,), (2,), (0, 1, 2)}
    source = result.lean_source or ""
    assert "rcases (show (0 : ℝ) ≤ x + y + z by linarith [nspi_g1, nspi_g2, nspi_g3])" in source


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.tuples(*[st.integers(0, 3)] * 3), st.fractions(-4, 4, max_denominator=5).filter(bool), max_size=6))
def test_the_parity_split_keeps_exactly_the_even_part(terms: dict) -> None:
    """s(t)^2 = sum_S t^(2S) r_S(t^2)^2 + (terms odd in some t_i): summed back in x it is the even part."""
    s = Polynomial(VARS, terms)
    square = WeightedSquare(Fraction(1), s)
    parts = _split(square, [0, 1, 2])
    mapped = sum_polys(
        (Polynomial.monomial(VARS, tuple(1 if i in parity else 0 for i in range(3))) * part.expand()
         for parity, part in parts.items()),
        VARS,
    )
    full = square.expand()
    even = Polynomial(VARS, {m: c for m, c in full.terms.items() if all(e % 2 == 0 for e in m)})
    assert _squared(mapped, [0, 1, 2]) == even


def test_the_orthant_multiplier_needs_the_nonnegativity_hypotheses() -> None:
    cert = {"multiplier": "x + 1", "squares": [{"coeff": "1", "poly": "x"}]}  # (1 + x) * x^2 = x^2 + x^3
    problem, hyps = "x^2 >= 0", ["x >= 0"]
    assert check_certificate(parse_problem(problem, hyps), cert).ok is False  # identity fails: x^3 term
    good = {"multiplier": "x + 1", "squares": [{"coeff": "1", "poly": "x"}],
            "products": [{"hypotheses": [0], "squares": [{"coeff": "1", "poly": "x"}]}]}
    assert check_certificate(parse_problem(problem, hyps), good).ok
    assert check_independently(problem, hyps, good).ok
    assert not check_certificate(parse_problem(problem, []), {**good, "products": []}).ok
    assert not check_independently(problem, ["x <= 0"], good).ok  # x + 1 is not positive there


def test_the_substitution_applies_only_when_every_hypothesis_is_a_sign() -> None:
    assert orthant_variables(parse_problem("x*y >= 0", ["x >= 0", "y > 0"])) == {0: 0, 1: 1}
    assert orthant_variables(parse_problem("x*y >= 0", ["x >= 0", "x + y = 1"])) is None
    assert orthant_variables(parse_problem("x*y >= 0", ["2*x >= 0"])) is None
