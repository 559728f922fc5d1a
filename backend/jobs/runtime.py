"""Start and stop the job machinery of one server instance: recovery, executor, leases."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.executors import Executor, make_executor
from backend.jobs.lease import LeaseKeeper, new_instance_id
from backend.jobs.store import JobStore
from backend.settings import Settings

__all__ = ["JobRuntime", "start_jobs"]

log = logging.getLogger(__name__)


@dataclass
class JobRuntime:
    """The instance id, the store, the executor and the lease keeper of one server process."""

    instance_id: str
    store: JobStore
    executor: Executor
    leases: LeaseKeeper

    def shutdown(self) -> None:
        """Stop the executor (running jobs end as interrupted), then the heartbeat."""
        try:
            self.executor.shutdown()
        finally:
            self.leases.stop()


def start_jobs(settings: Settings, sessions: sessionmaker[Session], preload: list[str],
               gpu_available: bool) -> JobRuntime:
    """Mark jobs with an expired lease as interrupted, start the executor and the heartbeat.

    Jobs another live server holds (a fresh heartbeat) are left alone; raises RayUnavailable when
    EXECUTOR=ray and the cluster cannot be reached."""
    instance_id = new_instance_id()
    store = JobStore(sessions, instance_id=instance_id, retry_s=settings.db_retry_s)
    recovered = store.reap_expired(settings.job_lease_s)
    if recovered:
        log.warning("marked %d job(s) left by a stopped server as interrupted", recovered)
    executor = make_executor(store, settings, preload, gpu_available)
    leases = LeaseKeeper(store, instance_id, settings.job_lease_s, executor.held)
    leases.start()
    return JobRuntime(instance_id, store, executor, leases)
