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

from backend.devstack import ROOT, free_port, wait_http
from backend.serve import uvicorn_options
from backend.settings import Settings


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
