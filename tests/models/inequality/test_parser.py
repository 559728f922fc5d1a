"""The safe parser: round trips, exact arithmetic, and clear rejections (hypothesis property tests)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.common.contract import MethodInputError
from models.inequality.parser import parse_inequality, parse_polynomial, tokenize
from models.inequality.polynomial import Polynomial

VARS = ("a", "x", "y", "z2", "z10")

monomials = st.tuples(*[st.integers(0, 2) for _ in VARS])  # total degree <= 10
coefficients = st.fractions(min_value=-50, max_value=50, max_denominator=40).filter(lambda c: c != 0)
polynomials = st.dictionaries(monomials, coefficients, max_size=12).map(lambda t: Polynomial(VARS, t))


@settings(max_examples=100, deadline=None)
@given(polynomials)
def test_format_parse_round_trip(poly: Polynomial) -> None:
    parsed = parse_polynomial(poly.format(), variables=VARS)
    assert parsed == poly


@settings(max_examples=40, deadline=None)
@given(polynomials, polynomials)
def test_inequality_is_lhs_minus_rhs(lhs: Polynomial, rhs: Polynomial) -> None:
    ge = parse_inequality(f"{lhs.format()} >= {rhs.format()}")
    le = parse_inequality(f"{rhs.format()} <= {lhs.format()}")
    expected = lhs - rhs
    assert ge.polynomial.with_variables(VARS) == expected
    assert le.polynomial == ge.polynomial


def test_exact_rationals_and_decimals() -> None:
    p = parse_polynomial("0.1*x + 3/4 - (x + 1/3)^2")
    assert p.terms[(2,)] == -1
    assert p.terms[(1,)] == Fraction(1, 10) - Fraction(2, 3)
    assert p.terms[(0,)] == Fraction(3, 4) - Fraction(1, 9)


def test_precedence_and_power_forms() -> None:
    assert parse_polynomial("-x^2") == parse_polynomial("-(x**2)")
    assert parse_polynomial("2*x^2/4") == parse_polynomial("x^2/2")
    assert parse_polynomial("x^(2)") == parse_polynomial("x*x")


def test_variables_sorted_naturally() -> None:
    assert parse_inequality("x10 + x2 + x1 >= 0").variables == ("x1", "x2", "x10")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("__import__('os')", "must start with a letter"),
        ("x.__class__", "attribute access"),
        ("os.system", "attribute access"),
        ("exec(x)", "function calls are not allowed"),
        ("x ^ 100000", "above the maximum of 12"),
        ("x ^ 99999999999999999999", "above the maximum of 12"),
        ("(x + y)^7 * x^6", "degree 13"),
        ("x $ y", "unknown character '$'"),
        ("x; y", "unknown character ';'"),
        ("x > y", "strict inequality"),
        ("x = y", "not supported"),
        ("x >= y >= z", "more than one relation"),
        ("2x", "missing operator"),
        ("x^2^2", "chained powers"),
        ("x / y", "non-constant"),
        ("x / 0", "division by zero"),
        ("x^-1", "non-negative integer"),
        ("(" * 200 + "x" + ")" * 200, "nesting deeper"),
        ("-" * 500 + "x", "nesting deeper"),
        ("", "empty"),
        (">= x", "expected a number"),
        ("x >=", "missing right-hand side"),
        (" + ".join(f"v{i}" for i in range(13)), "13 variables"),
        ("x" * 30, "longer than"),
        ("1" * 50, "more than 40 digits"),
        ("x" + " " * 20001, "maximum of 20000"),
    ],
)
def test_rejections_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(MethodInputError) as info:
        parse_inequality(text)
    assert fragment in str(info.value)
    assert str(info.value).startswith("problem:")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("xy12 +-*/^().,'\"_[]{}=<>!@#$%&|~`;:\\\u00e9\u2265")), max_size=40))
def test_arbitrary_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        parse_inequality(text)
    except MethodInputError as exc:
        assert str(exc).startswith("problem:")
        assert "\n" not in str(exc)


def test_unknown_variable_against_a_fixed_list() -> None:
    with pytest.raises(MethodInputError, match="unknown variable 'q'"):
        parse_polynomial("x + q", variables=("x",))


def test_tokens_never_contain_quotes_or_dots() -> None:
    with pytest.raises(MethodInputError):
        tokenize("x + 'y'")
