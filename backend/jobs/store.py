"""What executors call to record a job's life: one short transaction per transition, retried when
the database is locked or unreachable, so a busy database delays a job's record instead of losing it."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.outcome import Outcome
from db.jobs import ClaimedJob, JobRepository, JobStatus
from db.tables import utcnow

__all__ = ["JobStore"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class JobStore:
    """Named transitions of a job; `finish` is the single way a job ends."""

    def __init__(self, session_factory: sessionmaker[Session], instance_id: str = "", retry_s: float = 60.0) -> None:
        self._sessions = session_factory
        self.instance_id = instance_id
        self.retry_s = retry_s

    def _retry(self, what: str, work: Callable[[JobRepository], T], retry_s: float) -> T:
        """Run `work` in its own transaction; on a locked/unreachable database retry with backoff."""
        deadline = time.monotonic() + retry_s
        pause = 0.05
        while True:
            try:
                with self._sessions.begin() as session:
                    return work(JobRepository(session))
            except OperationalError:
                if time.monotonic() + pause > deadline:
                    raise
                log.warning("%s: the database is busy; retrying in %.2f s", what, pause)
                time.sleep(pause)
                pause = min(pause * 2, 1.0)

    def claim(self, methods: list[str], limit: int) -> list[ClaimedJob]:
        """Lease up to `limit` of the oldest unclaimed queued jobs to this instance (one try: the
        dispatcher simply looks again on its next pass when the database is busy)."""
        try:
            return self._retry("claim", lambda repo: repo.claim(self.instance_id, methods, limit), 0.0)
        except OperationalError:
            log.warning("claiming queued jobs failed (database busy); trying again on the next pass")
            return []

    def release(self, job_ids: list[str]) -> int:
        """Give this instance's claimed jobs that never started back to the queue."""
        return self._retry("release", lambda repo: repo.release(job_ids, self.instance_id), self.retry_s)

    def start(self, job_id: str) -> bool:
        """queued -> running, leased by this instance; False when it was cancelled meanwhile."""
        return self._retry("start", lambda repo: repo.mark_running(job_id, self.instance_id), self.retry_s)

    def progress(self, job_id: str, fraction: float, message: str) -> bool:
        """One try: False when the write failed (the caller keeps the value and tries again later)."""
        try:
            with self._sessions.begin() as session:
                JobRepository(session).set_progress(job_id, fraction, message)
            return True
        except OperationalError:
            log.warning("progress of job %s not written (database busy); kept for the next write", job_id)
            return False

    def cancel_requested(self, job_id: str) -> bool:
        try:
            with self._sessions() as session:
                state = JobRepository(session).status_of(job_id)
        except OperationalError:
            return False
        return bool(state and state[1])

    def finish(self, job_id: str, outcome: Outcome, retry_s: float | None = None) -> bool:
        """Record how the job ended (retried while the database is busy); False when it never got written
        (then the job's lease lapses and a sweep marks it interrupted)."""
        def write(repo: JobRepository) -> None:
            if outcome.status is JobStatus.SUCCEEDED:
                repo.finish(job_id, JobStatus.SUCCEEDED, result=outcome.result, metrics=outcome.metrics,
                            figures=outcome.figures, artifacts=outcome.artifacts, verdict=outcome.verdict)
            else:
                repo.finish(job_id, outcome.status, error=outcome.error)
        try:
            self._retry("finish", write, self.retry_s if retry_s is None else retry_s)
            return True
        except OperationalError:
            log.exception("job %s ended (%s) but the database refused the record", job_id, outcome.ending)
            return False

    def heartbeat(self, instance_id: str, job_ids: list[str]) -> None:
        if job_ids:
            self._retry("heartbeat", lambda repo: repo.heartbeat(instance_id, job_ids), 0.0)

    def reap_expired(self, lease_s: float) -> int:
        """Mark queued/running jobs whose lease expired as interrupted; returns how many."""
        cutoff = utcnow() - timedelta(seconds=lease_s)
        return self._retry("recovery", lambda repo: repo.recover_interrupted(cutoff), self.retry_s)
