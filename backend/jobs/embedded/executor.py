"""The embedded executor: one fresh process per job on this machine, from the forkserver pool, each watched
by a Supervisor (the default, EXECUTOR=embedded)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from backend.jobs.embedded.pool import ProcessPool, ProcessStartError
from backend.jobs.embedded.supervisor import JobWatch, Supervisor
from backend.jobs.limits import JobLimits
from backend.jobs.outcome import Outcome
from backend.jobs.store import JobStore
from backend.registry import load_spec
from backend.settings import Settings
from models.common import Requirements

__all__ = ["EmbeddedExecutor", "job_limits", "no_gpu_message"]

log = logging.getLogger(__name__)

PROCESS_START_TIMEOUT_S = 120.0  # a spawned job process imports torch & co. on a busy machine


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
