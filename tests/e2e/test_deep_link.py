"""A stranger's first request to a freshly started front end may be a deep link (`/hedp`): it must go
through app/main.py (the navigation titled from the API, the narrow-screen style, "No such page") and
not be served by Streamlit from a `pages/` folder beside the entry script, which it does for such a
folder until the root has been opened once. The page files live in `app/views/` for that reason."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devtools.devstack import ROOT, running_stack
from tests.e2e.conftest import wait_for_app

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fresh_frontend() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder, running_stack(Path(folder)) as stack:
        yield stack.frontend  # nobody has opened its root


def test_no_pages_folder_beside_the_entry_script() -> None:
    assert not (ROOT / "app" / "pages").exists(), "Streamlit serves app/pages/ itself, bypassing app/main.py"


def test_a_first_deep_link_goes_through_the_entry_script(browser: Any, fresh_frontend: str) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(f"{fresh_frontend}/hedp")
        wait_for_app(page)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "HEDP prompts" in nav, f"the sidebar is not app/main.py's navigation: {nav[:300]!r}"
        assert "hybrid energy-distance prompts" in page.locator('[data-testid="stMain"]').inner_text()
    finally:
        page.close()
