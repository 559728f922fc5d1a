"""Executors: the embedded one (one spawned process per job) and the inline one (tests)."""

from __future__ import annotations

import logging
import multiprocessing as mp
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from backend.jobs.outcome import Outcome, execute
from backend.jobs.store import JobStore
from backend.jobs.worker import worker_main
from backend.registry import load_spec
from backend.settings import Settings
from models.common import Cancelled

__all__ = ["EmbeddedExecutor", "Executor", "InlineExecutor", "make_executor"]

log = logging.getLogger(__name__)


class Executor(Protocol):
    """Runs jobs: `submit` hands one over, `cancel` asks it to stop, `shutdown` stops everything."""

    workers: int

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None: ...

    def cancel(self, job_id: str) -> None: ...

    def shutdown(self) -> None: ...


@dataclass
class _WarmProcess:
    process: BaseProcess
    conn: Connection


@dataclass
class _Running:
    cancel_at: float | None = None
    warm: _WarmProcess | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class EmbeddedExecutor:
    """One fresh process per job, at most `max_workers` at once, with time and memory limits."""

    def __init__(self, store: JobStore, settings: Settings, preload: list[str]) -> None:
        self.store = store
        self.settings = settings
        self.workers = settings.max_workers
        self._preload = preload
        # forkserver: a clean server process that has imported the method packages (and never touched
        # CUDA) forks each job process, so a job starts in milliseconds with everything loaded and is
        # still CUDA-safe; "spawn" starts every job from a fresh interpreter (slower, same isolation).
        self._context = mp.get_context(settings.start_method)
        if settings.start_method == "forkserver":
            self._context.set_forkserver_preload(["backend.jobs.worker", *preload])
        self._pool = ThreadPoolExecutor(max_workers=settings.max_workers, thread_name_prefix="job")
        self._running: dict[str, _Running] = {}
        self._warm: list[_WarmProcess] = []
        self._lock = threading.Lock()
        self._closed = False
        for _ in range(settings.warm_workers):
            self._warm.append(self._spawn())

    # processes
    def _spawn(self) -> _WarmProcess:
        parent, child = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=worker_main,
            args=(child, self._preload, self.settings.progress_interval_s, self.settings.job_threads),
            daemon=True,
        )
        process.start()
        child.close()
        return _WarmProcess(process, parent)

    def _take_process(self) -> _WarmProcess:
        with self._lock:
            warm = self._warm.pop(0) if self._warm else None
        if warm is None or not warm.process.is_alive():
            warm = self._spawn()
        if self.settings.warm_workers and not self._closed:
            threading.Thread(target=self._refill, daemon=True).start()
        return warm

    def _refill(self) -> None:
        spare = self._spawn()
        with self._lock:
            if self._closed or len(self._warm) >= self.settings.warm_workers:
                surplus = spare
            else:
                self._warm.append(spare)
                return
        _stop(surplus.process, 0)

    # interface
    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        self._running[job_id] = _Running()
        self._pool.submit(self._supervise, job_id, module, params)

    def cancel(self, job_id: str) -> None:
        running = self._running.get(job_id)
        if running is None:
            return
        with running.lock:
            if running.cancel_at is None:
                running.cancel_at = time.monotonic()
            if running.warm is not None:
                try:
                    running.warm.conn.send(("cancel",))
                except OSError:
                    pass

    def shutdown(self) -> None:
        self._closed = True
        for running in list(self._running.values()):
            if running.warm is not None:
                _stop(running.warm.process, 0)
        with self._lock:
            for warm in self._warm:
                _stop(warm.process, 0)
            self._warm.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # one job
    def _supervise(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        running = self._running[job_id]
        try:
            if not self.store.start(job_id):
                return  # cancelled while it waited in the queue
            self._run_in_process(job_id, module, params, running)
        except Exception:  # noqa: BLE001 - a supervisor bug must still close the job
            log.exception("supervising job %s failed", job_id)
            self.store.finish(job_id, Outcome("failed", error="internal error while running the job"))
        finally:
            self._running.pop(job_id, None)

    def _run_in_process(self, job_id: str, module: str, params: dict[str, Any], running: _Running) -> None:
        settings = self.settings
        warm = self._take_process()
        conn, process = warm.conn, warm.process
        deadline = time.monotonic() + settings.job_timeout_s
        try:
            while not conn.poll(0.05):  # the process says "ready" once its imports are done
                if not process.is_alive() or time.monotonic() > deadline:
                    raise RuntimeError("the job process did not start")
            conn.recv()
            conn.send(("job", module, params, settings.job_memory_mb, settings.max_result_mb))
            with running.lock:  # from here on, cancel() talks to the process directly
                running.warm = warm
                if running.cancel_at is not None:
                    conn.send(("cancel",))
            self._follow(job_id, warm, running, deadline)
        finally:
            _stop(process, 1.0)
            conn.close()

    def _follow(self, job_id: str, warm: _WarmProcess, running: _Running, deadline: float) -> None:
        conn, process = warm.conn, warm.process
        settings = self.settings
        last_cancel_check = time.monotonic()
        last_progress_write = 0.0
        pending_progress: tuple[float, str] | None = None
        while True:
            if conn.poll(0.05):
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is None:
                    self.store.finish(job_id, self._died(process, running))
                    return
                if message[0] == "progress":
                    pending_progress = (message[1], message[2])
                elif message[0] == "outcome":
                    self.store.finish(job_id, message[1])
                    return
            # The limits are checked on every pass, so a job that reports progress without pause
            # still times out and can still be cancelled.
            now = time.monotonic()
            if pending_progress is not None and now - last_progress_write >= settings.progress_interval_s:
                self.store.progress(job_id, *pending_progress)  # the newest only: throttled writes
                pending_progress, last_progress_write = None, now
            if now > deadline:
                _stop(process, 1.0)
                self.store.time_out(job_id, settings.job_timeout_s)
                return
            if now - last_cancel_check > 0.5:  # a cancel sent to another server process
                last_cancel_check = now
                if running.cancel_at is None and self.store.cancel_requested(job_id):
                    self.cancel(job_id)
            if running.cancel_at is not None and now - running.cancel_at > settings.cancel_grace_s:
                _stop(process, 0.5)
                self.store.finish(job_id, Outcome("cancelled"))
                return
            if not process.is_alive() and not conn.poll(0):
                self.store.finish(job_id, self._died(process, running))
                return

    def _died(self, process: BaseProcess, running: _Running) -> Outcome:
        process.join(0.5)
        if running.cancel_at is not None:
            return Outcome("cancelled")
        code = process.exitcode
        return Outcome(
            "failed",
            error=f"the job process stopped unexpectedly (exit code {code}); it may have exceeded "
            f"its memory limit of {self.settings.job_memory_mb} MB",
        )


class InlineExecutor:
    """Runs each job synchronously inside `submit` (tests and debugging only: no limits enforced)."""

    def __init__(self, store: JobStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.workers = 1
        self._cancelled: set[str] = set()

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        if not self.store.start(job_id):
            return
        last = 0.0

        def progress(fraction: float, message: str = "") -> None:
            nonlocal last
            if job_id in self._cancelled:
                raise Cancelled()
            if time.monotonic() - last >= self.settings.progress_interval_s:
                last = time.monotonic()
                self.store.progress(job_id, fraction, message)

        outcome = execute(load_spec(module), params, progress, max_result_mb=self.settings.max_result_mb)
        self.store.finish(job_id, outcome)

    def cancel(self, job_id: str) -> None:
        self._cancelled.add(job_id)

    def shutdown(self) -> None:
        pass


def make_executor(store: JobStore, settings: Settings, preload: list[str]) -> Executor:
    if settings.executor == "inline":
        return InlineExecutor(store, settings)
    return EmbeddedExecutor(store, settings, preload)


def _stop(process: BaseProcess, grace_s: float) -> None:
    """Terminate, then kill, a process that is still alive."""
    if process.is_alive():
        process.terminate()
        process.join(grace_s)
    if process.is_alive():
        process.kill()
        process.join(1.0)
