"""The jobs repository: the job state machine, one named method per transition.

    queued (unclaimed) --claim--> queued (leased by one server) --mark_running--> running
    queued (leased) --release--> queued (unclaimed)           (a server stops before starting it)
    queued | running --finish--> succeeded | failed | cancelled | timed_out   (terminal, final)

The queue is the jobs table: any server may claim any queued job (`claim`: `SELECT ... FOR UPDATE
SKIP LOCKED` on PostgreSQL, so concurrent claimers take different rows without waiting on each
other), least-served first: the client address (of the anonymous session) with the fewest jobs held
by a server, then the identity with the fewest, then the oldest. Every accepted submission also
writes a row of the `submissions` ledger, which deleting a run does not touch (the hourly quota). Every transition is one guarded `UPDATE ... WHERE status IN (...)`, so a late or repeated
transition (a cancel racing a finish, two servers claiming one row) changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    and_,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import coalesce

from db.job_reads import ACTIVE_VALUES as _ACTIVE
from db.job_reads import JobReads
from db.status import ACTIVE, TERMINAL, JobStatus
from db.tables import Artifact, Identity, Job, ShareLink, submissions, utcnow

__all__ = ["ACTIVE", "CANCELLING_MESSAGE", "INTERRUPTED_MESSAGE", "ClaimedJob", "JobRepository", "JobStatus", "TERMINAL"]

INTERRUPTED_MESSAGE = "interrupted by a server restart"
CANCELLING_MESSAGE = "cancelling"  # a running job asked to stop, until its supervisor ends it


class ClaimedJob(NamedTuple):
    """A queued job one server has claimed: what its executor needs to run it."""

    id: str
    method: str
    params: dict[str, Any]




def _verdict_columns(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A verdict's fields (backend.jobs.outcome.stored_verdict) as the jobs table's columns; `verdict` is an
    answer's word, else the kind, so that a succeeded run always has one."""
    if not verdict:
        return {"verdict": None}
    return {"verdict": verdict.get("label") or verdict.get("kind"), "verdict_kind": verdict.get("kind"),
            "verdict_tone": verdict.get("tone"), "verdict_held": verdict.get("held"),
            "verdict_tested": verdict.get("tested"), "verdict_headline": verdict.get("headline"),
            "verdict_seeds": verdict.get("seeds"), "verdict_beaten_by": list(verdict.get("beaten_by") or []),
            "verdict_metric": verdict.get("metric"), "verdict_detail": verdict.get("detail")}


