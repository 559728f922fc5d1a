"""End to end (issue 21's acceptance): a run opened by its permalink shows its verdict and restores
its inputs; a new run then replaces it on the page."""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
LABEL = "Inequality (>=, <=, ≥, ≤; > and < are strict)"


def _run(page, text: str) -> None:
    box = page.get_by_role("textbox", name=LABEL)
    box.fill(text)
    box.press("Tab")
    page.get_by_role("button", name="Run", exact=True).first.click()
    page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=240_000)
    wait_for_app(page)


def test_permalink_restores_the_run_and_a_new_run_replaces_it(servers: dict[str, str], browser) -> None:
    first = browser.new_page(viewport={"width": 1400, "height": 1800})
    first.goto(f"{servers['frontend']}/inequality")
    wait_for_app(first)
    _run(first, "x^3 >= 0")
    job_id = first.url.split("job=")[1].split("&")[0]
    assert httpx.get(f"{servers['backend']}/api/jobs/{job_id}").json()["verdict"]["label"] == "Refuted"
    first.close()

    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(f"{servers['frontend']}/inequality?job={job_id}")
    wait_for_app(page)
    page.get_by_text("Refuted", exact=True).first.wait_for(timeout=60_000)
    assert page.get_by_role("textbox", name=LABEL).input_value() == "x^3 >= 0"
    _run(page, "x^2 + y^2 >= 2*x*y")
    page.get_by_text("Proved", exact=True).first.wait_for(timeout=60_000)
    assert page.get_by_text("Refuted", exact=True).count() == 0
    assert f"job={job_id}" not in page.url, "the URL follows the run being shown"
    page.close()


def test_home_links_open_in_the_same_tab(servers: dict[str, str], browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(servers["frontend"])
    wait_for_app(page)
    link = page.locator("[data-testid='stMain'] a[href='/inequality']").first
    assert link.get_attribute("target") == "_self"
    page.close()
