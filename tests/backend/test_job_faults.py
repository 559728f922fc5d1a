"""The faults a red-team run found, one test each: a locked database, a second server on the same
data, a killed server, and leases that decide which jobs recovery may touch."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import httpx
import psutil
import pytest
from fastapi.testclient import TestClient

from backend.jobs.store import JobStore
from backend.main import create_app
from db.jobs import INTERRUPTED_MESSAGE, JobRepository, JobStatus
from db.session import make_engine, make_session_factory, upgrade_to_head
from db.tables import Job, utcnow
from tests.backend.conftest import JOB_METHODS, ROOT, job_settings, submit
from tests.conftest import free_port, wait_for

END = {"succeeded", "failed", "cancelled", "timed_out"}


def test_a_locked_database_answers_503_and_no_job_gets_stuck(tmp_path: Path) -> None:
    """Another process holds the SQLite write lock past the busy timeout (5 s): submitting answers
    503 with Retry-After instead of 500, the running job's progress and final writes are retried,
    it ends succeeded with its result, and cancel works afterwards."""
    settings = job_settings(tmp_path)
    with TestClient(create_app(settings)) as api:
        job_id = submit(api, behaviour="sleep", steps=30, step_s=0.1)
        wait_for(api, job_id, {"running"})
        blocker = sqlite3.connect(settings.data_dir / "playground.db", timeout=0, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            locked_at = time.monotonic()
            response = api.post("/api/jobs", json={"method": "endings", "params": {}})
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"] == "2"
            assert "busy" in response.json()["detail"]
            time.sleep(max(0.0, 7.0 - (time.monotonic() - locked_at)))  # the job ends while the lock is held
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        job = wait_for(api, job_id, END, 60)
        assert job["status"] == "succeeded", job["error"]
        assert job["result"]["steps_done"] == 30
        second = submit(api, behaviour="sleep", steps=1000, step_s=0.05)
        wait_for(api, second, {"running"})
        assert api.delete(f"/api/jobs/{second}").status_code == 200
        assert wait_for(api, second, END, 30)["status"] == "cancelled"


def test_a_second_server_on_the_same_data_leaves_the_first_ones_job_alone(tmp_path: Path) -> None:
    settings = job_settings(tmp_path)
    with TestClient(create_app(settings)) as first:
        job_id = submit(first, behaviour="sleep", steps=200, step_s=0.05)
        wait_for(first, job_id, {"running"})
        with TestClient(create_app(settings)) as second:
            seen = second.get(f"/api/jobs/{job_id}").json()
            assert seen["status"] == "running", seen
        job = wait_for(first, job_id, END, 60)
        assert job["status"] == "succeeded", job["error"]
        assert job["result"]["steps_done"] == 200


def _lease_db(tmp_path: Path) -> JobStore:
    url = f"sqlite:///{tmp_path / 'lease.db'}"
    upgrade_to_head(url)
    return JobStore(make_session_factory(make_engine(url)), instance_id="me")


def test_recovery_marks_only_jobs_whose_lease_expired(tmp_path: Path) -> None:
    """Running jobs of a gone server fail; its claimed, unstarted jobs go back to the queue; unclaimed
    queued jobs (however old) and a live server's jobs are left alone."""
    store = _lease_db(tmp_path)
    stale = utcnow() - timedelta(seconds=31)
    with store._sessions.begin() as session:
        repo = JobRepository(session)
        ids = {name: repo.create("toy", {}).id
               for name in ("fresh", "stale", "queued_old", "queued_new", "claimed_stale", "claimed_fresh")}
        for name in ("fresh", "stale"):
            repo.mark_running(ids[name], "other-server")
        session.get(Job, ids["stale"]).heartbeat_at = stale  # type: ignore[union-attr]
        session.get(Job, ids["queued_old"]).created_at = stale  # type: ignore[union-attr]
        for name in ("claimed_stale", "claimed_fresh"):
            session.get(Job, ids[name]).lease_owner = "other-server"  # type: ignore[union-attr]
            session.get(Job, ids[name]).heartbeat_at = stale if name == "claimed_stale" else utcnow()  # type: ignore[union-attr]
    assert store.reap_expired(lease_s=30) == 1
    with store._sessions() as session:
        jobs = {name: session.get(Job, job_id) for name, job_id in ids.items()}
        status = {name: job.status for name, job in jobs.items()}  # type: ignore[union-attr]
        owner = {name: job.lease_owner for name, job in jobs.items()}  # type: ignore[union-attr]
        assert jobs["stale"].error == INTERRUPTED_MESSAGE  # type: ignore[union-attr]
    assert status == {"fresh": "running", "stale": "failed", "queued_old": "queued", "queued_new": "queued",
                      "claimed_stale": "queued", "claimed_fresh": "queued"}
    assert owner["claimed_stale"] is None and owner["claimed_fresh"] == "other-server"


