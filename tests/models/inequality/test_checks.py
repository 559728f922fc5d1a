"""The two checks: the exact checker and the independent ast evaluator; 'proved' needs both, and a
user-supplied certificate goes through both without any search."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from models.inequality.ast_check import check_independently
from models.inequality.checker import check_certificate
from models.inequality.parser import parse_problem

from .conftest import prove

AMGM3 = ("x^3 + y^3 + z^3 >= 3*x*y*z", ["x >= 0", "y >= 0", "z >= 0"])
AMGM3_CERT: dict[str, Any] = {
    "multiplier": None,
    "margin": "0",
    "squares": [],
    "products": [{"hypotheses": [i], "squares": [{"coeff": "1/2", "poly": "x - y"}, {"coeff": "1/2", "poly": "y - z"},
                                                 {"coeff": "1/2", "poly": "z - x"}]} for i in range(3)],
    "equalities": [],
}


def _both(problem: str, hypotheses: list[str], certificate: dict[str, Any]) -> tuple[bool, bool]:
    exact = check_certificate(parse_problem(problem, hypotheses), certificate).ok
    independent = check_independently(problem, hypotheses, certificate, seed=3).ok
    return exact, independent


def test_a_true_certificate_passes_both() -> None:
    assert _both(*AMGM3, AMGM3_CERT) == (True, True)


def _tampered() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    wrong_coeff = copy.deepcopy(AMGM3_CERT)
    wrong_coeff["products"][0]["squares"][0]["coeff"] = "1/3"
    cases.append(("wrong coefficient", wrong_coeff))
    negative = copy.deepcopy(AMGM3_CERT)
    negative["squares"] = [{"coeff": "-1", "poly": "x"}, {"coeff": "1", "poly": "x"}]
    cases.append(("negative weight", negative))
    bad_index = copy.deepcopy(AMGM3_CERT)
    bad_index["products"][0]["hypotheses"] = [7]
    cases.append(("unknown hypothesis", bad_index))
    margin = copy.deepcopy(AMGM3_CERT)
    margin["margin"] = "-1"
    cases.append(("negative margin", margin))
    multiplier = copy.deepcopy(AMGM3_CERT)
    multiplier["multiplier"] = "x^2"  # vanishes on a hyperplane: not an accepted multiplier
    cases.append(("bad multiplier", multiplier))
    code = copy.deepcopy(AMGM3_CERT)
    code["products"][0]["squares"][0]["poly"] = "__import__('os').getpid()"
    cases.append(("code", code))
    return cases


@pytest.mark.parametrize(("label", "certificate"), _tampered())
def test_tampered_certificates_fail_both_checks(label: str, certificate: dict[str, Any]) -> None:
    assert _both(*AMGM3, certificate) == (False, False), label


def test_equality_terms_must_name_equality_hypotheses() -> None:
    cert = {"products": [], "squares": [], "equalities": [{"hypothesis": 0, "poly": "x"}]}
    assert _both("x^2 >= 0", ["x >= 0"], cert) == (False, False)


def test_strict_claims_need_a_positive_margin_in_both_checks() -> None:
    cert = {"margin": "0", "squares": [{"coeff": "1", "poly": "x"}, {"coeff": "1", "poly": "1"}]}
    assert _both("x^2 + 1 > 0", [], cert) == (False, False)
    cert["margin"], cert["squares"] = "1", [{"coeff": "1", "poly": "x"}]
    assert _both("x^2 + 1 > 0", [], cert) == (True, True)


@pytest.mark.parametrize(
    "problem",
    ["x.real >= 0", "abs(x) >= 0", "x ** y >= 0", "x ** 100 >= 0", "lambda: 0", "[x] >= 0", "x if x else x >= 0",
     "'a' >= 'b'", "x // 2 >= 0", "x / y >= 0", "(" * 300 + "x" + ")" * 300 + " >= 0", "x >= 0 >= y"],
)
def test_the_evaluator_whitelist_refuses_everything_else(problem: str) -> None:
    report = check_independently(problem, [], {"squares": [{"coeff": "1", "poly": "x"}]})
    assert not report.ok


def test_the_evaluator_reads_the_users_own_syntax() -> None:
    cert = {"squares": [{"coeff": "1", "poly": "x - y"}]}
    for text in ("x^2 + y^2 >= 2*x*y", "x**2 + y**2 ≥ 2*x*y", "2*x*y <= x^2 + y^2", "2*x*y ≤ x^2+y^2"):
        assert check_independently(text, [], cert).ok, text
    assert not check_independently("x^2 + y^2 >= 3*x*y", [], cert).ok


def test_proved_needs_both_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from models.inequality.ast_check import IndependentReport

    run_module = importlib.import_module("models.inequality.run")

    monkeypatch.setattr(run_module, "check_independently", lambda *a, **k: IndependentReport(False, "forced failure"))
    result = prove("x^2 + y^2 >= 2*x*y")
    assert result.status == "not_proved" and result.exact_check.status == "passed"
    assert result.independent_check.status == "failed" and "forced failure" in (result.reason or "")


def test_a_user_certificate_is_checked_without_search_and_exported() -> None:
    result = prove(*AMGM3, certificate=AMGM3_CERT)
    assert result.status == "proved" and result.route == "user certificate"
    assert [s.name for s in result.stages] == ["parse", "verify (exact checker)", "verify (independent ast evaluation)", "Lean"]
    assert "theorem nspi_inequality (x y z : ℝ) (nspi_h1 : x ≥ (0 : ℝ))" in (result.lean_source or "")
    wrong = copy.deepcopy(AMGM3_CERT)
    wrong["products"] = wrong["products"][:2]
    rejected = prove(*AMGM3, certificate=wrong)
    assert rejected.status == "not_proved" and "given certificate was rejected" in (rejected.reason or "")
    assert rejected.lean_source is None


@pytest.mark.parametrize(
    "poly",
    ["((x**24)**24)**24", "((((10**20)**24)**24)**24)**24", "((x**2)**24)**2"],
)
def test_the_evaluator_bounds_degree_and_number_size_before_evaluating(poly: str) -> None:
    import time

    started = time.perf_counter()
    report = check_independently("x^2 >= 0", [], {"squares": [{"coeff": "1", "poly": poly}]})
    assert not report.ok and "limits" in report.reason
    assert time.perf_counter() - started < 0.5


def test_substitution_is_bounded_before_it_expands() -> None:
    from models.common.contract import MethodInputError

    names = [f"x{i}" for i in range(1, 13)]
    problem = " + ".join(f"{n}^12" for n in names) + " >= 0"
    with pytest.raises(MethodInputError, match="hypotheses: substituting the linear equalities"):
        prove(problem, [" + ".join(names) + " = 1"], refute_starts=1)
