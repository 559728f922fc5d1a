"""Job leases: each server instance heartbeats the jobs it holds and marks expired ones interrupted.

A job is leased by the instance that accepted it (its id and a heartbeat time on the job row).
Start-up recovery and this periodic sweep mark only jobs whose heartbeat is older than the lease,
so a second server on the same database never touches the first one's running jobs, while the jobs
of a dead server (or of a supervisor that lost track of a job) end as "interrupted" within about
one lease.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable

from backend.jobs.store import JobStore

__all__ = ["LeaseKeeper", "new_instance_id"]

log = logging.getLogger(__name__)


def new_instance_id() -> str:
    """host-pid-random: unique per server process, readable in the job row."""
    return f"{socket.gethostname()[:32]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


class LeaseKeeper:
    """A daemon thread: every lease/3, renew the held jobs' heartbeat and reap expired leases."""

    def __init__(self, store: JobStore, instance_id: str, lease_s: float, held: Callable[[], list[str]]) -> None:
        self.store = store
        self.instance_id = instance_id
        self.lease_s = lease_s
        self._held = held
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="job-leases", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def beat(self) -> None:
        """One renewal and one sweep (failures are logged and retried on the next beat)."""
        try:
            self.store.heartbeat(self.instance_id, self._held())
            reaped = self.store.reap_expired(self.lease_s)
            if reaped:
                log.warning("marked %d job(s) with an expired lease as interrupted", reaped)
        except Exception:  # noqa: BLE001 - a locked or unreachable database: try again next beat
            log.warning("job lease renewal failed; retrying", exc_info=True)

    def _run(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            self.beat()
