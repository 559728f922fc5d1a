"""Executor test helpers: settings with the test-only job methods, and a local Ray head on loopback."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.settings import Settings
from devtools.postgres import PostgresCluster, pg_bin, postgres_cluster
from tests.conftest import STORE, free_port, make_settings, skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
JOB_METHODS = "tests.toy_method,tests.backend.job_methods,tests.backend.gpu_method"


# The modules whose tests run twice, on SQLite and on PostgreSQL (the job store's whole API surface).
STORE_MODULES = {"test_jobs_lifecycle", "test_hosting", "test_api_errors", "test_claims", "test_admission",
                 "test_store_faults", "test_tables_example"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store" in metafunc.fixturenames and metafunc.module.__name__.rsplit(".", 1)[-1] in STORE_MODULES:
        metafunc.parametrize("store", ["sqlite", "postgres"], indirect=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster | None]:
    """One PostgreSQL cluster for the session (None when Debian's postgresql is not installed)."""
    if pg_bin() is None:
        yield None
        return
    # Not under pytest's temp dir: that one is private to this user, and the server runs as `postgres`.
    base = Path(tempfile.mkdtemp(prefix="playground-pg-"))
    try:
        with postgres_cluster(base) as cluster:
            yield cluster
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(autouse=True)
def store(request: pytest.FixtureRequest) -> Iterator[str]:
    """The job store of this test: SQLite (a file under the test's data dir) or a fresh Postgres database."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield kind
        return
    cluster = request.getfixturevalue("pg_cluster")
    if cluster is None:
        reason = "PostgreSQL is not installed here (apt-get install postgresql); .ci/run installs it"
        skip_or_fail(reason, "REQUIRE_POSTGRES")
    STORE["url"] = cluster.create_database()
    try:
        yield kind
    finally:
        STORE["url"] = ""


def job_settings(data_dir: Path, **overrides: Any) -> Settings:
    """make_settings plus the `endings` and `gpu_toy` test methods."""
    return make_settings(data_dir, **{"extra_methods": JOB_METHODS, **overrides})


def submit(api: TestClient, method: str = "endings", **params: object) -> str:
    response = api.post("/api/jobs", json={"method": method, "params": params})
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


class RayHead:
    """A `ray start --head --block` process group on loopback with its own temp dir."""

    def __init__(self, tmp: Path, num_cpus: int = 2) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", RAY_USAGE_STATS_ENABLED="0")
        ray = str(Path(sys.executable).with_name("ray"))
        # The temp dir must stay short: Ray puts unix sockets under it (108-byte path limit).
        self.temp_dir = Path("/tmp") / f"rayt{self.port}"
        self.log = open(tmp / "ray-head.log", "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [ray, "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(self.port),
             "--num-cpus", str(num_cpus), "--num-gpus", "0", "--include-dashboard=false",
             "--temp-dir", str(self.temp_dir), "--disable-usage-stats"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout_s: float = 90) -> None:
        deadline = time.monotonic() + timeout_s
        log_path = Path(self.log.name)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"ray start exited: {log_path.read_text()[-2000:]}")
            if "Ray runtime started" in log_path.read_text():
                return
            time.sleep(0.2)
        raise RuntimeError(f"the Ray head did not start in {timeout_s} s")

    def stop(self) -> None:
        """Kill the head's whole process group (workers die with their raylet)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)
        self.log.close()
        subprocess.run(["rm", "-rf", str(self.temp_dir)], check=False)


@pytest.fixture(scope="session")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayHead]:
    head = RayHead(tmp_path_factory.mktemp("ray"))
    try:
        head.wait_ready()
        yield head
    finally:
        head.stop()
