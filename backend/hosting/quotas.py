"""Job quotas: per identity (jobs at once, jobs per hour), per client address (jobs at once, over all the
anonymous sessions opened from it) and for the whole queue."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, timedelta

from sqlalchemy.orm import Session

from backend.settings import Settings
from db.jobs import JobRepository
from db.tables import Identity, utcnow

__all__ = ["QuotaExceeded", "admit"]


@dataclass
class QuotaExceeded(Exception):
    """A submission over a quota: answered 429 with `detail` and a Retry-After of `retry_after_s`."""

    detail: str
    retry_after_s: int


def admit(session: Session, owner: str, admin: bool, settings: Settings) -> None:
    """Raise QuotaExceeded when this submission would pass a limit; admins pass the per-identity ones.

    The global queue cap holds in both modes (a full queue makes everyone wait); the per-identity
    quotas only in the shared mode, where identities exist."""
    repo = JobRepository(session)
    queued = repo.count_queued()
    if queued >= settings.max_queued_jobs:
        raise QuotaExceeded(f"the server's queue is full ({queued} jobs waiting); try again in a minute", 30)
    if not settings.shared or admin:
        return
    active = repo.count_active(owner)
    if active >= settings.quota_concurrent_jobs:
        raise QuotaExceeded(f"you already have {active} jobs queued or running (the limit is "
                            f"{settings.quota_concurrent_jobs}); wait for one to finish or cancel one", 5)
    identity = session.get(Identity, owner)
    if identity is not None and identity.kind == "anonymous" and identity.client_address:
        held = repo.count_active_from_address(identity.client_address)
        if held >= settings.quota_jobs_per_address:
            raise QuotaExceeded(f"your address already has {held} jobs queued or running (the limit is "
                                f"{settings.quota_jobs_per_address} per address); wait for one to finish", 10)
    hour_ago = utcnow() - timedelta(hours=1)
    submitted, oldest = repo.submitted_since(owner, hour_ago)
    if submitted >= settings.quota_jobs_per_hour:
        if oldest is not None and oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=UTC)
        wait = 60 if oldest is None else max(1, math.ceil((oldest - hour_ago).total_seconds()))
        raise QuotaExceeded(f"you submitted {submitted} jobs in the last hour (the limit is "
                            f"{settings.quota_jobs_per_hour}); try again in {wait} s", wait)
