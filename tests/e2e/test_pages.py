"""End to end: every method page runs its default parameters in Chromium through the real stack."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem for p in (ROOT / "app" / "views").glob("*.py") if p.stem not in ("home", "admin"))


@pytest.mark.parametrize("name", PAGES)
def test_page_runs_defaults_and_shows_results(servers: dict[str, str], browser, tmp_path: Path, name: str) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    page.goto(f"{servers['frontend']}/{name}")
    wait_for_app(page)
    page.get_by_role("button", name="Run", exact=True).first.click()
    # The live progress fragment polls the job; when it ends the page reruns and shows the result.
    page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=240_000)
    wait_for_app(page)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_role("button", name="⬇ export.zip").count() == 1
    assert page.locator(".js-plotly-plot").count() >= 1
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    (ROOT / "var" / "screenshots").mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, ROOT / "var" / "screenshots" / f"{name}.png")
    page.close()
