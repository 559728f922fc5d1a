"""The real stack (backend + Streamlit, started as `make run` does) and Debian's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from backend.devstack import BROWSER_FLAGS, chromium_path, running_stack, wait_for_app

__all__ = ["wait_for_app"]


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("REQUIRE_BROWSER_TESTS"):
        pytest.fail(f"browser tests are required here but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The backend (embedded executor) and the Streamlit front end, as `make run` starts them."""
    with running_stack(tmp_path_factory.mktemp("e2e"), {"EXTRA_METHODS": "tests.toy_method"}) as stack:
        yield {"backend": stack.backend, "frontend": stack.frontend, "logs": str(stack.logs)}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        _skip_or_fail("Chromium was not found (set CHROMIUM or install Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("the playwright package is not installed")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=path, args=BROWSER_FLAGS)
        yield instance
        instance.close()
