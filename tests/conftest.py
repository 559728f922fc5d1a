"""Shared fixtures: settings on a temp SQLite file, an API client, and a live backend for page tests."""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy/torch are imported anywhere

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from backend.main import create_app
from backend.settings import Settings
from devtools.devstack import free_port, wait_http

TOY = "tests.toy_method"
ROOT = Path(__file__).resolve().parent.parent


def page_file(name: str) -> str:
    """Absolute path of a Streamlit page (AppTest resolves relative paths against the test file)."""
    return str(ROOT / "app" / "views" / f"{name}.py")


# The store the backend tests run against: tests/backend/conftest.py sets it per test ("sqlite" means
# the default file under data_dir; otherwise a SQLAlchemy URL of a fresh PostgreSQL database).
STORE: dict[str, str] = {"url": ""}


def skip_or_fail(reason: str, required_by: str) -> None:
    """Skip a test whose real component is missing here, or fail it where the environment variable
    `required_by` is set (`.ci/run` sets REQUIRE_POSTGRES, REQUIRE_NGINX and REQUIRE_BROWSER_TESTS)."""
    if os.environ.get(required_by):
        pytest.fail(f"{reason} (and {required_by} is set)")
    pytest.skip(reason)


def make_settings(data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"database_url": STORE["url"],"data_dir": data_dir, "extra_methods": TOY, "max_workers": 2, "job_timeout_s": 60,
                              "job_memory_mb": 1024, "warm_workers": 1, "preload_methods": False,
                              "progress_interval_s": 0.0, "cancel_grace_s": 2.0}
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def api(settings: Settings) -> Iterator[TestClient]:
    """TestClient over the real app with the embedded (process-per-job) executor."""
    with TestClient(create_app(settings)) as client:
        yield client


def wait_for(client: TestClient, job_id: str, statuses: set[str], timeout_s: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["status"] in statuses:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not reach {statuses}; last: {job}")


@contextmanager
def served(settings: Settings) -> Iterator[str]:
    """The real app in a uvicorn thread on a free port, BACKEND_URL pointing at it; fails if it never answers."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    previous = os.environ.get("BACKEND_URL")
    try:
        wait_http(url + "/healthz", timeout_s=300)
        os.environ["BACKEND_URL"] = url
        yield url
    finally:
        if previous is None:
            os.environ.pop("BACKEND_URL", None)
        else:
            os.environ["BACKEND_URL"] = previous
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="session")
def live_backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real backend on a free port (inline executor, temp SQLite); sets BACKEND_URL."""
    with served(make_settings(tmp_path_factory.mktemp("live"), executor="inline")) as url:
        yield url
