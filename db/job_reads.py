"""What the store answers about jobs without changing them: one job, lists, the counts the quotas read, a
run's artifacts, and how many queued jobs are ahead of one (the page's queue position)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from db.status import ACTIVE, JobStatus
from db.tables import Artifact, Identity, Job, submissions

__all__ = ["ACTIVE_VALUES", "JobReads"]

ACTIVE_VALUES = tuple(status.value for status in ACTIVE)
_ACTIVE = ACTIVE_VALUES


class JobReads:
    """Reads of jobs inside one short-lived session."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, job_id: str) -> Job | None:
        return self.session.get(Job, job_id)

    def list_jobs(self, method: str | None = None, owner: str | None = None, limit: int = 20,
                  verdict: str | None = None, offset: int = 0, kind: str | None = None,
                  example: str | None = None) -> tuple[Sequence[Job], int]:
        """Jobs newest first (filtered by method, owner, verdict label or kind, example label) and their count."""
        query = select(Job)
        count = select(func.count()).select_from(Job)
        if method:
            query, count = query.where(Job.method == method), count.where(Job.method == method)
        if owner:
            query, count = query.where(Job.owner == owner), count.where(Job.owner == owner)
        if verdict:
            query, count = query.where(Job.verdict == verdict), count.where(Job.verdict == verdict)
        if kind:
            query, count = query.where(Job.verdict_kind == kind), count.where(Job.verdict_kind == kind)
        if example:
            query, count = query.where(Job.example == example), count.where(Job.example == example)
        rows = self.session.scalars(query.order_by(Job.created_at.desc(), Job.id).offset(offset).limit(limit)).all()
        return rows, int(self.session.scalar(count) or 0)

    def count_active(self, owner: str) -> int:
        """Queued or running jobs of one owner (the concurrency quota)."""
        return int(self.session.scalar(select(func.count()).select_from(Job).where(
            Job.owner == owner, Job.status.in_(_ACTIVE))) or 0)

    def submitted_since(self, owner: str, since: datetime) -> tuple[int, datetime | None]:
        """How many jobs `owner` submitted since `since` (the ledger: deleted runs count too), and when
        the oldest of them was submitted."""
        row = self.session.execute(select(func.count(), func.min(submissions.c.created_at)).where(
            submissions.c.owner == owner, submissions.c.created_at >= since)).one()
        return int(row[0] or 0), row[1]

    def count_active_from_address(self, client_address: str) -> int:
        """Queued or running jobs of every anonymous session opened from `client_address`."""
        return int(self.session.scalar(
            select(func.count()).select_from(Job).join(Identity, Identity.id == Job.owner).where(
                Identity.kind == "anonymous", Identity.client_address == client_address,
                Job.status.in_(_ACTIVE))) or 0)

    def count_queued(self) -> int:
        """Jobs waiting for a worker, all owners together (the global queue cap)."""
        return int(self.session.scalar(select(func.count()).select_from(Job).where(
            Job.status == JobStatus.QUEUED.value)) or 0)

    def artifact(self, job_id: str, name: str) -> Artifact | None:
        return self.session.get(Artifact, (job_id, name))

    def artifacts(self, job_id: str) -> Sequence[Artifact]:
        return self.session.scalars(select(Artifact).where(Artifact.job_id == job_id).order_by(Artifact.name)).all()

    def artifact_names(self, job_id: str) -> list[str]:
        return list(self.session.scalars(select(Artifact.name).where(Artifact.job_id == job_id)).all())

    def status_of(self, job_id: str) -> tuple[str, bool] | None:
        row = self.session.execute(select(Job.status, Job.cancel_requested).where(Job.id == job_id)).first()
        return None if row is None else (row[0], bool(row[1]))

    def queue_position(self, job_id: str) -> int | None:
        """How many queued jobs were submitted before this one (None unless it is queued). Claims go
        least-served first, so a job from a busy address may wait behind later ones: this counts the
        jobs a worker would otherwise take first, the page's "N ahead of this run"."""
        job = self.session.get(Job, job_id)
        if job is None or job.status != JobStatus.QUEUED.value:
            return None
        return int(self.session.scalar(select(func.count()).select_from(Job).where(
            Job.status == JobStatus.QUEUED.value, Job.created_at < job.created_at)) or 0)

    def recent_seconds(self, limit: int = 20) -> list[float]:
        """Wall times (start to finish) of the most recent finished jobs, newest first (the wait estimate)."""
        rows = self.session.execute(select(Job.started_at, Job.finished_at).where(
            Job.status == JobStatus.SUCCEEDED.value, Job.started_at.is_not(None), Job.finished_at.is_not(None))
            .order_by(Job.finished_at.desc()).limit(limit)).all()
        return [max((end - start).total_seconds(), 0.0) for start, end in rows if start and end]

