"""The server as `make run` and Docker start it (`python -m backend.serve`): bounded request heads in
the shared mode, and overload answered with 503 instead of dropped connections."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from backend.devstack import ROOT, free_port, running_backend, wait_http
from backend.serve import uvicorn_options
from backend.settings import Settings
from db.session import make_engine, make_session_factory
from db.tables import Identity


def test_the_shared_mode_bounds_the_request_head_and_connections() -> None:
    shared = uvicorn_options(Settings(access_mode="shared"))
    assert shared["http"] == "h11" and shared["h11_max_incomplete_event_size"] <= 64 * 1024
    assert shared["limit_concurrency"] == 1000 and shared["timeout_keep_alive"] == 5
    assert shared["proxy_headers"] and shared["forwarded_allow_ips"] == "127.0.0.1"
    assert "http" not in uvicorn_options(Settings())  # a laptop keeps the faster default parser


@pytest.fixture
def shared_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=str(tmp_path), ACCESS_MODE="shared", PRELOAD_METHODS="false",
               LIMIT_CONCURRENCY="20", OMP_NUM_THREADS="1")
    process = subprocess.Popen([sys.executable, "-m", "backend.serve", "--port", str(port), "--log-level", "warning"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", process, timeout_s=240)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)


@pytest.mark.slow
def test_a_huge_request_header_is_refused_and_the_server_lives_on(shared_server: str) -> None:
    host, port = shared_server.split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        sent = 0
        with pytest.raises(OSError):  # the server closes the connection long before 100 MB
            for _ in range(100):
                sock.sendall(b"a" * 2**20)
                sent += 1
            sock.sendall(b"\r\n\r\n")
            sock.settimeout(10)
            answer = sock.recv(64)
            if not answer or not answer.startswith(b"HTTP/1.1 200"):
                raise ConnectionResetError(f"refused after {sent} MB: {answer!r}")
        assert sent < 10, f"{sent} MB of header were read"
    assert httpx.get(f"http://{shared_server}/healthz").status_code == 200


@pytest.mark.slow
def test_idle_connections_past_the_limit_get_503_not_silence(shared_server: str) -> None:
    host, port = shared_server.split(":")
    idle = [socket.create_connection((host, int(port))) for _ in range(40)]
    try:
        for sock in idle:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # a head that never ends
        response = httpx.get(f"http://{shared_server}/healthz", timeout=10)
        assert response.status_code == 503, "over the limit the server answers 503 (the proxy adds timeouts)"
    finally:
        for sock in idle:
            sock.close()
    assert httpx.get(f"http://{shared_server}/healthz", timeout=10).status_code == 200


def test_address_limits_trust_only_the_proxy_and_count_each_forwarded_address(tmp_path: Path) -> None:
    """Behind the proxy (a trusted peer, 127.0.0.1) each browser address has its own request budget;
    another peer (127.0.0.2) cannot escape its budget by sending X-Forwarded-For itself."""
    env = {"ACCESS_MODE": "shared", "RATE_LIMIT_PER_MINUTE": "4", "FORWARDED_ALLOW_IPS": "127.0.0.1",
           "PRELOAD_METHODS": "false"}
    with running_backend(tmp_path, env) as url:
        proxy = httpx.Client(base_url=url, timeout=10)
        spoofer = httpx.Client(base_url=url, timeout=10,
                               transport=httpx.HTTPTransport(local_address="127.0.0.2"))

        def codes(client: httpx.Client, forwarded: list[str]) -> list[int]:
            return [client.get("/api/methods", headers={"X-Forwarded-For": address}).status_code
                    for address in forwarded]

        assert codes(proxy, ["198.51.100.1"] * 5) == [200] * 4 + [429]
        assert codes(proxy, ["198.51.100.2"] * 4) == [200] * 4, "one browser's budget was spent by another"
        assert codes(spoofer, [f"203.0.113.{n}" for n in range(5)]) == [200] * 4 + [429], \
            "an untrusted peer escaped its budget with X-Forwarded-For"
        assert proxy.post("/api/sessions", headers={"X-Forwarded-For": "198.51.100.3"}).status_code == 201
    with make_session_factory(make_engine(Settings(data_dir=tmp_path).resolved_database_url))() as session:
        assert session.scalars(select(Identity.client_address)).all() == ["198.51.100.3"]
