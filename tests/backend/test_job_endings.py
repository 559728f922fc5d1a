"""The supervisor's endings one by one, with the embedded executor and the `endings` test method."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.jobs.embedded.messages import RunJob
from backend.jobs.embedded.pool import ProcessPool
from backend.jobs.limits import JobLimits
from backend.jobs.outcome import Ending, Outcome, execute
from backend.main import create_app
from backend.registry import load_spec
from db.jobs import JobRepository, JobStatus
from db.session import make_engine, make_session_factory
from tests.backend.conftest import job_settings, submit
from tests.conftest import wait_for

END = {"succeeded", "failed", "cancelled", "timed_out"}
OOM = re.compile(r"^ran out of memory \((\d+) MB\); the limit is (\d+) MB; try smaller settings$")


@pytest.fixture
def api(tmp_path: Path) -> TestClient:
    with TestClient(create_app(job_settings(tmp_path, job_memory_mb=300))) as client:
        yield client  # type: ignore[misc]


def test_a_job_killed_by_a_signal_says_which(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="signal"), END)
    assert job["status"] == "failed"
    assert job["error"] == "the job process was killed by signal 9 (SIGKILL)"


def test_a_job_that_exits_says_its_exit_code_and_is_not_blamed_on_memory(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="exit"), END)
    assert job["status"] == "failed"
    assert job["error"] == "the job process exited with code 3 without a result"


def test_touching_memory_past_the_limit_stops_the_job_with_the_measured_size(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="touch_memory", memory_mb=1200, step_s=2.0), END, 60)
    assert job["status"] == "failed"
    found = OOM.match(job["error"])
    assert found, job["error"]
    assert 300 < int(found.group(1)) < 1200 and found.group(2) == "300"


def test_mapping_address_space_it_never_touches_is_not_stopped(api: TestClient) -> None:
    """RLIMIT_AS would refuse this 16 GB mapping; the resident-memory limit rightly lets it run."""
    job = wait_for(api, submit(api, behaviour="map_memory", memory_mb=16384), END, 60)
    assert job["status"] == "succeeded", job["error"]


def test_torch_allocator_errors_use_the_one_out_of_memory_wording(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="torch_oom"), END, 60)
    assert job["status"] == "failed"
    assert OOM.match(job["error"]), job["error"]
    assert "DefaultCPUAllocator" not in job["error"]


def test_memory_error_uses_the_one_out_of_memory_wording() -> None:
    def run_out(_fraction: float, _message: str = "") -> None:
        raise MemoryError()

    outcome = execute(load_spec("tests.backend.job_methods"), {"steps": 2}, run_out, memory_mb=300)
    assert outcome.ending is Ending.OUT_OF_MEMORY and outcome.status is JobStatus.FAILED
    assert OOM.match(outcome.error), outcome.error


def test_a_gpu_method_is_refused_where_torch_sees_no_gpu(api: TestClient) -> None:
    job = wait_for(api, submit(api, "gpu_toy"), END)
    assert job["status"] == "failed"
    assert job["error"].startswith("this method needs 1 GPU(s) and this server has none")
    assert "EXECUTOR=ray" in job["error"]


def test_shutdown_interrupts_the_running_job_and_leaves_the_queued_one_for_the_next_server(tmp_path: Path) -> None:
    settings = job_settings(tmp_path, max_workers=1)
    with TestClient(create_app(settings)) as api:
        running = submit(api, behaviour="sleep", steps=1000, step_s=0.05)
        queued = submit(api, behaviour="sleep", steps=2)
        wait_for(api, running, {"running"})
        assert api.get(f"/api/jobs/{queued}").json()["status"] == "queued"
    sessions = make_session_factory(make_engine(settings.resolved_database_url))
    with sessions() as session:
        job = JobRepository(session).get(running)
        assert job is not None and job.status == JobStatus.FAILED
        assert job.error == "interrupted by a server shutdown", job.error
        waiting = JobRepository(session).get(queued)
        assert waiting is not None and waiting.status == JobStatus.QUEUED and waiting.lease_owner is None
    with TestClient(create_app(settings)) as api:  # the next server runs what was waiting
        assert wait_for(api, queued, END)["status"] == "succeeded"


def test_endings_map_to_the_stored_statuses() -> None:
    assert Outcome.cancelled().status is JobStatus.CANCELLED
    assert Outcome.timed_out(2).status is JobStatus.TIMED_OUT
    assert Outcome.interrupted().status is JobStatus.FAILED
    assert Outcome.out_of_memory(500, 300).status is JobStatus.FAILED
    assert {ending.status.value for ending in Ending} == {"succeeded", "failed", "cancelled", "timed_out"}


def test_a_dead_spare_is_replaced_and_its_pipe_closed() -> None:
    pool = ProcessPool("forkserver", [], warm=1, progress_interval_s=0.0, threads=1)
    try:
        spare = pool._warm[0]
        spare.process.kill()
        spare.process.join(5)
        fresh = pool.take()
        assert fresh is not spare and spare.conn.closed
        fresh.wait_ready(30)
        fresh.stop()
    finally:
        pool.close()


def test_a_job_process_stops_itself_past_its_own_deadline() -> None:
    """Even with nobody watching it (a frozen or dead server), a job does not outlive its limit."""
    pool = ProcessPool("forkserver", [], warm=0, progress_interval_s=0.0, threads=1)
    try:
        job_process = pool.take()
        job_process.wait_ready(30)
        limits = JobLimits(timeout_s=0.5, memory_mb=300, own_deadline_slack_s=0.2)
        job_process.conn.send(RunJob("tests.backend.job_methods", {"behaviour": "sleep", "steps": 1000,
                                                                  "step_s": 0.05}, limits))
        started = time.monotonic()
        job_process.process.join(20)
        assert job_process.process.exitcode == 124
        assert time.monotonic() - started < 5
        job_process.stop()
    finally:
        pool.close()


def test_the_stored_verdict_keeps_every_field_and_fits_its_columns() -> None:
    from backend.jobs.outcome import stored_verdict
    from models.common.verdict import Verdict

    verdict = Verdict("partly", "warning", held=1, tested=3, headline=4, seeds=3, beaten_by=("EMA", "x" * 300),
                      metric="test loss\x00", label="", detail="d" * 900)
    stored = stored_verdict(verdict)
    assert (stored["kind"], stored["held"], stored["tested"], stored["headline"], stored["seeds"]) == ("partly", 1, 3, 4, 3)
    assert stored["beaten_by"][0] == "EMA" and len(stored["beaten_by"][1]) == 200
    assert "\x00" not in stored["metric"] and len(stored["detail"]) == 500
