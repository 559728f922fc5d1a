"""The admin overview of a shared instance: queue depth, running jobs, jobs per identity, failures."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel
from sqlalchemy import case, func, select

from backend.api.auth import CallerDep
from backend.api.deps import SessionDep
from backend.api.schemas import ERROR_RESPONSES, JobListItem
from db.identities import IdentityRepository
from db.jobs import JobStatus
from db.tables import Job, utcnow

router = APIRouter(prefix="/api/admin", tags=["admin"], responses=ERROR_RESPONSES)


class OwnerLoad(BaseModel):
    owner: str
    name: str
    active: int
    last_day: int


class AdminOverview(BaseModel):
    queued: int
    running: int
    owners: list[OwnerLoad]
    failures_last_day: list[JobListItem]
    active_jobs: list[JobListItem]


@router.get("/overview", response_model=AdminOverview, summary="Queue, running jobs, load per identity, failures")
def overview(session: SessionDep, caller: CallerDep) -> AdminOverview:
    if not caller.admin:
        raise HTTPException(404, "not found")
    from backend.api.jobs import _list_item

    day_ago = utcnow() - timedelta(days=1)
    counts = dict(session.execute(select(Job.status, func.count()).group_by(Job.status)).all())
    active_status = (JobStatus.QUEUED.value, JobStatus.RUNNING.value)
    per_owner = session.execute(
        select(Job.owner, func.count(), func.sum(case((Job.status.in_(active_status), 1), else_=0)))
        .where(Job.created_at >= day_ago).group_by(Job.owner).order_by(func.count().desc()).limit(50)).all()
    names = IdentityRepository(session).names([row[0] for row in per_owner])
    failures = session.scalars(select(Job).where(Job.created_at >= day_ago, Job.status.in_(
        (JobStatus.FAILED.value, JobStatus.TIMED_OUT.value))).order_by(Job.created_at.desc()).limit(50)).all()
    active = session.scalars(select(Job).where(Job.status.in_(active_status)).order_by(Job.created_at).limit(100)).all()
    return AdminOverview(
        queued=int(counts.get(JobStatus.QUEUED.value, 0)), running=int(counts.get(JobStatus.RUNNING.value, 0)),
        owners=[OwnerLoad(owner=row[0], name=names.get(row[0], row[0] or "local"), last_day=int(row[1]),
                          active=int(row[2] or 0)) for row in per_owner],
        failures_last_day=[_list_item(job) for job in failures], active_jobs=[_list_item(job) for job in active])
