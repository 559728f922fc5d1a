"""EXECUTOR=ray against a local Ray head on loopback: the job lifecycle through the API, every
ending, health, start-up errors, and a backend killed while its task runs."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.jobs.ray.executor import RayUnavailable
from backend.main import create_app
from tests.backend.conftest import RayHead, job_settings, submit
from tests.conftest import free_port, wait_for

pytestmark = pytest.mark.slow
END = {"succeeded", "failed", "cancelled", "timed_out"}


@pytest.fixture(scope="module")
def ray_api(ray_head: RayHead, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = job_settings(tmp_path_factory.mktemp("ray-api"), executor="ray", ray_address=ray_head.address,
                            job_timeout_s=5, job_memory_mb=300)
    with TestClient(create_app(settings)) as client:
        # A cold Ray worker's first task pays for imports and first-use costs (seconds on a busy CI
        # machine), which would eat into the 5 s limit of the tests below; warm the workers first.
        for job_id in [submit(client, steps=2) for _ in range(2)]:
            wait_for(client, job_id, END, 120)
        yield client


def follow(api: TestClient, job_id: str, timeout_s: float = 60) -> tuple[dict[str, Any], list[float]]:
    """Poll the status view until the job ends; the progress values seen on the way and the full job."""
    seen: list[float] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = api.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()
        seen.append(job["progress"])
        if job["status"] in END:
            return api.get(f"/api/jobs/{job_id}").json(), seen
        time.sleep(0.03)
    raise AssertionError(f"job {job_id} did not end; last: {job}")


def test_a_job_succeeds_with_progress_and_artifacts(ray_api: TestClient) -> None:
    job, seen = follow(ray_api, submit(ray_api, behaviour="sleep", steps=20, step_s=0.1))
    assert job["status"] == "succeeded", job["error"]
    assert any(0 < p < 1 for p in seen), seen
    assert job["progress"] == 1.0 and job["result"]["steps_done"] == 20
    assert job["artifacts"] == ["result.json", "steps.csv"]
    assert ray_api.get(f"/api/jobs/{job['id']}/artifacts/steps.csv").text.splitlines()[:2] == ["step", "0"]
    assert job["result"]["pid"] != os.getpid()  # it ran on a Ray worker


def test_a_method_error_fails_the_job_with_its_message(ray_api: TestClient) -> None:
    job, _ = follow(ray_api, submit(ray_api, "toy", behaviour="fail"))
    assert job["status"] == "failed"
    assert job["error"] == "behaviour 'fail' asks for a failure: this message is for the user"


def test_the_time_limit_stops_the_task(ray_api: TestClient) -> None:
    job, _ = follow(ray_api, submit(ray_api, behaviour="sleep", steps=1000, step_s=0.05))
    assert job["status"] == "timed_out"
    assert job["error"] == "the job ran past its time limit of 5 s and was stopped"


def test_cancel_stops_a_running_task(ray_api: TestClient) -> None:
    job_id = submit(ray_api, behaviour="sleep", steps=1000, step_s=0.05)
    wait_for(ray_api, job_id, {"running"}, 60)
    asked = time.monotonic()
    assert ray_api.delete(f"/api/jobs/{job_id}").status_code == 200
    job = wait_for(ray_api, job_id, END, 30)
    assert job["status"] == "cancelled" and time.monotonic() - asked < 5


def test_a_killed_worker_fails_the_job_with_a_readable_message(ray_api: TestClient) -> None:
    job, _ = follow(ray_api, submit(ray_api, behaviour="signal"))
    assert job["status"] == "failed"
    assert job["error"].startswith("the Ray worker process running the job on node ")
    assert "died before it finished (WorkerCrashedError)" in job["error"]


def test_touching_memory_past_the_limit_stops_the_task_with_the_one_wording(ray_api: TestClient) -> None:
    job, _ = follow(ray_api, submit(ray_api, behaviour="touch_memory", memory_mb=2000, step_s=2.0))
    assert job["status"] == "failed"
    assert job["error"].startswith("ran out of memory (") and "the limit is 300 MB" in job["error"], job["error"]


def test_a_gpu_method_is_refused_on_a_cluster_without_gpus(ray_api: TestClient) -> None:
    job, _ = follow(ray_api, submit(ray_api, "gpu_toy"))
    assert job["status"] == "failed"
    assert "needs 1 GPU(s) and the Ray cluster at 127.0.0.1:" in job["error"] and "has 0" in job["error"]


def test_health_names_the_executor_and_the_cluster_resources(ray_api: TestClient, ray_head: RayHead) -> None:
    health = ray_api.get("/healthz").json()
    assert health["executor"] == "ray" and health["ok"]
    assert health["workers"] == 2 and health["resources"]["CPU"] == 2.0
    assert health["executor_detail"]["address"] == ray_head.address
    assert health["executor_detail"]["nodes"] == 1


def test_an_unreachable_cluster_is_a_clear_start_up_error(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    with pytest.raises(RayUnavailable, match=f"cannot reach the Ray cluster at {address}"):
        with TestClient(create_app(job_settings(tmp_path, executor="ray", ray_address=address))):
            pass
    with pytest.raises(RayUnavailable, match="EXECUTOR=ray needs RAY_ADDRESS"):
        with TestClient(create_app(job_settings(tmp_path, executor="ray", ray_address=""))):
            pass
