"""EXECUTOR=ray, one backend at a time against the local Ray head: shutdown and a killed backend."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest
from fastapi.testclient import TestClient

from backend.main import create_app
from db.jobs import INTERRUPTED_MESSAGE
from tests.backend.conftest import JOB_METHODS, ROOT, RayHead, job_settings, submit
from tests.conftest import free_port, wait_for

pytestmark = pytest.mark.slow


def test_shutdown_cancels_the_tasks_and_marks_them_interrupted(ray_head: RayHead, tmp_path: Path) -> None:
    settings = job_settings(tmp_path, executor="ray", ray_address=ray_head.address)
    with TestClient(create_app(settings)) as api:
        job_id = submit(api, behaviour="sleep", steps=1000, step_s=0.05)
        wait_for(api, job_id, {"running"}, 60)
    with TestClient(create_app(job_settings(tmp_path))) as api:
        job = api.get(f"/api/jobs/{job_id}").json()
    assert job["status"] == "failed" and job["error"] == "interrupted by a server shutdown"


def _task_workers(head: RayHead) -> list[psutil.Process]:
    """The head's worker processes currently running a job task (Ray titles them `ray::job-<id>`)."""
    found = []
    for process in psutil.Process(head.process.pid).children(recursive=True):
        try:
            if " ".join(process.cmdline()).startswith("ray::job-"):
                found.append(process)
        except psutil.Error:
            continue
    return found


def test_a_killed_backend_leaves_no_task_running_and_the_next_one_marks_it_interrupted(
        ray_head: RayHead, tmp_path: Path) -> None:
    """No re-attachment: Ray ends the tasks of a dead driver, and the lease decides the job's fate."""
    port = free_port()
    env = dict(os.environ, DATA_DIR=str(tmp_path), EXTRA_METHODS=JOB_METHODS, EXECUTOR="ray",
               RAY_ADDRESS=ray_head.address, JOB_LEASE_S="2", PRELOAD_METHODS="false", OMP_NUM_THREADS="1")
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--port", str(port),
                               "--log-level", "warning"], cwd=ROOT, env=env, start_new_session=True)
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
            "behaviour": "sleep", "steps": 1, "step_s": 30}}).json()["id"]
        while httpx.get(f"{url}/api/jobs/{job_id}").json()["status"] != "running":
            time.sleep(0.1)
        assert _task_workers(ray_head)
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 20
        while _task_workers(ray_head) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _task_workers(ray_head), "the task outlived the backend that owned it"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    time.sleep(2.5)  # the lease (2 s) expires
    with TestClient(create_app(job_settings(tmp_path, job_lease_s=2))) as api:
        job = api.get(f"/api/jobs/{job_id}").json()
    assert job["status"] == "failed" and job["error"] == INTERRUPTED_MESSAGE
