"""Regenerate static/screenshots/home.png (and full-page shots of method pages) with headless Chromium.

    .venv/bin/python scripts/take_screenshots.py [METHOD ...]

Starts the backend and the front end on free ports with a temporary store, opens the home page,
and for each METHOD presses Run with the page's defaults and saves var/screenshots/<METHOD>.png.
Needs Debian's chromium (CHROMIUM or /usr/bin/chromium).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import free_port  # noqa: E402
from tests.e2e.conftest import BROWSER_FLAGS, chromium_path, wait_for_app  # noqa: E402


def _wait(url: str) -> None:
    for _ in range(600):
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{url} did not answer")


def main(methods: list[str]) -> None:
    browser_path = chromium_path()
    if browser_path is None:
        raise SystemExit("error: Chromium not found (set CHROMIUM or apt-get install chromium)")
    backend_port, frontend_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        env = dict(os.environ, DATA_DIR=data_dir, BACKEND_URL=f"http://127.0.0.1:{backend_port}", OMP_NUM_THREADS="1")
        servers = [
            subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--port", str(backend_port)],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app/main.py", "--server.port",
                              str(frontend_port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL),
        ]
        try:
            _wait(f"http://127.0.0.1:{backend_port}/healthz")
            _wait(f"http://127.0.0.1:{frontend_port}/_stcore/health")
            frontend = f"http://127.0.0.1:{frontend_port}"
            (ROOT / "var" / "screenshots").mkdir(parents=True, exist_ok=True)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=browser_path, args=BROWSER_FLAGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1250})
                page.goto(frontend)
                wait_for_app(page)
                page.screenshot(path=str(ROOT / "static" / "screenshots" / "home.png"))
                for method in methods:
                    page = browser.new_page(viewport={"width": 1400, "height": 2400})
                    page.goto(f"{frontend}/{method}")
                    wait_for_app(page)
                    page.get_by_role("button", name="Run", exact=True).first.click()
                    page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=300_000)
                    wait_for_app(page)
                    page.screenshot(path=str(ROOT / "var" / "screenshots" / f"{method}.png"), full_page=True)
                browser.close()
        finally:
            for server in servers:
                server.terminate()
                server.wait(10)


if __name__ == "__main__":
    main(sys.argv[1:])
