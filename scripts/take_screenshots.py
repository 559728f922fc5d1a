"""Regenerate static/screenshots/home.png (and full-page shots of method pages) with headless Chromium.

    .venv/bin/python scripts/take_screenshots.py [METHOD ...]

Starts the backend and the front end on free ports with a temporary store, opens the home page,
and for each METHOD presses Run with the page's defaults and saves var/screenshots/<METHOD>.png.
Needs Debian's chromium (CHROMIUM or /usr/bin/chromium).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.devstack import BROWSER_FLAGS, chromium_path, running_stack, wait_for_app  # noqa: E402


def main(methods: list[str]) -> None:
    browser_path = chromium_path()
    if browser_path is None:
        raise SystemExit("error: Chromium not found (set CHROMIUM or apt-get install chromium)")
    with tempfile.TemporaryDirectory() as data_dir, running_stack(Path(data_dir)) as stack:
        (ROOT / "var" / "screenshots").mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=BROWSER_FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1250})
            page.goto(stack.frontend)
            wait_for_app(page)
            page.screenshot(path=str(ROOT / "static" / "screenshots" / "home.png"))
            for method in methods:
                page = browser.new_page(viewport={"width": 1400, "height": 2400})
                page.goto(f"{stack.frontend}/{method}")
                wait_for_app(page)
                page.get_by_role("button", name="Run", exact=True).first.click()
                page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=300_000)
                wait_for_app(page)
                page.screenshot(path=str(ROOT / "var" / "screenshots" / f"{method}.png"), full_page=True)
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
