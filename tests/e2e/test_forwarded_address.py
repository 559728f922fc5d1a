"""Behind the reverse proxy, the model server sees each browser's address, not the front end's.

The proxy (docker/nginx.conf) sets X-Forwarded-For on every request to the front end, the WebSocket
upgrade included; Streamlit's server (uvicorn) trusts it from loopback (FORWARDED_ALLOW_IPS), so
`st.context.ip_address` is the browser's address, and the front end passes it on to the model server
with each call: per-address limits and the session record count people.

The proxy here is Debian's nginx with the shipped conf. All browsers of a test reach it from 127.0.0.1,
so the one edit to the conf stands in for distinct peers: the front-end location forwards a cookie's
value where it forwards `$remote_addr`. (A browser's own extra headers are no stand-in: Chromium does
not send them on the WebSocket upgrade, which is where Streamlit reads the address.)
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
from devtools.devstack import nginx_path, running_nginx, running_stack, wait_for_app
from tests.conftest import skip_or_fail

PEER = ("# The browser's address, which the front end passes on to the model server (per-address limits).\n"
        "        proxy_set_header X-Forwarded-For $remote_addr;")


@pytest.fixture(scope="module")
def proxied_stack() -> Iterator[tuple[str, Path]]:
    if nginx_path() is None:
        skip_or_fail("nginx is not installed here (apt-get install nginx-light); .ci/run installs it", "REQUIRE_NGINX")
    with tempfile.TemporaryDirectory() as folder, running_stack(Path(folder), {
            "ACCESS_MODE": "shared", "EXTRA_METHODS": "tests.toy_method", "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "ALLOWED_HOSTS": "backend,127.0.0.1"}) as stack:
        edits = {PEER: PEER.replace("$remote_addr", "$cookie_test_peer")}
        with running_nginx(Path(folder), stack.backend, stack.frontend, edits) as url:
            yield url, Path(folder)


def test_each_browser_address_reaches_the_model_server(browser: Any, proxied_stack: tuple[str, Path]) -> None:
    proxy, data_dir = proxied_stack
    addresses = ["198.51.100.11", "198.51.100.12"]
    for address in addresses:
        context = browser.new_context()
        context.add_cookies([{"name": "test_peer", "value": address, "url": proxy}])
        page = context.new_page()
        page.goto(proxy)
        wait_for_app(page)  # the first script run opens the session
        context.close()
    sessions = make_session_factory(make_engine(Settings(data_dir=data_dir).resolved_database_url))
    with sessions() as session:
        seen = sorted(session.scalars(select(Identity.client_address).where(Identity.kind == "anonymous")).all())
    assert seen == addresses, seen
