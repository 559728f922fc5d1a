"""A shared-mode model server for load tests: registered users' tokens, and the server started as `make run`
and Docker start it (`python -m backend.serve`) in its own process group, stopped through that group."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from db.identities import IdentityRepository
from db.session import make_engine, make_session_factory, upgrade_to_head
from devtools.devstack import free_port, wait_http

__all__ = ["make_tokens", "start_server", "stop_server"]

ROOT = Path(__file__).resolve().parent.parent


def make_tokens(url: str, users: int) -> list[str]:
    upgrade_to_head(url)
    engine = make_engine(url)
    with make_session_factory(engine).begin() as session:
        repo = IdentityRepository(session)
        tokens = [repo.create(f"user{index}", "user")[1] for index in range(users)]
    engine.dispose()
    return tokens


def start_server(data_dir: str, database_url: str) -> tuple[subprocess.Popen[bytes], str, Any]:
    """`python -m backend.serve` in its own process group (stopped by stop_server through that group)."""
    port = free_port()
    env = dict(os.environ, DATA_DIR=data_dir, DATABASE_URL=database_url, EXTRA_METHODS="tests.toy_method",
               ACCESS_MODE="shared", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PRELOAD_METHODS="false")
    log = open(Path(data_dir) / "server.log", "wb")  # noqa: SIM115 - closed by stop_server
    process = subprocess.Popen([sys.executable, "-m", "backend.serve", "--host", "127.0.0.1", "--port", str(port),
                                "--log-level", "warning"], cwd=ROOT, env=env, stdout=log, stderr=log,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/healthz", process, timeout_s=240)
    except BaseException:
        stop_server(process, log)
        raise
    return process, url, log


def stop_server(process: subprocess.Popen[bytes], log: Any) -> None:
    """SIGTERM to the server's own process group (server, forkserver, job processes), SIGKILL after 30 s."""
    group = process.pid  # start_new_session: the group id is the server's pid
    try:
        os.killpg(group, signal.SIGTERM)
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(group, signal.SIGKILL)
        process.wait(10)
    except ProcessLookupError:
        pass
    try:  # leftovers of the group (job processes that outlived the server)
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass
    log.close()
