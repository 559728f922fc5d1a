"""The dispatcher: takes queued jobs from the database and hands them to this server's executor.

The queue is the jobs table, shared by every server on the database. Each server's dispatcher claims
the oldest unclaimed queued jobs (`JobStore.claim`: `FOR UPDATE SKIP LOCKED` on PostgreSQL) only
when its executor has a free worker, so a busy server leaves its waiting jobs to an idle one. A
submission on this server, or a job leaving its executor, wakes its dispatcher at once; jobs
accepted by other servers are found by a poll every `DISPATCH_POLL_S`.

With the inline executor (tests) there is no thread: `wake` dispatches synchronously in the caller.
"""

from __future__ import annotations

import logging
import threading

from backend.jobs.executors import Executor
from backend.jobs.store import JobStore
from backend.registry import Registry

__all__ = ["Dispatcher"]

log = logging.getLogger(__name__)


class Dispatcher:
    """Claims queued jobs while this server's executor has room, and hands them over."""

    def __init__(self, store: JobStore, executor: Executor, registry: Registry, poll_s: float,
                 threaded: bool = True) -> None:
        self.store = store
        self.executor = executor
        self._modules = {method.spec.name: method.module for method in registry.ordered()}  # what it may claim
        self.poll_s = poll_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()  # one pump at a time (thread and synchronous callers)
        self._thread = threading.Thread(target=self._run, name="job-dispatch", daemon=True) if threaded else None
        if threaded:
            executor.on_free = self.wake  # a finished job frees a worker: take the next queued job at once

    def start(self) -> None:
        if self._thread is not None:
            self._thread.start()

    def stop(self) -> None:
        """No more claims (called before the executor shuts down)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(10)

    def wake(self) -> None:
        """A job was stored here: look now (synchronously when there is no dispatcher thread)."""
        if self._thread is None:
            self.pump()
        else:
            self._wake.set()

    def pump(self) -> int:
        """Claim as many queued jobs as the executor has free workers and hand them over; how many."""
        handed = 0
        with self._lock:
            while not self._stop.is_set():
                free = self.executor.workers - len(self.executor.held())
                if free <= 0:
                    break
                claimed = self.store.claim(list(self._modules), free)
                for job in claimed:
                    self.executor.submit(job.id, self._modules[job.method], job.params)
                handed += len(claimed)
                if len(claimed) < free:
                    break
        return handed

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.pump()
            except Exception:  # noqa: BLE001 - a bad pass must not stop the queue
                log.exception("dispatching queued jobs failed; trying again on the next pass")
