"""End to end: the real backend and `streamlit run`, driven by headless Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def test_home_page_lists_every_method(servers: dict[str, str], browser, tmp_path: Path) -> None:
    methods = httpx.get(servers["backend"] + "/api/methods").json()["data"]
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(servers["frontend"])
    wait_for_app(page)
    page.get_by_text("Method Playground", exact=False).first.wait_for()
    for method in methods:
        if (ROOT / "app" / "views" / f"{method['name']}.py").exists():
            page.locator(f"[data-testid='stMain'] a[href='/{method['name']}']").first.wait_for(timeout=30_000)
        else:  # a method with no page (the tests' toy) is listed on a card without a link
            card = page.locator("[data-testid='stMain']").get_by_text(method.get("nav_title") or method["title"])
            card.first.wait_for(timeout=30_000)
            assert page.locator(f"[data-testid='stMain'] a[href='/{method['name']}']").count() == 0
        assert page.get_by_text(method["paper"]["title"], exact=False).count() >= 1
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    assert height <= 2 * 1600, f"the home page is {height} px tall: more than two screens"
    shot = tmp_path / "home.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    (ROOT / "var" / "screenshots").mkdir(parents=True, exist_ok=True)
    shutil.copy(shot, ROOT / "var" / "screenshots" / "home.png")
    page.close()
