"""The run panel on a shared instance: a session token is fetched once, runs are private, share links
render read-only, and the admin page needs an admin token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.pagetools import click_run
from tests.conftest import ROOT, make_settings, served

TOY_PAGE = str(Path(__file__).with_name("toy_page.py"))


@pytest.fixture(scope="module")
def shared_backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = make_settings(tmp_path_factory.mktemp("shared"), executor="inline", access_mode="shared")
    with served(settings) as url:
        yield url


def _run(at: AppTest, steps: int) -> str:
    at.slider(key="toy.steps").set_value(steps)
    click_run(at)
    assert not at.exception
    return str(at.session_state["job:toy"])


def test_each_browser_session_gets_a_token_and_sees_only_its_runs(shared_backend: str) -> None:
    first = AppTest.from_file(TOY_PAGE, default_timeout=60)
    first.run()
    assert not first.exception
    token = first.session_state["api_token"]
    job_id = _run(first, 4)
    assert [s.value for s in first.success] == ["**Even**: the sum is 10"]
    assert first.session_state["api_token"] == token, "one token per browser session"
    second = AppTest.from_file(TOY_PAGE, default_timeout=60)
    second.run()
    assert second.session_state["api_token"] != token
    second.query_params["job"] = job_id
    second.run()
    assert "There is no run" in second.warning[0].value, "another session's run is not visible"
    mine = httpx.get(f"{shared_backend}/api/jobs", headers={"Authorization": f"Bearer {token}"}).json()
    assert [row["id"] for row in mine["data"]] == [job_id]


def test_a_share_link_renders_the_run_read_only(shared_backend: str) -> None:
    owner = AppTest.from_file(TOY_PAGE, default_timeout=60)
    owner.run()
    job_id = _run(owner, 2)
    headers = {"Authorization": f"Bearer {owner.session_state['api_token']}"}
    link = httpx.post(f"{shared_backend}/api/jobs/{job_id}/share", headers=headers).json()["link"]
    viewer = AppTest.from_file(TOY_PAGE, default_timeout=60)
    viewer.query_params["share"] = link
    viewer.run()
    assert not viewer.exception
    assert [e.value for e in viewer.error] == ["**Odd**: the sum is 3"]
    assert not [b for b in viewer.button if b.label == "Run"], "a shared view has no controls"
    assert [d.label for d in viewer.get("download_button")] == ["⬇ result.json", "⬇ steps.csv", "⬇ export.zip"]


def test_the_admin_page_needs_an_admin_token(shared_backend: str) -> None:
    page = str(ROOT / "app" / "views" / "admin.py")
    at = AppTest.from_file(page, default_timeout=60)
    at.run()
    assert "needs an admin token" in at.error[0].value
