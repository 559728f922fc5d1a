"""What executors call to record a job's life: one short transaction per transition, retried when
the database is locked, unreachable, full or its connection pool is exhausted, so a busy database
delays a job's record instead of losing it.

A finished job whose record cannot be written (the database stays down or its disk stays full past
`retry_s`) is kept in memory (`pending`): its lease is renewed by every heartbeat, so no sweep marks
it interrupted, and every heartbeat tries the write again, so the result lands as soon as the
database takes it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.outcome import Outcome
from db.jobs import ClaimedJob, JobRepository, JobStatus
from db.tables import utcnow

__all__ = ["DATABASE_ERRORS", "DiskWatch", "JobStore", "disk_watch", "is_disk_full"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# Temporary conditions of the database: a lock, a lost server or connection, a full disk, and a wait
# for a pooled connection past the pool timeout (sqlalchemy.exc.TimeoutError, not an OperationalError).
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeout)
_DISK_FULL_TEXT = ("database or disk is full", "no space left on device", "disk full", "could not extend file")


def is_disk_full(exc: BaseException) -> bool:
    """True for SQLite's SQLITE_FULL and PostgreSQL's disk-full errors (SQLSTATE 53100)."""
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) == "53100":
        return True
    text = f"{exc} {orig}".lower()
    return any(marker in text for marker in _DISK_FULL_TEXT)


class DiskWatch:
    """When this process last saw the database refuse a write for lack of space (for /healthz)."""

    def __init__(self, remember_s: float = 30.0) -> None:
        self.remember_s = remember_s
        self._seen_at: float | None = None

    def saw(self, exc: BaseException) -> None:
        if is_disk_full(exc):
            self._seen_at = time.monotonic()

    def full(self) -> bool:
        return self._seen_at is not None and time.monotonic() - self._seen_at < self.remember_s


disk_watch = DiskWatch()


class JobStore:
    """Named transitions of a job; `finish` is the single way a job ends."""

    def __init__(self, session_factory: sessionmaker[Session], instance_id: str = "", retry_s: float = 60.0) -> None:
        self._sessions = session_factory
        self.instance_id = instance_id
        self.retry_s = retry_s
        self._pending: dict[str, Outcome] = {}  # finished jobs whose record the database refused so far
        self._pending_lock = threading.Lock()

    def _retry(self, what: str, work: Callable[[JobRepository], T], retry_s: float) -> T:
        """Run `work` in its own transaction; on a temporary database error retry with backoff."""
        deadline = time.monotonic() + retry_s
        pause = 0.05
        while True:
            try:
                with self._sessions.begin() as session:
                    return work(JobRepository(session))
            except DATABASE_ERRORS as exc:
                disk_watch.saw(exc)
                if time.monotonic() + pause > deadline:
                    raise
                log.warning("%s: the database is busy (%s); retrying in %.2f s", what, type(exc).__name__, pause)
                time.sleep(pause)
                pause = min(pause * 2, 1.0)

    def claim(self, methods: list[str], limit: int) -> list[ClaimedJob]:
        """Lease up to `limit` of the oldest unclaimed queued jobs to this instance (one try: the
        dispatcher simply looks again on its next pass when the database is busy)."""
        try:
            return self._retry("claim", lambda repo: repo.claim(self.instance_id, methods, limit), 0.0)
        except DATABASE_ERRORS:
            log.warning("claiming queued jobs failed (database busy); trying again on the next pass")
            return []

    def release(self, job_ids: list[str]) -> int:
        """Give this instance's claimed jobs that never started back to the queue."""
        return self._retry("release", lambda repo: repo.release(job_ids, self.instance_id), self.retry_s)

    def start(self, job_id: str) -> bool:
        """queued -> running, leased by this instance; False when it was cancelled meanwhile, or when
        the database stayed busy past `retry_s` (the job stays queued; once this server no longer
        heartbeats it, its lease lapses and it goes back to the queue, never labelled failed)."""
        try:
            return self._retry("start", lambda repo: repo.mark_running(job_id, self.instance_id), self.retry_s)
        except DATABASE_ERRORS:
            log.warning("job %s not started (database busy); it goes back to the queue", job_id)
            return False

    def progress(self, job_id: str, fraction: float, message: str) -> bool:
        """One try: False when the write failed (the caller keeps the value and tries again later)."""
        try:
            with self._sessions.begin() as session:
                JobRepository(session).set_progress(job_id, fraction, message)
            return True
        except DATABASE_ERRORS as exc:
            disk_watch.saw(exc)
            log.warning("progress of job %s not written (database busy); kept for the next write", job_id)
            return False

    def cancel_requested(self, job_id: str) -> bool:
        try:
            with self._sessions() as session:
                state = JobRepository(session).status_of(job_id)
        except DATABASE_ERRORS:
            return False
        return bool(state and state[1])

    @staticmethod
    def _write(job_id: str, outcome: Outcome) -> Callable[[JobRepository], None]:
        def write(repo: JobRepository) -> None:
            if outcome.status is JobStatus.SUCCEEDED:
                repo.finish(job_id, JobStatus.SUCCEEDED, result=outcome.result, metrics=outcome.metrics,
                            figures=outcome.figures, artifacts=outcome.artifacts, verdict=outcome.verdict,
                            tables=outcome.tables)
            else:
                repo.finish(job_id, outcome.status, error=outcome.error)
        return write

    def finish(self, job_id: str, outcome: Outcome, retry_s: float | None = None) -> bool:
        """Record how the job ended (retried while the database is busy); False when it is not written
        yet: then the outcome is kept in `pending`, heartbeated and written by a later heartbeat."""
        try:
            self._retry("finish", self._write(job_id, outcome), self.retry_s if retry_s is None else retry_s)
            return True
        except DATABASE_ERRORS:
            log.error("job %s ended (%s) but the database refused the record; kept until it can be written",
                      job_id, outcome.ending)
            with self._pending_lock:
                self._pending[job_id] = outcome
            return False

    def pending(self) -> list[str]:
        """Finished jobs whose record is still waiting for the database."""
        with self._pending_lock:
            return list(self._pending)

    def flush_pending(self) -> int:
        """One try at writing each pending record; returns how many are still waiting."""
        for job_id in self.pending():
            with self._pending_lock:
                outcome = self._pending.get(job_id)
            if outcome is None:
                continue
            try:
                self._retry("finish (pending)", self._write(job_id, outcome), 0.0)
            except DATABASE_ERRORS:
                break  # still refused: the next heartbeat tries again
            with self._pending_lock:
                self._pending.pop(job_id, None)
            log.info("job %s: its pending record is written", job_id)
        return len(self.pending())

    def heartbeat(self, instance_id: str, job_ids: list[str]) -> None:
        """Write pending records first, then renew the lease of the held jobs and of those still pending."""
        self.flush_pending()
        held = sorted(set(job_ids) | set(self.pending()))
        if held:
            self._retry("heartbeat", lambda repo: repo.heartbeat(instance_id, held), 0.0)

    def reap_expired(self, lease_s: float) -> int:
        """Mark queued/running jobs whose lease expired as interrupted; returns how many. Runs after
        the heartbeat (LeaseKeeper.beat), so this server's own pending jobs hold a fresh lease."""
        cutoff = utcnow() - timedelta(seconds=lease_s)
        return self._retry("recovery", lambda repo: repo.recover_interrupted(cutoff), self.retry_s)
