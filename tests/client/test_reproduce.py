"""reproduce.py and reproduce.ipynb: the script re-runs a run through the library and exits 0 when it agrees
with result.json, 1 with the first difference when result.json was altered; measured times are excluded."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import httpx
import nbformat
import pytest

from backend.jobs import reproduce_script as script
from backend.jobs.reproduce import notebook_for, script_for
from playground_client import Client
from tests.client.conftest import METHODS

ROOT = Path(__file__).resolve().parents[2]


def test_differences_finds_the_first_changed_value_and_skips_measured_times() -> None:
    stored = {"claims": [{"id": "gain", "quantity": "accuracy gain", "seeds": [{"value": 1.0}, {"value": 2.0}]},
                         {"id": "speed", "quantity": "measured CPU time, ours / baseline", "ours": {"mean": 0.5}}],
              "total_seconds": 3.0, "curve": [0.1, 0.2]}
    same = json.loads(json.dumps(stored))
    same["total_seconds"], same["claims"][1]["ours"]["mean"] = 9.0, 0.7  # measured times: not compared
    skipped: list[str] = []
    assert script.differences(stored, same, "", 1e-6, 1e-9, skipped) is None
    assert "total_seconds" in skipped and "claims[speed] (a measured time: its values and verdict)" in skipped
    moved = json.loads(json.dumps(same))
    moved["claims"][0]["seeds"][1]["value"] = 2.001
    found = script.differences(stored, moved, "", 1e-6, 1e-9, [])
    assert found is not None and found.startswith("claims[gain].seeds[1].value: result.json has 2.0")
    moved = json.loads(json.dumps(same))
    moved["curve"] = [0.1]
    assert "1 in the re-run" in str(script.differences(stored, moved, "", 1e-6, 1e-9, []))
    assert script.differences({"x": 1.0}, {"x": 1.0 + 1e-9}, "", 1e-6, 1e-9, []) is None


def test_script_and_notebook_carry_the_runs_method_params_and_id() -> None:
    text = script_for("bilateral_trade", {"horizon": 4096, "flag": True, "none": None, "name": 'a "b"'}, "id-1")
    namespace: dict[str, Any] = {}
    exec(compile(text.replace('if __name__ == "__main__":', "if False:"), "reproduce.py", "exec"), namespace)
    assert namespace["METHOD"] == "bilateral_trade" and namespace["JOB_ID"] == "id-1"
    assert namespace["PARAMS"] == {"horizon": 4096, "flag": True, "none": None, "name": 'a "b"'}
    notebook = nbformat.reads(notebook_for("toy", {}, "id-1", ["steps"]), as_version=4)
    nbformat.validate(notebook)
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert "reproduce.rerun()" in code and "reproduce.check(run, stored)" in code and "figure.show()" in code


def _unpacked(url: str, job_id: str, folder: Path) -> Path:
    archive = httpx.get(f"{url}/api/jobs/{job_id}/export.zip", timeout=120).content
    zipfile.ZipFile(io.BytesIO(archive)).extractall(folder)
    return folder


def _reproduce(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "EXTRA_METHODS": METHODS, "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def _alter_first_seed_value(folder: Path) -> None:
    result = json.loads((folder / "result.json").read_text())
    seed = next(c for c in result["claims"] if c["seeds"] and c["seeds"][0]["value"] is not None)["seeds"][0]
    seed["value"] = seed["value"] * 1.01 + 0.01
    (folder / "result.json").write_text(json.dumps(result))


def test_reproduce_py_from_export_zip_exits_0_and_1_when_result_json_is_altered(open_server: str, tmp_path: Path) -> None:
    run = Client(open_server).run("sweep_toy", {"level": 6.0, "seeds": 3}, timeout_s=120)
    folder = _unpacked(open_server, run.id, tmp_path / "fresh")
    ok = _reproduce(folder, "reproduce.py")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "claim level: " in ok.stdout and "OK:" in ok.stdout and "elapsed_seconds" in ok.stdout
    notebook = nbformat.read(folder / "reproduce.ipynb", as_version=4)
    cells = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    (folder / "notebook_as_script.py").write_text(cells.replace("figure.show()", "print(figure.to_json()[:40])"))
    executed = _reproduce(folder, "notebook_as_script.py")
    assert executed.returncode == 0 and "first difference: none" in executed.stdout, executed.stderr
    _alter_first_seed_value(folder)
    bad = _reproduce(folder, "reproduce.py")
    assert bad.returncode == 1 and "DIFFERENT: claims[level].seeds[0].value" in bad.stdout, bad.stdout + bad.stderr
    alone = httpx.get(f"{open_server}/api/jobs/{run.id}/reproduce.py", timeout=30)
    assert alone.status_code == 200 and alone.text == (folder / "reproduce.py").read_text()


def test_without_the_library_it_prints_the_install_line_and_exits_3(tmp_path: Path) -> None:
    (tmp_path / "reproduce.py").write_text(script_for("toy", {}, "id-1"))
    (tmp_path / "result.json").write_text("{}")
    bare = subprocess.run([sys.executable, "-S", "reproduce.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env={"PATH": os.environ.get("PATH", "")})
    assert bare.returncode == 3 and "make install" in bare.stderr, bare.stderr


@pytest.mark.slow
@pytest.mark.parametrize("method", ["bilateral_trade", "erm_overfit", "rlvr_noise"])
def test_reproduce_py_of_real_methods(open_server: str, tmp_path: Path, method: str) -> None:
    """One core demo and two others, at their contract-test (smoke) settings."""
    from backend.registry import load_spec

    params = dict(load_spec(f"models.{method}").smoke_params or {})
    run = Client(open_server).run(method, params, timeout_s=600)
    assert run.status == "succeeded", run.error
    folder = _unpacked(open_server, run.id, tmp_path / method)
    ok = _reproduce(folder, "reproduce.py")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    _alter_first_seed_value(folder)
    bad = _reproduce(folder, "reproduce.py")
    assert bad.returncode == 1 and "DIFFERENT: claims[" in bad.stdout, bad.stdout + bad.stderr