def test_a_heartbeat_keeps_a_held_job_and_a_dropped_job_expires(tmp_path: Path) -> None:
    store = _lease_db(tmp_path)
    with store._sessions.begin() as session:
        repo = JobRepository(session)
        held, dropped = repo.create("toy", {}).id, repo.create("toy", {}).id
        for job_id in (held, dropped):
            repo.mark_running(job_id, "me")
            session.get(Job, job_id).heartbeat_at = utcnow() - timedelta(seconds=60)  # type: ignore[union-attr]
    store.heartbeat("me", [held])
    assert store.reap_expired(lease_s=30) == 1
    with store._sessions() as session:
        assert session.get(Job, held).status == JobStatus.RUNNING  # type: ignore[union-attr]
        assert session.get(Job, held).lease_owner == "me"  # type: ignore[union-attr]
        assert session.get(Job, dropped).status == JobStatus.FAILED  # type: ignore[union-attr]


def test_a_late_finish_changes_nothing_and_stores_no_artifacts(tmp_path: Path) -> None:
    store = _lease_db(tmp_path)
    with store._sessions.begin() as session:
        repo = JobRepository(session)
        job_id = repo.create("toy", {}).id
        repo.cancel(job_id)
        assert not repo.finish(job_id, JobStatus.SUCCEEDED, result={"x": 1}, artifacts={"a.csv": ("text/csv", b"1")})
    with store._sessions() as session:
        assert session.get(Job, job_id).status == JobStatus.CANCELLED  # type: ignore[union-attr]
        assert JobRepository(session).artifact_names(job_id) == []
    with pytest.raises(ValueError, match="terminal status"):
        with store._sessions.begin() as session:
            JobRepository(session).finish(job_id, JobStatus.RUNNING)


@pytest.mark.slow
def test_job_processes_die_with_a_killed_server(tmp_path: Path) -> None:
    """kill -9 of the server: its forkserver exits, and the job processes get SIGKILL with it
    (PR_SET_PDEATHSIG) instead of running on without anybody enforcing their time limit. The job is
    inside one long step, so it does not notice the broken pipe by reporting progress."""
    port = free_port()
    env = dict(os.environ, DATA_DIR=str(tmp_path), EXTRA_METHODS=JOB_METHODS, PRELOAD_METHODS="false",
               WARM_WORKERS="1", MAX_WORKERS="2", OMP_NUM_THREADS="1")
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--port", str(port),
                               "--log-level", "warning"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        job_id = httpx.post(url + "/api/jobs", json={"method": "endings", "params": {
            "behaviour": "sleep", "steps": 1, "step_s": 30}}).json()["id"]  # no progress call to fail on
        while httpx.get(f"{url}/api/jobs/{job_id}").json()["status"] != "running":
            time.sleep(0.1)
        time.sleep(0.5)
        descendants = psutil.Process(server.pid).children(recursive=True)
        assert len(descendants) >= 3  # resource tracker, forkserver, the job, a warm spare
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        gone, alive = psutil.wait_procs(descendants, timeout=5)
        assert not alive, [(p.pid, p.cmdline()[-1][:80]) for p in alive]
    finally:
        if server.poll() is None:
            server.kill()
