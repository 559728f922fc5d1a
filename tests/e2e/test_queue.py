"""End to end (issue 47, item 6): two jobs ahead of a page's run on a server with one worker. Every view
of the queued run (its page, its permalink in a fresh browser, another tab) says how many runs are ahead
of it; the page's Run is disabled while its run is active; the run then goes through."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from devtools.devstack import running_stack
from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e
LABEL = "Inequality (>=, <=, ≥, ≤; > and < are strict)"


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    env = {"EXTRA_METHODS": "tests.toy_method", "MAX_WORKERS": "1", "WARM_WORKERS": "1"}
    with running_stack(tmp_path_factory.mktemp("queue"), env) as stack:
        yield {"backend": stack.backend, "frontend": stack.frontend}


def _toy_sleeper(backend: str) -> str:
    response = httpx.post(f"{backend}/api/jobs", json={"method": "toy", "params": {"behaviour": "sleep", "step_s": 0.5}})
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def _status(backend: str, job_id: str) -> dict:
    return dict(httpx.get(f"{backend}/api/jobs/{job_id}", params={"view": "status"}).json())


def _until(check, timeout_s: float = 60) -> None:  # noqa: ANN001 - a predicate
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def _submit_on_page(browser, frontend: str) -> tuple[object, str]:  # noqa: ANN001 - Playwright objects
    page = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
    page.goto(f"{frontend}/inequality")
    wait_for_app(page)
    box = page.get_by_role("textbox", name=LABEL)
    box.fill("x^2 + y^2 >= 2*x*y")
    box.press("Tab")
    page.get_by_role("button", name="Run", exact=True).first.click()
    page.get_by_text("ahead of this one", exact=False).first.wait_for(timeout=60_000)
    return page, page.url.split("job=")[1].split("&")[0]


def _cancel(backend: str, *job_ids: str) -> None:
    for job_id in job_ids:
        httpx.delete(f"{backend}/api/jobs/{job_id}")


def test_every_view_of_a_queued_run_shows_the_runs_ahead(one_worker: dict[str, str], browser) -> None:
    backend, frontend = one_worker["backend"], one_worker["frontend"]
    running = _toy_sleeper(backend)
    _until(lambda: _status(backend, running)["status"] == "running")
    waiting = _toy_sleeper(backend)  # queued: the one worker is busy
    page, job_id = _submit_on_page(browser, frontend)
    try:
        assert _status(backend, job_id)["queue_position"] == 1
        page.get_by_text("Queued: 1 run ahead of this one", exact=False).first.wait_for(timeout=30_000)
        fresh = browser.new_context()  # the permalink in a fresh browser
        tab = page.context.new_page()  # and in another tab of the same one
        try:
            for view in (fresh.new_page(), tab):
                view.goto(f"{frontend}/inequality?job={job_id}")
                wait_for_app(view)
                view.get_by_text("Queued: 1 run ahead of this one", exact=False).first.wait_for(timeout=30_000)
            _cancel(backend, waiting)  # one fewer ahead: every view follows
            for view in (page, tab):
                view.get_by_text("Queued: no run ahead of this one", exact=False).first.wait_for(timeout=30_000)
        finally:
            fresh.close()
        _cancel(backend, running)  # the worker is free: the page's run goes through
        page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=180_000)
        assert _status(backend, job_id)["status"] == "succeeded"
    finally:
        _cancel(backend, running, waiting)
        page.context.close()


def test_run_is_disabled_while_the_pages_run_is_active(one_worker: dict[str, str], browser) -> None:
    backend, frontend = one_worker["backend"], one_worker["frontend"]
    running = _toy_sleeper(backend)
    _until(lambda: _status(backend, running)["status"] == "running")
    page, job_id = _submit_on_page(browser, frontend)
    try:
        run = page.get_by_role("button", name="Run", exact=True).first
        assert _status(backend, job_id)["status"] == "queued"
        assert run.is_disabled(), "Run is enabled while this page's run is queued"
    finally:
        _cancel(backend, running, job_id)
        page.context.close()
