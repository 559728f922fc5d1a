"""Start and stop the job machinery of one server instance: recovery, executor, dispatcher, leases."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.dispatch import Dispatcher
from backend.jobs.executors import Executor, make_executor
from backend.jobs.lease import LeaseKeeper, new_instance_id
from backend.jobs.service import JobService
from backend.jobs.store import JobStore
from backend.registry import Registry
from backend.settings import Settings

__all__ = ["JobRuntime", "start_jobs"]

log = logging.getLogger(__name__)


@dataclass
class JobRuntime:
    """The instance id, the store, the executor, the dispatcher and the lease keeper of one server process."""

    instance_id: str
    store: JobStore
    executor: Executor
    dispatcher: Dispatcher
    leases: LeaseKeeper
    service: JobService  # submit, cancel and read jobs through this server's executor and dispatcher

    def shutdown(self) -> None:
        """Stop claiming, stop the executor (running jobs end as interrupted, claimed ones that never
        started go back to the queue), then the heartbeat."""
        try:
            self.dispatcher.stop()
            self.executor.shutdown()
        finally:
            self.leases.stop()


def start_jobs(settings: Settings, sessions: sessionmaker[Session], registry: Registry, preload: list[str],
               gpu_available: bool) -> JobRuntime:
    """Mark jobs with an expired lease as interrupted, start the executor, the dispatcher and the heartbeat.

    Jobs another live server holds (a fresh heartbeat) are left alone; queued jobs wait in the
    database for any server's dispatcher. Raises RayUnavailable when EXECUTOR=ray and the cluster
    cannot be reached."""
    instance_id = new_instance_id()
    store = JobStore(sessions, instance_id=instance_id, retry_s=settings.db_retry_s)
    recovered = store.reap_expired(settings.job_lease_s)
    if recovered:
        log.warning("marked %d job(s) left by a stopped server as interrupted", recovered)
    executor = make_executor(store, settings, preload, gpu_available)
    leases = LeaseKeeper(store, instance_id, settings.job_lease_s, executor.held)
    leases.start()
    dispatcher = Dispatcher(store, executor, registry, settings.dispatch_poll_s, threaded=executor.name != "inline")
    dispatcher.start()
    dispatcher.wake()  # jobs left queued by a stopped server, or accepted by another one
    service = JobService(registry, executor, sessions, wake=dispatcher.wake,
                         check_budget_s=settings.check_budget_ms / 1000)
    return JobRuntime(instance_id, store, executor, dispatcher, leases, service)
