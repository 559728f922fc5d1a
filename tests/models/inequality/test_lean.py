"""Lean export (golden file, no user text) and the Lean runner driven by a fake `lake` on PATH."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from models.common.contract import no_progress
from models.inequality.lean_runner import run_lean
from models.inequality.params import Params
from models.inequality.run import run

GOLDEN = Path(__file__).parent / "golden"


def _proved(problem: str, **extra: object) -> object:
    result = run(Params(problem=problem, refute_starts=2, lean_check=False, **extra), no_progress)
    assert result.status == "proved"
    return result


def test_lean_text_matches_golden_file() -> None:
    result = _proved("x^2 + y^2 >= 2*x*y")
    assert result.lean_source == (GOLDEN / "am_gm_two.lean").read_text(encoding="utf-8")
    assert result.artifacts()["proof.lean"].content.decode() == result.lean_source


def test_lean_text_contains_no_user_text() -> None:
    problem = "alpha^2 + beta^2 >= 2*alpha*beta + 0"
    result = _proved(problem)
    source = result.lean_source
    assert "alpha" not in source and "beta" not in source
    assert problem not in source and "2*alpha" not in source
    assert "theorem nspi_inequality (v1 v2 : ℝ)" in source
    assert "#print axioms nspi_inequality" in source
    assert "sorry" not in source


def test_multiplier_proofs_use_the_right_argument() -> None:
    affine = _proved("x^4*y^2 + x^2*y^4 + 1 >= 3*x^2*y^2").lean_source
    assert "(1 + v1 ^ 2 + v2 ^ 2) ^ 1 *" in affine and "mul_neg_of_pos_of_neg" in affine
    form = _proved("x^4*y^2 + y^4*z^2 + z^4*x^2 >= 3*x^2*y^2*z^2").lean_source
    assert "(v1 ^ 2 + v2 ^ 2 + v3 ^ 2) ^ 1 *" in form and "subst hv1 hv2 hv3" in form


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
