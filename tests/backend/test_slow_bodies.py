"""Issue 45, N4 and item 8: the model server bounds the time to receive a request body and the
connections one client address may hold, without nginx in front; `make run`'s front end listens on
loopback unless told otherwise."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from backend.serve import uvicorn_options
from backend.settings import Settings
from devtools.devstack import ROOT, free_port, wait_http

ATTACKERS = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
SLOW_HEAD = b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"


@pytest.fixture
def shared_server(tmp_path: Path) -> Iterator[tuple[str, int]]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=str(tmp_path), ACCESS_MODE="shared", PRELOAD_METHODS="false", OMP_NUM_THREADS="1",
               HEADER_TIMEOUT_S="3", BODY_TIMEOUT_S="2", RATE_LIMIT_PER_MINUTE="100000")
    process = subprocess.Popen([sys.executable, "-m", "backend.serve", "--port", str(port), "--log-level", "warning"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", process, timeout_s=240)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(20)


def _connect(server: tuple[str, int], source: str) -> socket.socket:
    return socket.create_connection(server, timeout=10, source_address=(source, 0))


def _answer(sock: socket.socket, timeout_s: float) -> bytes:
    sock.settimeout(timeout_s)
    try:
        return sock.recv(4096)
    except TimeoutError:
        return b"<still open>"
    except OSError:
        return b"<reset>"


def test_the_body_timeout_and_the_connection_cap_are_set_in_the_shared_mode() -> None:
    protocol = uvicorn_options(Settings(access_mode="shared"))["http"]
    assert protocol.body_timeout_s == 10.0 and protocol.per_address == 50 and "127.0.0.1" in protocol.trusted


@pytest.mark.parametrize("chunked", [False, True])
def test_a_trickled_body_is_cut_within_the_body_timeout(shared_server: tuple[str, int], chunked: bool) -> None:
    """A job's body sent one byte every 0.3 s (it would take minutes) holds its connection for at most
    BODY_TIMEOUT_S (2 s here): 408, then closed (a route that answers early is closed the same way)."""
    base = f"http://{shared_server[0]}:{shared_server[1]}"
    token = httpx.post(f"{base}/api/sessions", timeout=10).json()["token"]
    sock = _connect(shared_server, ATTACKERS[0])
    started = time.monotonic()
    closed_after = None
    try:
        head = SLOW_HEAD.replace(b"/api/sessions", b"/api/jobs").replace(  # a route that reads its body
            b"Content-Type", f"Authorization: Bearer {token}\r\nContent-Type".encode())
        head = head.replace(b"Content-Length: 1000", b"Transfer-Encoding: chunked") if chunked else head
        sock.sendall(head + (b"400\r\n" if chunked else b"") + b"{")
        for _ in range(40):
            time.sleep(0.3)
            try:
                sock.sendall(b" ")
            except OSError:
                closed_after = time.monotonic() - started
                break
            if _answer_then_close(sock):
                closed_after = time.monotonic() - started
                break
        assert closed_after is not None and closed_after < 5, f"still open after {time.monotonic() - started:.1f} s"
    finally:
        sock.close()
    whole = httpx.post(f"{base}/api/sessions", json={}, timeout=10)
    assert whole.status_code == 201, "a body that arrives is served as before"


def _answer_then_close(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (reading whatever answer came first)."""
    while True:
        data = _answer(sock, 0.01)
        if data == b"<still open>":
            return False
        if data in (b"", b"<reset>"):
            return True


@pytest.mark.slow
def test_1100_slow_bodies_leave_healthz_answering(shared_server: tuple[str, int]) -> None:
    """The red team's N4: 1,100 slow-body connections from 3 addresses held the server at 503 for 38 s.
    Now each address holds at most 50 connections and a body has 2 s: /healthz answers 200 throughout,
    each within 5 s."""
    held: list[socket.socket] = []
    url = f"http://{shared_server[0]}:{shared_server[1]}/healthz"
    try:
        for n in range(1100):
            try:
                sock = _connect(shared_server, ATTACKERS[n % 3])
                sock.sendall(SLOW_HEAD + b'{"a": 1')
                held.append(sock)
            except OSError:
                continue  # refused or closed at once: the cap
        probes = []
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                code = httpx.get(url, timeout=5).status_code
            except httpx.TimeoutException:
                code = 0
            probes.append((code, time.monotonic() - started))
            for sock in held[:60]:  # keep trickling, as the attacker does
                try:
                    sock.sendall(b" ")
                except OSError:
                    pass
            time.sleep(0.5)
        assert probes and all(code == 200 and seconds < 5 for code, seconds in probes), probes
    finally:
        for sock in held:
            sock.close()


def _make_dry_run(*variables: str) -> str:
    env = {key: value for key, value in os.environ.items() if key != "FRONTEND_ADDRESS"}
    return subprocess.run(["make", "-n", "run", *variables], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True).stdout


def test_make_run_starts_the_front_end_on_loopback_unless_told_otherwise() -> None:
    streamlit = [line for line in _make_dry_run().splitlines() if "streamlit run" in line]
    assert streamlit and all("--server.address 127.0.0.1" in line for line in streamlit), streamlit
    hosted = [line for line in _make_dry_run("FRONTEND_ADDRESS=0.0.0.0").splitlines() if "streamlit run" in line]
    assert all("--server.address 0.0.0.0" in line for line in hosted), hosted
