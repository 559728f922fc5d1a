"""Lean export (golden file, no user text) and the Lean runner driven by a fake `lake` on PATH."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from models.common.contract import no_progress
from models.inequality.lean_runner import run_lean
from models.inequality.params import Params
from models.inequality.result import Result
from models.inequality.run import run

GOLDEN = Path(__file__).parent / "golden"


def _proved(problem: str, hypotheses: list[str] | None = None, **extra: object) -> Result:
    result = run(Params(problem=problem, hypotheses=hypotheses or [], refute_starts=2, lean_check=False, **extra),
                 no_progress)
    assert result.status == "proved", result.reason
    return result


# Golden cases built from given certificates (no solver involved, so the text is deterministic).
GOLDEN_CASES = {
    "am_gm_two.lean": ("x^2 + y^2 >= 2*x*y", [], {"squares": [{"coeff": "1", "poly": "x - y"}]}),
    "am_gm_three_nonneg.lean": (
        "x^3 + y^3 + z^3 >= 3*x*y*z",
        ["x >= 0", "y >= 0", "z >= 0"],
        {"products": [{"hypotheses": [i], "squares": [{"coeff": "1/2", "poly": "x - y"}, {"coeff": "1/2", "poly": "y - z"},
                                                       {"coeff": "1/2", "poly": "z - x"}]} for i in range(3)]},
    ),
    "strict_margin.lean": ("x^2 + 1 > 0", [], {"margin": "1", "squares": [{"coeff": "1", "poly": "x"}]}),
    "equality_lifted.lean": (
        "a + b >= 2", ["a*b = 1", "a >= 0"],
        {"products": [{"hypotheses": [1], "squares": [{"coeff": "1", "poly": "b - 1"}]}],
         "equalities": [{"hypothesis": 0, "poly": "2 - b"}]},
    ),
    "zero_polynomial.lean": ("x - x >= 0", [], {}),
    "motzkin_multiplier.lean": (
        "x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2",
        [],
        {"multiplier": "x^2 + y^2 + 1",
         "squares": [{"coeff": "3/4", "poly": "x^3*y + x*y^3 - 2*x*y"}, {"coeff": "1/4", "poly": "x^3*y - x*y^3"},
                     {"coeff": "1", "poly": "x^2*y^2 - 1"}, {"coeff": "1", "poly": "x*y^2 - x"},
                     {"coeff": "1", "poly": "x^2*y - y"}]},
    ),
}


@pytest.mark.parametrize("name", list(GOLDEN_CASES))
def test_lean_text_matches_golden_file(name: str) -> None:
    problem, hypotheses, certificate = GOLDEN_CASES[name]
    result = _proved(problem, hypotheses, certificate=certificate)
    assert result.route == "user certificate"
    assert result.lean_source == (GOLDEN / name).read_text(encoding="utf-8")
    assert result.artifacts()["proof.lean"].content.decode() == result.lean_source


def test_lean_text_keeps_user_names_and_no_user_text() -> None:
    problem = "alpha^2 + beta^2 >= 2*alpha*beta + 0"
    source = _proved(problem).lean_source or ""
    assert "theorem nspi_inequality (alpha beta : ℝ) :" in source
    assert problem not in source and "2*alpha" not in source  # printed from parsed data, not copied
    assert "#print axioms nspi_inequality" in source and "sorry" not in source


def test_names_that_are_not_lean_identifiers_are_renamed_with_a_comment() -> None:
    source = _proved("fun^2 + at^2 >= 2*fun*at").lean_source or ""
    assert "theorem nspi_inequality (v1 v2 : ℝ) :" in source and "renamed v1..v2" in source
    assert "fun ^" not in source


def test_hypotheses_become_lean_hypotheses() -> None:
    source = _proved("x^3 + y^3 + z^3 >= 3*x*y*z", ["x >= 0", "y >= 0", "z >= 0"]).lean_source or ""
    assert "(nspi_h1 : x ≥ (0 : ℝ)) (nspi_h2 : y ≥ (0 : ℝ)) (nspi_h3 : z ≥ (0 : ℝ))" in source
    assert "mul_nonneg nspi_g1 (by positivity)" in source


def test_multiplier_proofs_use_the_right_argument() -> None:
    affine = _proved("x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2").lean_source or ""
    assert "(1 + x ^ 2 + y ^ 2) ^ 1 *" in affine and "mul_neg_of_pos_of_neg" in affine
    form = _proved("x^4*y^2 + y^4*z^2 + z^4*x^2 >= 3*x^2*y^2*z^2").lean_source or ""
    assert "(x ^ 2 + y ^ 2 + z ^ 2) ^ 1 *" in form and "subst nspi_x0 nspi_y0 nspi_z0" in form


FAKE_LAKE = """#!/bin/sh
# fake lake: `lake env lean FILE`; behaviour chosen by FAKE_LEAN_MODE
file="$3"
grep -q "theorem nspi_inequality" "$file" || { echo "$file:1:0: error: no theorem"; exit 1; }
case "$FAKE_LEAN_MODE" in
  ok) echo "'nspi_inequality' depends on axioms: [propext, Classical.choice, Quot.sound]";;
  sorry) echo "warning: declaration uses 'sorry'"; echo "'nspi_inequality' depends on axioms: [sorryAx]";;
  axiom) echo "'nspi_inequality' depends on axioms: [propext, myAxiom]";;
  error) echo "$file:9:2: error: ring failed"; exit 1;;
  slow) sleep 5;;
