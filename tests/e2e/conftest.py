"""Start the real backend and `streamlit run` on free ports; find Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def chromium_path() -> str | None:
    candidate = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return candidate if Path(candidate).exists() else shutil.which("chromium")


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("REQUIRE_BROWSER_TESTS"):
        pytest.fail(f"browser tests are required here but {reason}")
    pytest.skip(reason)


def _wait_http(url: str, process: subprocess.Popen[bytes], timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout_s} s")


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The backend (embedded executor) and the Streamlit front end, as `make run` starts them."""
    data_dir = tmp_path_factory.mktemp("e2e")
    backend_port, frontend_port = free_port(), free_port()
    backend_url = f"http://127.0.0.1:{backend_port}"
    env = dict(os.environ, DATA_DIR=str(data_dir), BACKEND_URL=backend_url, EXTRA_METHODS="tests.toy_method",
               OMP_NUM_THREADS="1")
    log_backend = open(data_dir / "backend.log", "wb")
    log_frontend = open(data_dir / "frontend.log", "wb")
    backend = subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--host", "127.0.0.1",
                                "--port", str(backend_port)], cwd=ROOT, env=env, stdout=log_backend, stderr=log_backend)
    frontend = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app/main.py", "--server.port",
                                 str(frontend_port), "--server.headless", "true", "--browser.gatherUsageStats",
                                 "false"], cwd=ROOT, env=env, stdout=log_frontend, stderr=log_frontend)
    try:
        _wait_http(backend_url + "/healthz", backend)
        _wait_http(f"http://127.0.0.1:{frontend_port}/_stcore/health", frontend)
        yield {"backend": backend_url, "frontend": f"http://127.0.0.1:{frontend_port}", "logs": str(data_dir)}
    finally:
        for process in (frontend, backend):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        log_backend.close()
        log_frontend.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        _skip_or_fail("Chromium was not found (set CHROMIUM or install Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("the playwright package is not installed")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, args=BROWSER_FLAGS)
        yield instance
        instance.close()


def wait_for_app(page: object, timeout_ms: int = 120_000) -> None:
    """Wait until Streamlit is connected, has finished running, and shows no skeleton."""
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=timeout_ms)  # type: ignore[attr-defined]
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=timeout_ms)  # type: ignore[attr-defined]
    page.wait_for_selector("[data-testid='stSkeleton']", state="detached", timeout=timeout_ms)  # type: ignore[attr-defined]
