"""The app's JobStatus is the API's: the served OpenAPI enum, value for value, and the terminal ones."""

from __future__ import annotations

import httpx

from app.components.jobview import JobView
from app.components.status import TERMINAL, JobStatus


def _served_enum(url: str) -> list[str]:
    schema = httpx.get(f"{url}/openapi.json", timeout=10).json()
    return list(schema["components"]["schemas"]["JobStatus"]["enum"])


def test_the_app_names_exactly_the_statuses_the_api_serves(live_backend: str) -> None:
    assert sorted(_served_enum(live_backend)) == sorted(s.value for s in JobStatus)


def test_terminal_statuses_are_every_status_but_waiting_and_running() -> None:
    assert TERMINAL == set(JobStatus) - {JobStatus.QUEUED, JobStatus.RUNNING}


def test_a_job_view_carries_the_enum_and_knows_when_it_is_done() -> None:
    payload = {"id": "0" * 32, "method": "toy", "status": "timed_out", "progress": 1.0, "message": ""}
    job = JobView.from_api(payload)
    assert job.status is JobStatus.TIMED_OUT and job.done
    assert not JobView.from_api({**payload, "status": "running"}).done
