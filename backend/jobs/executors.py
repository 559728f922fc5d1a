"""Executors: embedded (a process per job on this machine), Ray (a task per job on a cluster), inline (tests).

An executor runs a job this server claimed (`submit`, called by the dispatcher only while `held()`
is shorter than `workers`), stops one (`cancel`), says which jobs it holds (`held`, for the lease
heartbeat and the dispatcher's count of free workers) and stops everything (`shutdown`, which ends
running jobs as interrupted and gives claimed, unstarted ones back to the queue).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from backend.jobs.limits import JobLimits
from backend.jobs.outcome import Outcome, execute
from backend.jobs.pool import ProcessPool, ProcessStartError
from backend.jobs.store import JobStore
from backend.jobs.supervisor import JobWatch, Supervisor
from backend.registry import load_spec
from backend.settings import Settings
from models.common import Cancelled, Requirements

__all__ = ["EmbeddedExecutor", "Executor", "InlineExecutor", "make_executor", "no_gpu_message"]

log = logging.getLogger(__name__)

PROCESS_START_TIMEOUT_S = 120.0  # a spawned job process imports torch & co. on a busy machine


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


def no_gpu_message(requirements: Requirements) -> str:
    return (f"this method needs {requirements.gpus:g} GPU(s) and this server has none (torch sees no CUDA "
            "device); run it on a server with a GPU, or with EXECUTOR=ray on a cluster with GPU workers")


def job_limits(settings: Settings, requirements: Requirements) -> JobLimits:
    """The limits of one job: the method's declared memory or JOB_MEMORY_MB; RLIMIT_AS only for CPU jobs."""
    memory_mb = requirements.memory_mb or settings.job_memory_mb
    backstop = settings.job_address_space_mb if requirements.gpus == 0 else 0
    return JobLimits(timeout_s=settings.job_timeout_s, memory_mb=memory_mb, max_result_mb=settings.max_result_mb,
                     address_space_mb=backstop)


class EmbeddedExecutor:
    """One fresh process per job, at most `max_workers` at once, each watched by a Supervisor."""

    name = "embedded"

    def __init__(self, store: JobStore, settings: Settings, preload: list[str], gpu_available: bool = False) -> None:
        self.store = store
        self.settings = settings
        self.gpu_available = gpu_available
        self._pool = ProcessPool(settings.start_method, preload, settings.warm_workers, settings.progress_interval_s,
                                 settings.job_threads)
        self._threads = ThreadPoolExecutor(max_workers=settings.max_workers, thread_name_prefix="job")
        self._closing = threading.Event()
        self._supervisor = Supervisor(store, job_limits(settings, Requirements()), settings.cancel_grace_s,
                                      settings.progress_interval_s, self._closing)
        self._watches: dict[str, JobWatch] = {}
        self._lock = threading.Lock()
        self.on_free: Callable[[], None] = lambda: None

    @property
    def workers(self) -> int:
        return self.settings.max_workers

    def resources(self) -> dict[str, float]:
        return {"CPU": float(self.settings.max_workers * self.settings.job_threads),
                "GPU": 1.0 if self.gpu_available else 0.0, "memory_mb": float(self.settings.job_memory_mb)}

    def describe(self) -> dict[str, Any]:
        return {"start_method": self.settings.start_method, "warm_processes": self._pool.warm_count()}

    def held(self) -> list[str]:
        with self._lock:
            return list(self._watches)

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        with self._lock:
            self._watches[job_id] = JobWatch()
        self._threads.submit(self._run, job_id, module, params)

    def cancel(self, job_id: str) -> None:
        with self._lock:
            watch = self._watches.get(job_id)
        if watch is not None:
            watch.request_cancel()

    def shutdown(self) -> None:
        """Running jobs end as interrupted (their supervisors see `closing`); claimed jobs that never
        started go back to the database queue, for the next server (or this one after a restart)."""
        self._closing.set()
        self._threads.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            left = list(self._watches)
            self._watches.clear()
        if left:  # claimed jobs whose thread never started
            self.store.release(left)
        self._pool.close()

    def _run(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        try:
            if self._closing.is_set() or not self.store.start(job_id):
                return  # shutting down, or cancelled while it waited in the queue
            self.store.finish(job_id, self._supervise(job_id, module, params))
        except Exception:  # noqa: BLE001 - a supervisor bug must still close the job
            log.exception("supervising job %s failed", job_id)
            self.store.finish(job_id, Outcome.failed("internal error while running the job"))
        finally:
            with self._lock:
                watch = self._watches.pop(job_id, None)
            if watch is not None and watch.process is not None:
                watch.process.stop(1.0)
            self.on_free()

    def _supervise(self, job_id: str, module: str, params: dict[str, Any]) -> Outcome:
        requirements = load_spec(module).requirements
        if requirements.gpus > 0 and not self.gpu_available:
            return Outcome.failed(no_gpu_message(requirements))
        with self._lock:
            watch = self._watches[job_id]
        job_process = self._pool.take()
        try:
            job_process.wait_ready(PROCESS_START_TIMEOUT_S)  # imports do not count against the job's limit
        except ProcessStartError as exc:
            job_process.stop()
            return Outcome.failed(str(exc))
        return self._supervisor.run(job_id, job_process, module, params, watch,
                                    job_limits(self.settings, requirements))


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
        from backend.jobs.ray_executor import RayExecutor

        return RayExecutor(store, settings)
    return EmbeddedExecutor(store, settings, preload, gpu_available)
