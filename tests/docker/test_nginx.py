"""docker/nginx.conf, the reverse proxy of the hosted instance, run by Debian's nginx on loopback.

The conf is used as shipped, with only its upstream names and listen port pointed at loopback. In
front of a shared-mode model server it must: give each client address its own request budget (the
address is the TCP peer; a client's own X-Forwarded-For is replaced, not trusted), and refuse an
oversized body or request head before the model server sees it.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from devtools.devstack import nginx_path, running_backend, running_nginx
from tests.conftest import skip_or_fail


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """nginx with docker/nginx.conf in front of `python -m backend.serve` (shared mode, 4 requests a
    minute per address, trusting X-Forwarded-For from the proxy on 127.0.0.1 only)."""
    if nginx_path() is None:
        skip_or_fail("nginx is not installed here (apt-get install nginx-light); .ci/run installs it", "REQUIRE_NGINX")
    folder = tmp_path_factory.mktemp("proxy")
    env = {"ACCESS_MODE": "shared", "RATE_LIMIT_PER_MINUTE": "4", "FORWARDED_ALLOW_IPS": "127.0.0.1",
           "ALLOWED_HOSTS": "backend,127.0.0.1", "PRELOAD_METHODS": "false"}
    with running_backend(folder, env) as backend, running_nginx(folder, backend, "http://127.0.0.1:9") as url:
        yield url  # waiting for it spent one of 127.0.0.1's requests


def _client(url: str, source: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=10, transport=httpx.HTTPTransport(local_address=source))


def test_each_client_address_has_its_own_budget_and_cannot_forge_another(proxied: str) -> None:
    first, second, forger = (_client(proxied, f"127.0.0.{n}") for n in (2, 3, 4))
    assert [first.get("/api/methods").status_code for _ in range(5)] == [200] * 4 + [429]
    assert [second.get("/api/methods").status_code for _ in range(4)] == [200] * 4
    forged = [forger.get("/api/methods", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
              for n in range(5)]
    assert forged == [200] * 4 + [429], "a client escaped its budget by sending X-Forwarded-For"


def test_oversized_bodies_and_heads_stop_at_the_proxy(proxied: str) -> None:
    client = _client(proxied, "127.0.0.5")
    body = client.post("/api/jobs", content=b"x" * (3 * 2**20), headers={"Content-Type": "application/json"})
    assert body.status_code == 413
    head = client.get("/api/methods", headers={"X-Padding": "y" * (20 * 1024)})
    assert head.status_code in (400, 494), head.status_code
