"""Executors: embedded (a process per job on this machine), Ray (a task per job on a cluster), inline (tests).

The Executor protocol, the inline executor and `make_executor` live here; the embedded executor in
backend/jobs/embedded/, the Ray one in backend/jobs/ray/.

An executor runs a job this server claimed (`submit`, called by the dispatcher only while `held()`
is shorter than `workers`), stops one (`cancel`), says which jobs it holds (`held`, for the lease
heartbeat and the dispatcher's count of free workers) and stops everything (`shutdown`, which ends
running jobs as interrupted and gives claimed, unstarted ones back to the queue).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from backend.jobs.embedded.executor import EmbeddedExecutor
from backend.jobs.outcome import execute
from backend.jobs.store import JobStore
from backend.registry import load_spec
from backend.settings import Settings
from models.common import Cancelled

__all__ = ["EmbeddedExecutor", "Executor", "InlineExecutor", "make_executor"]


class Executor(Protocol):
    """Runs jobs: `submit` hands one over, `cancel` asks it to stop, `shutdown` stops everything;
    `on_free` (set by the dispatcher) is called whenever a job leaves the executor."""

    name: str
    on_free: Callable[[], None]

    @property
    def workers(self) -> int: ...

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None: ...

    def cancel(self, job_id: str) -> None: ...

    def held(self) -> list[str]: ...

    def resources(self) -> dict[str, float]: ...

    def describe(self) -> dict[str, Any]: ...

    def shutdown(self) -> None: ...


class InlineExecutor:
    """Runs each job synchronously inside `submit` (tests and debugging only: no limits enforced)."""

    name = "inline"

    def __init__(self, store: JobStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._cancelled: set[str] = set()
        self._running: set[str] = set()  # heartbeated like any executor's jobs
        self.on_free: Callable[[], None] = lambda: None  # the synchronous dispatcher loops by itself

    @property
    def workers(self) -> int:
        return 1

    def resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def describe(self) -> dict[str, Any]:
        return {}

    def held(self) -> list[str]:
        return list(self._running)

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        if not self.store.start(job_id):
            return
        self._running.add(job_id)
        try:
            self._run(job_id, module, params)
        finally:
            self._running.discard(job_id)

    def _run(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        last = 0.0

        def progress(fraction: float, message: str = "") -> None:
            nonlocal last
            if job_id in self._cancelled:
                raise Cancelled()
            if time.monotonic() - last >= self.settings.progress_interval_s:
                last = time.monotonic()
                self.store.progress(job_id, fraction, message)

        outcome = execute(load_spec(module), params, progress, self.settings.job_memory_mb,
                          self.settings.max_result_mb)
        self.store.finish(job_id, outcome)

    def cancel(self, job_id: str) -> None:
        self._cancelled.add(job_id)

    def shutdown(self) -> None:
        pass


def make_executor(store: JobStore, settings: Settings, preload: list[str], gpu_available: bool = False) -> Executor:
    """The executor EXECUTOR names (RayExecutor raises RayUnavailable when the cluster is unreachable)."""
    if settings.executor == "inline":
        return InlineExecutor(store, settings)
    if settings.executor == "ray":
        from backend.jobs.ray.executor import RayExecutor

        return RayExecutor(store, settings)
    return EmbeddedExecutor(store, settings, preload, gpu_available)
