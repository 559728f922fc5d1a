"""The shared page components (run panel, progress, cancel, results, downloads, history) on the toy method."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from streamlit.testing.v1 import AppTest

from backend.main import create_app
from tests.conftest import free_port, make_settings

TOY_PAGE = str(Path(__file__).with_name("toy_page.py"))


def test_run_shows_metrics_figures_downloads_and_history(live_backend: str) -> None:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    assert at.title[0].value == "Toy method (tests)"
    assert "Tests. A toy. ICML 2026." in at.caption[0].value
    at.number_input(key="steps").set_value(5)
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    assert any("Finished" in s.value for s in at.success)
    metrics = at.dataframe[0].value
    assert list(metrics["Metric"]) == ["Steps done", "Sum of 1..steps"]
    assert list(metrics["Value"]) == ["5", "15"]
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["⬇ result.json", "⬇ steps.csv", "⬇ export.zip"]
    history = at.dataframe[-1].value
    assert "succeeded" in list(history["Status"])


def test_a_failed_run_shows_its_message(live_backend: str) -> None:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    at.selectbox(key="behaviour").set_value("fail")
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    assert "behaviour 'fail' asks for a failure" in at.error[0].value


@pytest.fixture
def slow_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A live backend with the real process-per-job executor, so a job is still running on rerun."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(make_settings(tmp_path)), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    monkeypatch.setitem(os.environ, "BACKEND_URL", url)
    yield url
    server.should_exit = True
    thread.join(10)


def test_progress_and_cancel(slow_backend: str) -> None:
    at = AppTest.from_file(TOY_PAGE, default_timeout=60)
    at.run()
    at.selectbox(key="behaviour").set_value("sleep")
    next(b for b in at.button if b.label == "Run").click()
    at.run()
    assert not at.exception
    job_id = at.session_state["job:toy"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{slow_backend}/api/jobs/{job_id}").json()["status"] != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    at.run()
    assert at.get("progress"), "a running job shows a progress bar"
    cancel = next(b for b in at.button if b.label == "Cancel")
    cancel.click()
    at.run()
    while httpx.get(f"{slow_backend}/api/jobs/{job_id}").json()["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    at.run()
    assert any("cancelled" in w.value for w in at.warning)
