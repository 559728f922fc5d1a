"""Regenerate static/screenshots/home.png and full-page shots of Home and method pages with headless Chromium.

    .venv/bin/python scripts/take_screenshots.py [--width W ...] [--keep-readme-shot] [METHOD ...]

Starts the backend and the front end on free ports with a temporary store. For each METHOD it presses Run
once with the page's defaults (at the first width) and saves var/screenshots/<METHOD>.png; then, at every
width (default 1400), it saves var/screenshots/home-<W>.png, not-found-<W>.png (an unknown URL) and
<METHOD>-<W>.png (the run's permalink opened in a fresh tab). The first width also rewrites the
README's static/screenshots/home.png unless --keep-readme-shot. Needs Debian's chromium (CHROMIUM or
/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.devstack import BROWSER_FLAGS, chromium_path, running_stack, wait_for_app  # noqa: E402

SHOTS = ROOT / "var" / "screenshots"


def _run_default(browser: Any, frontend: str, method: str, width: int) -> str:
    """Press Run with the page's defaults; returns the run's permalink query ("?job=<id>")."""
    page = browser.new_page(viewport={"width": width, "height": 2400})
    page.goto(f"{frontend}/{method}")
    wait_for_app(page)
    page.get_by_role("button", name="Run", exact=True).first.click()
    page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=600_000)
    wait_for_app(page)
    page.screenshot(path=str(SHOTS / f"{method}.png"), full_page=True)
    query = "?" + page.url.split("?", 1)[1] if "?" in page.url else ""
    page.close()
    return query


def _shot(browser: Any, url: str, path: Path, width: int, height: int = 1000) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    wait_for_app(page)
    page.wait_for_timeout(1500)  # the sidebar's collapse on a narrow screen is animated
    page.screenshot(path=str(path), full_page=True)
    page.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("methods", nargs="*")
    parser.add_argument("--width", type=int, action="append", help="viewport width in px (repeatable; default 1400)")
    parser.add_argument("--keep-readme-shot", action="store_true", help="leave static/screenshots/home.png alone")
    args = parser.parse_args(argv)
    widths = args.width or [1400]
    browser_path = chromium_path()
    if browser_path is None:
        raise SystemExit("error: Chromium not found (set CHROMIUM or apt-get install chromium)")
    with tempfile.TemporaryDirectory() as data_dir, running_stack(Path(data_dir)) as stack:
        SHOTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=BROWSER_FLAGS)
            # Home first: its shot is the README's.
            page = browser.new_page(viewport={"width": widths[0], "height": 1250})
            page.goto(stack.frontend)
            wait_for_app(page)
            if not args.keep_readme_shot:
                page.screenshot(path=str(ROOT / "static" / "screenshots" / "home.png"))
            page.close()
            permalinks = {method: _run_default(browser, stack.frontend, method, widths[0]) for method in args.methods}
            for width in widths:
                _shot(browser, stack.frontend, SHOTS / f"home-{width}.png", width)
                _shot(browser, f"{stack.frontend}/no_such_page", SHOTS / f"not-found-{width}.png", width)
                for method, query in permalinks.items():
                    _shot(browser, f"{stack.frontend}/{method}{query}", SHOTS / f"{method}-{width}.png", width, 2400)
            browser.close()
    print("\n".join(str(path) for path in sorted(SHOTS.glob("*.png"))))


if __name__ == "__main__":
    main()
