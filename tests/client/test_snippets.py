"""The page's "Use via API" Python snippet runs as printed against a real server and gives the run's claims."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from app.components.snippets import api_snippets


def test_the_python_snippet_runs_against_a_real_server(open_server: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = api_snippets("sweep_toy", {"level": 7.5, "seeds": 2}, open_server, shared=False)["Python"]
    printed = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "snippet.py", "exec"), namespace)
    run = namespace["run"]
    assert run.status == "succeeded" and run.params["level"] == 7.5  # type: ignore[attr-defined]
    lines = printed.getvalue().splitlines()
    assert lines[1].startswith("level ") and lines[2].startswith("small ")
    assert (tmp_path / "out" / "export.zip").exists() and (tmp_path / "out" / "result.json").exists()
