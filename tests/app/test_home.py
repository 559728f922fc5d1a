"""AppTest of the home page against a live backend, and with the backend down."""

from __future__ import annotations

import os

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import free_port, page_file


def test_home_lists_methods_with_citations(live_backend: str) -> None:
    at = AppTest.from_file(page_file("home"), default_timeout=60)
    at.run()
    assert not at.exception
    assert "Tests" in [h.value for h in at.subheader]  # one heading per section
    assert any("Toy method (tests)" in m.value for m in at.markdown), "a card per method"
    assert any("A toy (ICML 2026)" in c.value for c in at.caption)
    assert not at.error


def test_home_shows_a_banner_when_the_backend_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(os.environ, "BACKEND_URL", f"http://127.0.0.1:{free_port()}")
    at = AppTest.from_file(page_file("home"), default_timeout=60)
    at.run()
    assert not at.exception
    assert at.error and "model server is not reachable" in at.error[0].value