class JobRepository(JobReads):
    """Reads (`JobReads`) and state transitions of jobs inside one short-lived session (the caller commits)."""

    # transitions
    def create(self, method: str, params: Mapping[str, Any], owner: str = "", summary: str = "",
               example: str | None = None) -> Job:
        """A queued job; `example`: the label of the example it was started from unchanged (None: own inputs)."""
        job = Job(method=method, params=dict(params), owner=owner, status=JobStatus.QUEUED.value, message="queued",
                  summary=summary[:200], example=example[:200] if example else None)
        self.session.add(job)
        self.session.flush()
        self.session.execute(insert(submissions).values(owner=owner[:64], created_at=job.created_at or utcnow()))
        return job

    def claim(self, instance_id: str, methods: Sequence[str], limit: int) -> list[ClaimedJob]:
        """Lease up to `limit` unclaimed queued jobs of `methods` to `instance_id`, one at a time, each
        the least-served: fewest jobs held (claimed or running) from its client address, then from its
        identity, then the oldest (see `_waiting`).

        On PostgreSQL the row is locked with `FOR UPDATE OF jobs SKIP LOCKED`: a second server claiming
        at the same moment skips it and takes the next one instead of waiting. SQLite has one writer
        at a time; there the guarded UPDATE alone decides (a row another server took in between
        updates nothing and is left out)."""
        if limit <= 0 or not methods:
            return []
        claimed: list[ClaimedJob] = []
        skipped: list[str] = []
        while len(claimed) < limit:
            row = self.session.execute(self._waiting(list(methods), skipped)).first()
            if row is None:
                break
            job_id, method, params = row
            done = self.session.execute(
                update(Job)
                .where(Job.id == job_id, Job.status == JobStatus.QUEUED.value, Job.lease_owner.is_(None))
                .values(lease_owner=instance_id, heartbeat_at=utcnow())
            )
            if getattr(done, "rowcount", 0):
                claimed.append(ClaimedJob(job_id, method, dict(params or {})))
            else:
                skipped.append(job_id)
        return claimed

    @staticmethod
    def _waiting(methods: list[str], skipped: Sequence[str]) -> Any:
        """The next queued, unclaimed job, least-served first (a registered user, with no session
        address, is an address of its own)."""
        other, other_identity = aliased(Job), aliased(Identity)
        other_held = or_(other.status == JobStatus.RUNNING.value,
                         and_(other.status == JobStatus.QUEUED.value, other.lease_owner.is_not(None)))
        key = coalesce(func.nullif(Identity.client_address, ""), literal("owner:") + Job.owner)
        other_key = coalesce(func.nullif(other_identity.client_address, ""), literal("owner:") + other.owner)
        by_address = (select(func.count()).select_from(other)
                      .outerjoin(other_identity, other_identity.id == other.owner)
                      .where(other_held, other_key == key).correlate(Job, Identity).scalar_subquery())
        by_owner = (select(func.count()).select_from(other).where(other_held, other.owner == Job.owner)
                    .correlate(Job).scalar_subquery())
        query = (select(Job.id, Job.method, Job.params).outerjoin(Identity, Identity.id == Job.owner)
                 .where(Job.status == JobStatus.QUEUED.value, Job.lease_owner.is_(None), Job.method.in_(methods)))
        if skipped:
            query = query.where(Job.id.not_in(list(skipped)))
        return (query.order_by(by_address, by_owner, Job.created_at, Job.id).limit(1)
                .with_for_update(skip_locked=True, of=Job))

    def release(self, job_ids: Sequence[str], instance_id: str) -> int:
        """Give claimed jobs that never started back to the queue (a server stopping); returns how many."""
        if not job_ids:
            return 0
        done = self.session.execute(
            update(Job)
            .where(Job.id.in_(list(job_ids)), Job.status == JobStatus.QUEUED.value, Job.lease_owner == instance_id)
            .values(lease_owner=None, heartbeat_at=None)
        )
        return int(getattr(done, "rowcount", 0) or 0)

    def mark_running(self, job_id: str, instance_id: str = "") -> bool:
        """queued -> running, leased by `instance_id`; False when the job was cancelled before it started
        or is claimed by another server."""
        now = utcnow()
        mine = Job.lease_owner.is_(None) if not instance_id else or_(Job.lease_owner.is_(None),
                                                                      Job.lease_owner == instance_id)
        done = self.session.execute(
            update(Job)
            .where(Job.id == job_id, Job.status == JobStatus.QUEUED.value, mine)
            .values(status=JobStatus.RUNNING.value, started_at=now, message="started",
                    lease_owner=instance_id or None, heartbeat_at=now)
        )
        return bool(getattr(done, "rowcount", 0))

    def heartbeat(self, instance_id: str, job_ids: Sequence[str]) -> int:
        """Renew the lease of the given active jobs for `instance_id`; returns how many rows it renewed."""
        done = self.session.execute(
            update(Job)
            .where(Job.id.in_(list(job_ids)), Job.status.in_(_ACTIVE))
            .values(lease_owner=instance_id, heartbeat_at=utcnow())
        )
        return int(getattr(done, "rowcount", 0) or 0)

    def set_progress(self, job_id: str, fraction: float, message: str) -> None:
        self.session.execute(
            update(Job)
            .where(Job.id == job_id, Job.status == JobStatus.RUNNING.value)
            .values(progress=min(max(fraction, 0.0), 1.0), message=message[:500])
        )

    def finish(
        self,
        job_id: str,
        status: JobStatus,
        *,
        error: str = "",
        result: dict[str, Any] | None = None,
        metrics: dict[str, Any] | None = None,
        figures: dict[str, Any] | None = None,
        artifacts: Mapping[str, tuple[str, bytes]] | None = None,
        verdict: Mapping[str, Any] | None = None,
        tables: list[dict[str, Any]] | None = None,
    ) -> bool:
        """queued | running -> a terminal status: the one transition that ends a job.

        A succeeded job stores its result, metrics, tables, figures, verdict and artifacts; any other ending
        stores its error as the message. Returns False when the job had already ended (nothing is
        written then, not even artifacts)."""
        if status not in TERMINAL:
            raise ValueError(f"finish() needs a terminal status, got {status!r}")
        if status is JobStatus.SUCCEEDED:
            done = self._end(job_id, status, "done", result=result or {}, metrics=metrics or {},
                             tables=list(tables or []), figures=figures or {}, progress=1.0, **_verdict_columns(verdict or {}))
            if done:
                self.session.execute(delete(Artifact).where(Artifact.job_id == job_id))
                for name, (media_type, content) in (artifacts or {}).items():
                    self.session.add(Artifact(job_id=job_id, name=name, media_type=media_type, content=content))
            return done
        message = "cancelled by the user" if status is JobStatus.CANCELLED and not error else error
        return self._end(job_id, status, message, error=message)

    # named endings (tests and callers that know the ending up front)
    def succeed(
        self,
        job_id: str,
        result: dict[str, Any],
        metrics: dict[str, Any],
        figures: dict[str, Any],
        artifacts: Mapping[str, tuple[str, bytes]],
        verdict: Mapping[str, Any] | None = None,
        tables: list[dict[str, Any]] | None = None,
    ) -> None:
        self.finish(job_id, JobStatus.SUCCEEDED, result=result, metrics=metrics, figures=figures, artifacts=artifacts,
                    verdict=verdict, tables=tables)

    def fail(self, job_id: str, error: str) -> None:
        self.finish(job_id, JobStatus.FAILED, error=error)

    def time_out(self, job_id: str, limit_s: float) -> None:
        self.finish(job_id, JobStatus.TIMED_OUT, error=f"the job ran past its time limit of {limit_s:g} s and was stopped")

    def cancel(self, job_id: str) -> None:
        self.finish(job_id, JobStatus.CANCELLED, error="cancelled by the user")

    def request_cancel(self, job_id: str) -> str | None:
        """Flag a job for cancellation; a queued job is cancelled at once. Returns the new status."""
        job = self.get(job_id)
        if job is None:
            return None
        if job.status == JobStatus.QUEUED.value:
            self.cancel(job_id)
        elif job.status == JobStatus.RUNNING.value:
            job.cancel_requested = True
            job.message = CANCELLING_MESSAGE
        self.session.flush()
        self.session.refresh(job)
        return job.status

    def recover_interrupted(self, lease_expired_before: datetime | None = None) -> int:
        """Mark running jobs whose server is gone as failed ("interrupted by a server restart") and give
        claimed-but-unstarted jobs of a gone server back to the queue; returns how many were marked.

        With `lease_expired_before`, only jobs whose last heartbeat is older than it: the jobs of a
        live server on the same database are left alone. Without it (one server, at its start),
        every running job. Unclaimed queued jobs are never touched: they wait for any server."""
        expired: ColumnElement[bool] = true() if lease_expired_before is None else Job.heartbeat_at < lease_expired_before
        self.session.execute(
            update(Job)
            .where(Job.status == JobStatus.QUEUED.value, Job.lease_owner.is_not(None), expired)
            .values(lease_owner=None, heartbeat_at=None)
        )
        lost = and_(Job.status == JobStatus.RUNNING.value,
                    true() if lease_expired_before is None
                    else coalesce(Job.heartbeat_at, Job.created_at) < lease_expired_before)
        done = self.session.execute(update(Job).where(lost).values(
            status=JobStatus.FAILED.value, error=INTERRUPTED_MESSAGE, message=INTERRUPTED_MESSAGE,
            finished_at=utcnow()))
        return int(getattr(done, "rowcount", 0) or 0)

    def delete_finished_before(self, cutoff: datetime) -> int:
        """Delete jobs (and, by cascade, their artifacts) that ended before `cutoff`; returns how many."""
        terminal = [status.value for status in TERMINAL]
        old = select(Job.id).where(Job.status.in_(terminal), Job.finished_at < cutoff)
        self.session.execute(delete(Artifact).where(Artifact.job_id.in_(old)))
        self.session.execute(delete(submissions).where(submissions.c.created_at < min(cutoff, utcnow() - timedelta(days=1))))
        done = self.session.execute(delete(Job).where(Job.status.in_(terminal), Job.finished_at < cutoff))
        return int(getattr(done, "rowcount", 0) or 0)

    def delete_finished(self, job_id: str) -> bool:
        """Delete one ended job with its artifacts and share links; False when it is missing or active."""
        terminal = [status.value for status in TERMINAL]
        if self.session.scalar(select(Job.id).where(Job.id == job_id, Job.status.in_(terminal))) is None:
            return False
        self.session.execute(delete(ShareLink).where(ShareLink.job_id == job_id))
        self.session.execute(delete(Artifact).where(Artifact.job_id == job_id))
        done = self.session.execute(delete(Job).where(Job.id == job_id, Job.status.in_(terminal)))
        return bool(getattr(done, "rowcount", 0))

    def _end(self, job_id: str, status: JobStatus, message: str, **values: Any) -> bool:
        finished: datetime = utcnow()
        done = self.session.execute(
            update(Job)
            .where(Job.id == job_id, Job.status.in_(_ACTIVE))
            .values(status=status.value, message=message[:500], finished_at=finished, **values)
        )
        return bool(getattr(done, "rowcount", 0))
