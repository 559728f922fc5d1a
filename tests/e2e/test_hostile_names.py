"""Issue 45, N1: a stranger's text reaches another person's browser as text, never as a request.

A shared-mode stack; one person submits runs whose free text (a molecule name, layout object names)
holds markdown images, links and an `<a>` that survives a one-pass filter; another browser, with no
token, opens their share links (and a crafted `?job=`). Every request the page makes is intercepted:
any request to a host other than the front end's is recorded and aborted, and the test asserts there
is none, that no <img>/<a> points at the attacker, and that the names read as typed.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import httpx
import pytest

from devtools.devstack import running_stack, wait_for_app

pytestmark = pytest.mark.e2e

EVIL = "127.0.0.9:18399"  # nothing listens there: a request would only leak the viewer's address
HOSTILE_NAME = f'![p](http://{EVIL}/s.png) <<a>a href="http://{EVIL}/t">v</a>'
TYPED_NAME = "Aspirin (test) [v2]!"  # what a person may legitimately type: shown as typed
HOSTILE_OBJECTS = [f"![p](http://{EVIL}/l.png)", f"[verify](http://{EVIL}/v)"]
HOSTILE_JOB = f"a` ![x](http://{EVIL}/r) `b"


@pytest.fixture(scope="module")
def shared_stack() -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory() as folder, running_stack(Path(folder), {"ACCESS_MODE": "shared"}) as stack:
        yield {"backend": stack.backend, "frontend": stack.frontend}


def _run_and_share(backend: str, method: str, params: dict[str, Any]) -> str:
    with httpx.Client(base_url=backend, timeout=30) as api:
        token = api.post("/api/sessions").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        created = api.post("/api/jobs", json={"method": method, "params": params}, headers=auth)
        assert created.status_code == 202, created.text  # hostile text is accepted: it is shown safely
        job_id = created.json()["id"]
        deadline = time.monotonic() + 240
        while (status := api.get(f"/api/jobs/{job_id}?view=status", headers=auth).json()["status"]) in ("queued",
                                                                                                      "running"):
            assert time.monotonic() < deadline, "the run did not finish"
            time.sleep(0.5)
        assert status == "succeeded", status
        return str(api.post(f"/api/jobs/{job_id}/share", headers=auth).json()["link"])


def _open(browser: Any, frontend: str, path: str, wait_text: str) -> tuple[list[str], Any, Any]:
    """Open `path` in a fresh context; returns (requests to other hosts, page, context)."""
    home = urlsplit(frontend).netloc
    foreign: list[str] = []
    context = browser.new_context(viewport={"width": 1400, "height": 2400})

    def route(request_route: Any) -> None:
        if urlsplit(request_route.request.url).netloc != home:
            foreign.append(request_route.request.url)
            request_route.abort()
        else:
            request_route.continue_()

    context.route("**/*", route)
    page = context.new_page()
    page.goto(frontend + path)
    wait_for_app(page)
    page.get_by_text(wait_text, exact=False).first.wait_for(timeout=120_000)
    wait_for_app(page)
    page.wait_for_timeout(1500)  # images and plotly figures load after the script run ends
    return foreign, page, context


def _attacker_elements(page: Any) -> int:
    return int(page.evaluate(f"""() => [...document.querySelectorAll('img, a, image')].filter(e =>
        ((e.getAttribute('src') || '') + (e.getAttribute('href') || '') + (e.getAttribute('xlink:href') || ''))
        .includes('{EVIL}')).length"""))


def _shown(page: Any) -> str:
    return str(page.inner_text("body")).replace("\u2060", "")


def test_hostile_molecule_names_make_no_request_and_read_as_typed(browser: Any,
                                                                 shared_stack: dict[str, str]) -> None:
    base = {"predictor": "additive", "budget": 40, "compare_baselines": False, "error_curve": False}
    for name in (HOSTILE_NAME, TYPED_NAME):
        link = _run_and_share(shared_stack["backend"], "shapley_graph", {**base, "name": name})
        foreign, page, context = _open(browser, shared_stack["frontend"], f"/shapley_graph?share={link}",
                                       "A shared, read-only run")
        try:
            assert foreign == [], foreign
            assert _attacker_elements(page) == 0
            assert name in _shown(page), f"{name!r} is not shown as typed"
        finally:
            context.close()


def test_hostile_layout_objects_make_no_request(browser: Any, shared_stack: dict[str, str]) -> None:
    a, b = HOSTILE_OBJECTS
    scene = {"room": {"width": 4.0, "depth": 4.0, "height": 2.7},
             "objects": [{"name": a, "width": 0.5, "depth": 0.5, "height": 0.5},
                         {"name": b, "width": 0.5, "depth": 0.5, "height": 0.5}],
             "relations": [{"type": "left_of", "a": a, "b": b}, {"type": "right_of", "a": a, "b": b}]}
    link = _run_and_share(shared_stack["backend"], "layout", {"scene": scene, "milp": "off"})
    foreign, page, context = _open(browser, shared_stack["frontend"], f"/layout?share={link}",
                                   "A shared, read-only run")
    try:
        assert foreign == [], foreign
        assert _attacker_elements(page) == 0
        assert a in _shown(page) and b in _shown(page), "the object names are shown as typed"
    finally:
        context.close()


def test_a_crafted_job_link_is_not_echoed(browser: Any, shared_stack: dict[str, str]) -> None:
    foreign, page, context = _open(browser, shared_stack["frontend"], f"/layout?job={quote(HOSTILE_JOB)}",
                                   "There is no run with this link")
    try:
        assert foreign == [], foreign
        assert _attacker_elements(page) == 0
        assert EVIL not in _shown(page)
    finally:
        context.close()
