"""End to end, on every page: a permalink restores every input, leaving the page during a run keeps its
controls and its run, and an out-of-range number is refused with a message instead of running.

"Every input is restored" is checked through the server: after opening a run by permalink in a fresh
browser, pressing Run must submit exactly the params of the run that was opened (every control, nested
tables included, feeds those params)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem for p in (ROOT / "app" / "views").glob("*.py") if p.stem not in ("home", "admin"))


def _richest_example(api: str, name: str) -> dict[str, Any]:
    """The example that sets the most params (so restoring defaults would not pass by accident)."""
    named = httpx.get(f"{api}/api/methods/{name}/examples", timeout=30).json()
    assert named, f"{name} has no examples"
    return max(named.values(), key=lambda params: len(str(params)))


def _submit(api: str, name: str, params: dict[str, Any]) -> str:
    answer = httpx.post(f"{api}/api/jobs", json={"method": name, "params": params}, timeout=30)
    assert answer.status_code in (200, 201, 202), answer.text
    return str(answer.json()["id"])


def _settle(api: str, job_id: str) -> dict[str, Any]:
    """Cancel the job (we only need its params) and wait until it has ended."""
    httpx.delete(f"{api}/api/jobs/{job_id}", timeout=30)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = httpx.get(f"{api}/api/jobs/{job_id}", params={"view": "status"}, timeout=30).json()
        if job["status"] in ("succeeded", "failed", "cancelled", "timed_out"):
            return dict(job)
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not end")


def _run_and_get_job(page: Any, before: str) -> str:
    """Press Run and return the id of the job it submitted (the URL follows the run shown)."""
    page.get_by_role("button", name="Run", exact=True).first.click()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        url = page.url
        if "job=" in url:
            job_id = url.split("job=")[1].split("&")[0]
            if job_id != before:
                return job_id
        page.wait_for_timeout(200)
    raise AssertionError("Run submitted no job")


def _job_count(api: str, name: str) -> int:
    return len(httpx.get(f"{api}/api/jobs", params={"method": name, "limit": 100}, timeout=30).json()["data"])


@pytest.mark.parametrize("name", PAGES)
def test_permalink_navigation_and_bad_numbers(servers: dict[str, str], browser: Any, name: str) -> None:
    api, front = servers["backend"], servers["frontend"]
    original = _settle(api, _submit(api, name, _richest_example(api, name)))

    context = browser.new_context(viewport={"width": 1400, "height": 2000})  # a fresh browser session
    page = context.new_page()
    page.goto(f"{front}/{name}?job={original['id']}")
    wait_for_app(page)
    restored = _run_and_get_job(page, original["id"])
    assert _settle(api, restored)["params"] == original["params"], "the permalink restored every input"
    wait_for_app(page)

    # Leave the page while its run is shown, come back through the navigation: same controls, same run.
    page.locator("[data-testid='stSidebarNav'] a", has_text="Home").first.click()
    wait_for_app(page)
    page.locator(f"[data-testid='stSidebarNav'] a[href$='/{name}']").first.click()
    wait_for_app(page)
    page.get_by_text(restored[:8], exact=False).first.wait_for(timeout=30_000)
    again = _run_and_get_job(page, restored)
    assert _settle(api, again)["params"] == original["params"], "the controls survived leaving the page"
    wait_for_app(page)

    # An out-of-range number is named next to its control and above Run, and nothing is submitted.
    numbers = page.locator("[data-testid='stNumberInputField']:visible")
    if numbers.count():
        jobs_before = _job_count(api, name)
        field = numbers.first
        field.fill("-1000000000000000")
        field.press("Tab")
        wait_for_app(page)
        page.get_by_role("button", name="Run", exact=True).first.click()
        wait_for_app(page)
        page.get_by_text("below the minimum", exact=False).first.wait_for(timeout=30_000)
        page.get_by_text("before running", exact=False).first.wait_for(timeout=30_000)
        assert _job_count(api, name) == jobs_before, "an out-of-range number was submitted"
    assert page.locator("[data-testid='stException']").count() == 0
    context.close()
