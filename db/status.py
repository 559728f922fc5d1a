"""The stored status of a job (what the API serves and the front end compares), and its two groups."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ACTIVE", "TERMINAL", "JobStatus"]


class JobStatus(StrEnum):
    """The stored status of a job; the values are what the API returns and the front end compares."""

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"


TERMINAL = frozenset({JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED, JobStatus.TIMED_OUT})
ACTIVE = frozenset({JobStatus.QUEUED, JobStatus.RUNNING})
