"""The job processes: forked from a preloaded forkserver (or spawned), with warm spares kept ready."""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from backend.jobs.embedded.messages import Ready
from backend.jobs.embedded.worker import worker_main

__all__ = ["JobProcess", "ProcessPool", "ProcessStartError"]

log = logging.getLogger(__name__)


class ProcessStartError(RuntimeError):
    """A job process died or hung before it said it was ready."""


@dataclass
class JobProcess:
    """One job process and the server's end of its pipe; `stop()` ends both."""

    process: BaseProcess
    conn: Connection

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the process has imported everything and said "ready"."""
        deadline = time.monotonic() + timeout_s
        while not self.conn.poll(0.05):
            if not self.process.is_alive() or time.monotonic() > deadline:
                raise ProcessStartError("the job process did not start")
        try:
            message = self.conn.recv()
        except (EOFError, OSError):
            raise ProcessStartError("the job process did not start") from None
        if not isinstance(message, Ready):
            raise ProcessStartError(f"the job process said {type(message).__name__} instead of ready")

    def stop(self, grace_s: float = 0.0) -> None:
        """Terminate, then kill, the process if it still runs; close the pipe (idempotent)."""
        process = self.process
        if process.is_alive():
            process.terminate()
            process.join(grace_s)
        if process.is_alive():
            process.kill()
            process.join(1.0)
        self.conn.close()


class ProcessPool:
    """Hands out fresh job processes; keeps `warm` of them started ahead of time.

    forkserver: a clean server process that has imported the method packages (and never touched
    CUDA) forks each job process, so a job starts in milliseconds with everything loaded and is
    still CUDA-safe; "spawn" starts every job from a fresh interpreter (slower, same isolation).
    Every process is used for exactly one job."""

    def __init__(self, start_method: str, preload: list[str], warm: int, progress_interval_s: float,
                 threads: int) -> None:
        self._context = mp.get_context(start_method)
        if start_method == "forkserver":
            self._context.set_forkserver_preload(["backend.jobs.embedded.worker", "backend.jobs.outcome", "plotly.graph_objects",
                                                  *preload])
        self._preload = preload
        self._warm_target = warm
        self._progress_interval_s = progress_interval_s
        self._threads = threads
        self._warm: list[JobProcess] = []
        self._lock = threading.Lock()
        self._closed = False
        # Job processes ask for SIGKILL when the thread that started them ends (PR_SET_PDEATHSIG is
        # per thread), so every process is started by this one long-lived thread, never by a
        # short-lived refill thread.
        self._requests: queue.SimpleQueue[Future[JobProcess] | None] = queue.SimpleQueue()
        self._starter = threading.Thread(target=self._serve_starts, name="pool-starter", daemon=True)
        self._starter.start()
        for _ in range(warm):
            self._warm.append(self.spawn())

    def spawn(self) -> JobProcess:
        """Start one job process (it imports the preloaded packages, then waits for its job)."""
        request: Future[JobProcess] = Future()
        self._requests.put(request)
        return request.result()

    def _serve_starts(self) -> None:
        while (request := self._requests.get()) is not None:
            try:
                request.set_result(self._start())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                request.set_exception(exc)

    def _start(self) -> JobProcess:
        parent, child = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=worker_main, args=(child, self._preload, self._progress_interval_s, self._threads, os.getpid()),
            daemon=True,
        )
        process.start()
        child.close()
        return JobProcess(process, parent)

    def take(self) -> JobProcess:
        """A started process: a live warm spare when there is one, else a new one; refills the spares."""
        with self._lock:
            spare = self._warm.pop(0) if self._warm else None
        if spare is not None and not spare.process.is_alive():
            spare.stop()  # a dead spare: reap it and close its pipe
            spare = None
        job_process = spare or self.spawn()
        if self._warm_target and not self._closed:
            threading.Thread(target=self._refill, name="pool-refill", daemon=True).start()
        return job_process

    def warm_count(self) -> int:
        with self._lock:
            return len(self._warm)

    def _refill(self) -> None:
        spare = self.spawn()
        with self._lock:
            if not self._closed and len(self._warm) < self._warm_target:
                self._warm.append(spare)
                return
        spare.stop()

    def close(self) -> None:
        """Stop the spares; processes already handed out belong to their supervisors."""
        self._closed = True
        with self._lock:
            spares, self._warm = self._warm, []
        for spare in spares:
            spare.stop()
        self._requests.put(None)
