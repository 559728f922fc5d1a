"""The real stack (backend + Streamlit, started as `make run` does) and Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devtools.devstack import BROWSER_FLAGS, chromium_path, running_stack, wait_for_app
from tests.conftest import skip_or_fail

__all__ = ["wait_for_app"]


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The backend (embedded executor) and the Streamlit front end, as `make run` starts them."""
    with running_stack(tmp_path_factory.mktemp("e2e"), {"EXTRA_METHODS": "tests.toy_method"}) as stack:
        yield {"backend": stack.backend, "frontend": stack.frontend, "logs": str(stack.logs)}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        skip_or_fail("Chromium was not found (set CHROMIUM or install Debian's chromium)", "REQUIRE_BROWSER_TESTS")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("the playwright package is not installed", "REQUIRE_BROWSER_TESTS")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, args=BROWSER_FLAGS)
        yield instance
        instance.close()
