"""JobStatus: the job statuses the API serves (its OpenAPI `JobStatus` enum), named once for the app."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TERMINAL", "JobStatus"]


class JobStatus(StrEnum):
    """A job's status as `GET /api/jobs/{id}` returns it; tests/app/test_status.py holds it to the API's enum."""

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"


TERMINAL = frozenset({JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED, JobStatus.TIMED_OUT})
