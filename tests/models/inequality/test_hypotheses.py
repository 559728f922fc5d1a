"""Claims under hypotheses: Putinar/Schmuedgen certificates, linear equalities substituted and lifted
back exactly, refutation inside the domain, strict claims with margins."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.inequality.checker import check_certificate
from models.inequality.equalities import eliminate_linear, lift_residual, substitute
from models.inequality.parser import parse_polynomial, parse_problem
from models.inequality.polynomial import Polynomial
from models.inequality.putinar import choose_margins

from .conftest import prove

CONSTRAINED_TRUE = {
    "AM-GM 3 cubes": ("x^3 + y^3 + z^3 >= 3*x*y*z", ["x >= 0", "y >= 0", "z >= 0"], {}),
    "AM-GM on the simplex": ("x*y*z <= 1/27", ["x >= 0", "y >= 0", "z >= 0", "x + y + z = 1"], {}),
    "Cauchy-Schwarz on the simplex": ("x^2 + y^2 + z^2 >= 1/3", ["x + y + z = 1"], {}),
    "unit disc": ("x + y <= 3/2", ["x^2 + y^2 <= 1"], {}),
    "strict on the disc": ("2 - x^2 - y^2 > 0", ["x^2 + y^2 <= 1"], {}),
    "x + 1/x >= 2": ("x + y >= 2", ["x*y = 1", "x >= 0", "y >= 0"], {"degree_bound": 4}),
    "box": ("x*y + 1 >= x + y", ["x <= 1", "y <= 1"], {}),
}


@pytest.mark.parametrize("name", list(CONSTRAINED_TRUE))
def test_constrained_claims_are_proved_and_both_checks_pass(name: str) -> None:
    problem, hypotheses, settings_ = CONSTRAINED_TRUE[name]
    result = prove(problem, hypotheses, **settings_)
    assert result.status == "proved", result.reason
    assert result.exact_check.status == result.independent_check.status == "passed"
    certificate = result.certificate.model_dump()
    assert check_certificate(parse_problem(problem, hypotheses), certificate).ok
    assert all(Fraction(s["coeff"]) >= 0 for t in certificate["products"] for s in t["squares"])
    assert result.verdict().detail.endswith("under the hypotheses")


def test_without_the_degree_bound_the_answer_is_honestly_not_proved() -> None:
    result = prove("x + y >= 2", ["x*y = 1", "x >= 0", "y >= 0"])
    assert result.status == "not_proved" and "degree_bound" in (result.reason or "")


@pytest.mark.parametrize(
    ("problem", "hypotheses"),
    [
        ("x*y >= 1/4", ["x + y = 1"]),
        ("x^3 >= x", ["x >= 0"]),
        ("x + y <= 1", ["x^2 + y^2 <= 1", "x >= 0", "y >= 0"]),
        ("x > 0", ["x >= 0"]),
        ("x*y*z <= 1/28", ["x >= 0", "y >= 0", "z >= 0", "x + y + z = 1"]),
    ],
)
def test_counterexamples_lie_in_the_domain_and_violate_the_claim_exactly(problem: str, hypotheses: list[str]) -> None:
    result = prove(problem, hypotheses)
    assert result.status == "refuted"
    parsed = parse_problem(problem, hypotheses)
    point = [Fraction(result.counterexample.point[v]) for v in parsed.variables]
    for h in parsed.hypotheses:
        value = h.polynomial.evaluate(point)
        assert value == 0 if h.is_equality else (value > 0 if h.strict else value >= 0)
    value = parsed.claim.polynomial.evaluate(point)
    assert value <= 0 if parsed.claim.strict else value < 0
    assert Fraction(result.counterexample.value) == value


def test_strict_claim_with_inf_zero_is_not_proved_from_p_nonnegative() -> None:
    """(xy - 1)^2 + x^2 > 0 is true but inf p = 0 (not attained): no margin exists, so no proof."""
    result = prove("(x*y - 1)^2 + x^2 > 0")
    assert result.status == "not_proved" and "inf p may be 0" in (result.reason or "")


def test_the_certificate_margin_is_the_largest_simple_rational_below_the_bound() -> None:
    assert choose_margins(1.0) == [Fraction(999, 1000), Fraction(9, 10), Fraction(1, 2)]
    assert all(0 < m < 2e-7 for m in choose_margins(2e-7))


VARS = ("x", "y", "z")
small = st.fractions(min_value=-5, max_value=5, max_denominator=6)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.tuples(*[st.integers(0, 2)] * 3), small), max_size=6),
       st.tuples(small.filter(lambda c: c != 0), small, small, small))
def test_substituted_residuals_lift_back_exactly(terms: list, h_coeffs: tuple) -> None:
    """f - f(x_k = phi) = h * lambda exactly, for any f and any linear h (the lifting of linear equalities)."""
    f = Polynomial(VARS, {m: c for m, c in terms})
    a, b, c, d = h_coeffs
    h = Polynomial(VARS, {(0, 0, 1): a, (1, 0, 0): b, (0, 1, 0): c, (0, 0, 0): d})
    elimination = eliminate_linear([(0, h)])
    reduced = elimination.apply(f)
    assert not any(m[2] for m in reduced.terms)  # z (the last variable with a nonzero coefficient) is gone
    lambdas, rest = lift_residual(f - reduced, elimination)
    assert rest.is_zero()
    assert h * lambdas.get(0, Polynomial.constant(VARS, 0)) == f - reduced


def test_two_linear_equalities_and_an_inconsistent_system() -> None:
    h1 = parse_polynomial("x + y + z - 1", variables=VARS)
    h2 = parse_polynomial("x - y", variables=VARS)
    elimination = eliminate_linear([(0, h1), (1, h2)])
    assert len(elimination.substitutions) == 2
    f = parse_polynomial("x*y*z + z^2", variables=VARS)
    residual = f - elimination.apply(f)
    lambdas, rest = lift_residual(residual, elimination)
    assert rest.is_zero() and h1 * lambdas[0] + h2 * lambdas[1] == residual
    inconsistent = eliminate_linear([(0, h1), (1, h1 - Polynomial.constant(VARS, 1))])
    assert inconsistent.inconsistent is not None
    result = prove("x >= 1000", ["x + y = 1", "x + y = 2"])  # vacuous: no point satisfies both
    assert result.status == "proved" and result.route == "inconsistent equalities"


def test_substitute_matches_evaluation() -> None:
    f = parse_polynomial("x^3*y - 2*y^2 + 1", variables=VARS)
    phi = parse_polynomial("1 - y - z", variables=VARS)
    g = substitute(f, 0, phi)
    point = [Fraction(3, 7), Fraction(-2, 5), Fraction(5, 3)]
    assert g.evaluate(point) == f.evaluate([phi.evaluate(point), point[1], point[2]])
