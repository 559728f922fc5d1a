"""scripts/check_lean.py: every golden file through `lake env lean`, a clear message and exit 2 without Lean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "check_lean.py"
GOLDEN = sorted((ROOT / "tests" / "models" / "inequality" / "golden").glob("*.lean"))


def _run(tmp_path: Path, lake_output: str | None) -> subprocess.CompletedProcess[str]:
    bin_dir, project = tmp_path / "bin", tmp_path / "project"
    bin_dir.mkdir()
    project.mkdir()
    (project / "lakefile.lean").write_text("import Lake\n")
    if lake_output is not None:  # a fake `lake` that prints what Lean would for the file it is given
        lake = bin_dir / "lake"
        lake.write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'calls'}\nprintf '%s\\n' \"{lake_output}\"\n")
        lake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "LEAN_PROJECT": str(project)}
    env.pop("LEAN_CMD", None)
    return subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="shell script as a fake lake")
def test_every_golden_file_is_checked_and_accepted_with_the_allowed_axioms(tmp_path: Path) -> None:
    done = _run(tmp_path, "'nspi_inequality' depends on axioms: [propext, Classical.choice, Quot.sound]")
    assert done.returncode == 0, done.stdout
    assert f"{len(GOLDEN)} / {len(GOLDEN)} accepted" in done.stdout
    calls = (tmp_path / "calls").read_text().splitlines()
    assert len(calls) == len(GOLDEN) and all(c.startswith("env lean ") for c in calls)


def test_a_file_using_sorry_axioms_fails_the_script(tmp_path: Path) -> None:
    done = _run(tmp_path, "'nspi_inequality' depends on axioms: [propext, sorryAx]")
    assert done.returncode == 1 and "sorryAx" in done.stdout and f"0 / {len(GOLDEN)} accepted" in done.stdout


def test_without_lake_it_says_so_and_exits_2(tmp_path: Path) -> None:
    done = _run(tmp_path, None)
    assert done.returncode == 2 and "`lake` is not on PATH" in done.stdout and "Nothing was checked" in done.stdout