esac
"""


@pytest.fixture
def fake_lean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    lake = bin_dir / "lake"
    lake.write_text(FAKE_LAKE)
    lake.chmod(lake.stat().st_mode | stat.S_IEXEC)
    project = tmp_path / "mathlib_project"
    project.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("LEAN_PROJECT", str(project))
    monkeypatch.delenv("LEAN_CMD", raising=False)
    return project


@pytest.mark.parametrize(
    ("mode", "status", "fragment"),
    [
        ("ok", "accepted", "Classical.choice"),
        ("sorry", "rejected", "sorry"),
        ("axiom", "rejected", "myAxiom"),
        ("error", "rejected", "ring failed"),
    ],
)
def test_runner_statuses(fake_lean: Path, monkeypatch: pytest.MonkeyPatch, mode: str, status: str, fragment: str) -> None:
    monkeypatch.setenv("FAKE_LEAN_MODE", mode)
    source = (GOLDEN / "am_gm_two.lean").read_text(encoding="utf-8")
    outcome = run_lean(source, "nspi_inequality", timeout_s=20)
    assert outcome.status == status
    assert fragment in outcome.messages


def test_runner_time_limit(fake_lean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_LEAN_MODE", "slow")
    outcome = run_lean("theorem nspi_inequality", "nspi_inequality", timeout_s=1)
    assert outcome.status == "rejected" and "within 1 s" in outcome.messages


def test_runner_not_available(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LEAN_PROJECT", raising=False)
    assert run_lean("x", "nspi_inequality", 5).status == "not_available"
    monkeypatch.setenv("LEAN_PROJECT", str(tmp_path))
    monkeypatch.setenv("LEAN_CMD", "definitely-not-a-lake-binary env lean")
    outcome = run_lean("x", "nspi_inequality", 5)
    assert outcome.status == "not_available" and "not on PATH" in outcome.messages


def test_run_reports_lean_status_through_the_pipeline(fake_lean: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_LEAN_MODE", "ok")
    result = run(Params(problem="x^2 + 1 >= 2*x", refute_starts=2), no_progress)
    assert result.lean.status == "accepted" and result.lean.file == "proof.lean"
    dumped = result.model_dump(mode="json")
    assert dumped["lean"]["status"] == "accepted"


def test_products_of_two_hypotheses_are_parenthesised_and_proved_by_nested_mul_nonneg() -> None:
    certificate = {"products": [{"hypotheses": [0, 1], "squares": [{"coeff": "1", "poly": "1"}]}]}
    source = _proved("x*y >= 0", ["x >= 0", "y >= 0"], certificate=certificate).lean_source or ""
    assert "0 ≤ (((x) - ((0 : ℝ))) * ((y) - ((0 : ℝ)))) * ((1 : ℝ) * ((1 : ℝ)) ^ 2)" in source
    assert "mul_nonneg (mul_nonneg nspi_g1 nspi_g2) (by positivity)" in source
