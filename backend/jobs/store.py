"""What executors call to record a job's life: one short session per transition."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.outcome import Outcome
from db.jobs import JobRepository

__all__ = ["JobStore"]


class JobStore:
    """Named transitions of a job, each in its own short transaction."""

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self._sessions = session_factory

    def start(self, job_id: str) -> bool:
        with self._sessions.begin() as session:
            return JobRepository(session).mark_running(job_id)

    def progress(self, job_id: str, fraction: float, message: str) -> None:
        with self._sessions.begin() as session:
            JobRepository(session).set_progress(job_id, fraction, message)

    def cancel_requested(self, job_id: str) -> bool:
        with self._sessions() as session:
            state = JobRepository(session).status_of(job_id)
        return bool(state and state[1])

    def finish(self, job_id: str, outcome: Outcome) -> None:
        with self._sessions.begin() as session:
            repo = JobRepository(session)
            if outcome.status == "succeeded":
                repo.succeed(job_id, outcome.result, outcome.metrics, outcome.figures, outcome.artifacts,
                             verdict=outcome.verdict)
            elif outcome.status == "cancelled":
                repo.cancel(job_id)
            else:
                repo.fail(job_id, outcome.error)

    def time_out(self, job_id: str, limit_s: float) -> None:
        with self._sessions.begin() as session:
            JobRepository(session).time_out(job_id, limit_s)
