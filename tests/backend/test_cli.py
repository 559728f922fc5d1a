"""CLI exit codes and output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, tmp: Path, methods: str = "tests.toy_method") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, EXTRA_METHODS=methods, DATA_DIR=str(tmp))
    return subprocess.run([sys.executable, "-m", "backend.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_methods_lists_json(tmp_path: Path) -> None:
    done = cli("methods", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "toy" in [m["name"] for m in json.loads(done.stdout)]


def test_run_prints_result_and_writes_artifacts_and_figures(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = cli("run", "toy", "--params", '{"steps": 4}', "--out", str(out), tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"steps_done": 4, "total": 10, "blas_threads": 0, "claims": [], "standing": None,
                                       "grids": [], "tables": []}
    assert {p.name for p in out.iterdir()} == {"result.json", "steps.csv", "steps.html"}


def test_run_prints_the_result_tables_after_the_result_fields(tmp_path: Path) -> None:
    done = cli("run", "endings", "--quiet", "--params", '{"steps": 2}', tmp=tmp_path,
               methods="tests.backend.job_methods")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert list(printed)[-1] == "tables" and printed["steps_done"] == 2
    (steps,) = printed["tables"]
    assert steps["title"] == "Steps" and [row["step"] for row in steps["rows"]] == [0, 1]
    assert steps["rows"][1]["share"] is None, "NaN prints as null, as the store keeps it"


def test_a_cli_run_uses_the_thread_limit_of_a_job(tmp_path: Path) -> None:
    env = dict(os.environ, EXTRA_METHODS="tests.toy_method", DATA_DIR=str(tmp_path), JOB_THREADS="1")
    env.pop("OMP_NUM_THREADS", None)
    done = subprocess.run([sys.executable, "-m", "backend.cli", "run", "toy", "--quiet", "--params",
                           '{"behaviour": "threads"}'], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["blas_threads"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "nope"), "unknown method 'nope'"),
        (("run", "toy", "--params", "{oops"), "--params is not valid JSON"),
        (("run", "toy", "--params", "[1]"), "--params must be a JSON object"),
        (("run", "toy", "--params", '{"steps": 0}'), "steps: Input should be greater than or equal to 1"),
        (("run", "toy", "--params", '{"behaviour": "fail"}'), "behaviour 'fail' asks for a failure"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = cli(*args, tmp=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
