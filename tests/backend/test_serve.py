"""The server as `make run` and Docker start it (`python -m backend.serve`): bounded request heads in
the shared mode, and overload answered with 503 instead of dropped connections."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from uvicorn.protocols.http.h11_impl import H11Protocol

from backend.serve import uvicorn_options
from backend.settings import Settings
from db.session import make_engine, make_session_factory
from db.tables import Identity
from devtools.devstack import ROOT, free_port, running_backend, wait_http


def test_the_shared_mode_bounds_the_request_head_and_connections() -> None:
    shared = uvicorn_options(Settings(access_mode="shared"))
    assert issubclass(shared["http"], H11Protocol) and shared["h11_max_incomplete_event_size"] <= 64 * 1024
    assert shared["http"].max_bytes == 32 * 1024 and shared["http"].timeout_s == 10.0  # HEADER_TIMEOUT_S
    assert shared["limit_concurrency"] == 1000 and shared["timeout_keep_alive"] == 5
    assert shared["proxy_headers"] and shared["forwarded_allow_ips"] == "127.0.0.1"
    assert "http" not in uvicorn_options(Settings())  # a laptop keeps the faster default parser


@pytest.fixture
def shared_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=str(tmp_path), ACCESS_MODE="shared", PRELOAD_METHODS="false",
               LIMIT_CONCURRENCY="20", OMP_NUM_THREADS="1", HEADER_TIMEOUT_S="3")
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


def _answer(sock: socket.socket, timeout_s: float = 10.0) -> bytes:
    """What the server sends until it closes the connection (or `timeout_s` passes)."""
    sock.settimeout(timeout_s)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        pass
    except ConnectionResetError:
        received += b"<reset>"
    return received


@pytest.mark.slow
@pytest.mark.parametrize("size_kb", [20, 31, 33, 100])
def test_the_request_head_cap_is_32_kb_and_answers_431_however_the_head_arrives(shared_server: str,
                                                                              size_kb: int) -> None:
    """D9: a head sent in one piece used to be parsed whole up to about 126 KB (h11's limit bounds only
    an incomplete head) and larger ones got a TCP reset; now 32 KB holds and the refusal is a 431."""
    host, port = shared_server.split(":")
    head = (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Big: "
            + b"a" * (size_kb * 1024 - 80) + b"\r\n\r\n")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(head)
        answer = _answer(sock)
    if size_kb * 1024 <= 32 * 1024:
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    else:
        assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert httpx.get(f"http://{shared_server}/healthz", timeout=10).status_code == 200


@pytest.mark.slow
def test_idle_and_slow_connections_are_closed_by_the_server_itself(shared_server: str) -> None:
    """D6: a connection that sends nothing, or a head one byte at a time (slowloris), is closed after
    HEADER_TIMEOUT_S (3 s here) by the model server itself; a kept-alive connection between two
    requests is timed from the next request's first byte, not from its opening."""
    host, port = shared_server.split(":")
    idle = socket.create_connection((host, int(port)))
    slow = socket.create_connection((host, int(port)))
    kept: http.client.HTTPConnection | None = None
    started = time.monotonic()
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed_slow = None
        for _ in range(40):  # one header byte every 0.25 s: the head never completes
            try:
                slow.sendall(b"X")
            except OSError:
                closed_slow = time.monotonic() - started
                break
            time.sleep(0.25)
        assert closed_slow is not None or _answer(slow, 0.5).startswith(b"HTTP/1.1 408"), "slowloris held open"
        assert _answer(idle, 6.0) in (b"", b"<reset>"), "the idle connection got an answer"
        assert time.monotonic() - started < 12, "not closed within the header timeout"
        kept = http.client.HTTPConnection(host, int(port), timeout=10)
        kept.request("GET", "/healthz")
        assert kept.getresponse().read() and kept.sock is not None
        first = kept.sock
        time.sleep(4.0)  # idle between requests, under the 5 s keep-alive: the header clock is not running
        kept.request("GET", "/healthz")
        assert kept.getresponse().status == 200 and kept.sock is first, "a kept-alive connection was cut"
    finally:
        for sock in (idle, slow):
            sock.close()
        if kept is not None:
            kept.close()


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
