"""Behind the reverse proxy, the model server sees each browser's address, not the front end's.

The proxy (docker/nginx.conf) adds X-Forwarded-For to the browser's requests; Streamlit's server
trusts it from loopback (uvicorn's FORWARDED_ALLOW_IPS), and the front end passes the address on to
the model server with each call, so per-address limits and the session record count people. Here
each browser context sends the header the proxy would add.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from backend.settings import Settings
from db.session import make_engine, make_session_factory
from db.tables import Identity
from devtools.devstack import running_stack, wait_for_app


@pytest.fixture(scope="module")
def shared_stack() -> Iterator[tuple[str, Path]]:
    with tempfile.TemporaryDirectory() as folder, running_stack(Path(folder), {
            "ACCESS_MODE": "shared", "EXTRA_METHODS": "tests.toy_method", "FORWARDED_ALLOW_IPS": "127.0.0.1"}) as stack:
        yield stack.frontend, Path(folder)


@pytest.mark.xfail(reason="open (see the 2026-12-06 note): with Streamlit 1.67 (Starlette server, what `make install` "
                   "resolves today) st.context.ip_address is read from the WebSocket connection, and the two "
                   "sessions were recorded as 127.0.0.1; not yet known whether the browser's X-Forwarded-For "
                   "reaches the WebSocket upgrade (a test artefact) or the front end no longer sees proxied "
                   "addresses (a product bug behind nginx)", strict=False)
def test_each_browser_address_reaches_the_model_server(browser: Any, shared_stack: tuple[str, Path]) -> None:
    frontend, data_dir = shared_stack
    addresses = ["198.51.100.11", "198.51.100.12"]
    for address in addresses:
        context = browser.new_context(extra_http_headers={"X-Forwarded-For": address})
        page = context.new_page()
        page.goto(frontend)
        wait_for_app(page)  # the first script run opens the session
        context.close()
    sessions = make_session_factory(make_engine(Settings(data_dir=data_dir).resolved_database_url))
    with sessions() as session:
        seen = sorted(session.scalars(select(Identity.client_address).where(Identity.kind == "anonymous")).all())
    assert seen == addresses, seen
