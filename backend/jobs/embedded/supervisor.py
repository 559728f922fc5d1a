"""The supervisor: watches one job process and returns a typed outcome for every way it can end.

Endings: succeeded, failed (with the method's message), timed out, cancelled, killed by signal N,
exited with code N, out of memory, interrupted by a server shutdown. It also forwards progress
(throttled, and a failed write never stops the watch) and measures the job's resident memory.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from backend.jobs.embedded.messages import Cancel, Finished, Progress, RunJob
from backend.jobs.embedded.pool import JobProcess
from backend.jobs.limits import DEADLINE_EXIT_CODE, JobLimits, tree_rss_mb
from backend.jobs.outcome import Outcome
from backend.jobs.store import JobStore

__all__ = ["JobWatch", "Supervisor", "describe_exit"]

log = logging.getLogger(__name__)

MEMORY_SAMPLE_S = 0.1  # how often the job's resident memory is measured
CANCEL_POLL_S = 0.5  # how often the job row is read for a cancel sent to another server process


@dataclass
class JobWatch:
    """The executor's handle on one job: a cancel request and, once started, its process."""

    cancel_at: float | None = None
    process: JobProcess | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def request_cancel(self) -> None:
        with self.lock:
            if self.cancel_at is None:
                self.cancel_at = time.monotonic()
            if self.process is not None:
                try:
                    self.process.conn.send(Cancel())
                except (OSError, ValueError):
                    pass


def describe_exit(exitcode: int | None) -> str:
    """`killed by signal 9 (SIGKILL)` / `exited with code 3` for a process's exit status."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = "unknown signal"
        return f"the job process was killed by signal {-exitcode} ({name})"
    return f"the job process exited with code {exitcode} without a result"


class Supervisor:
    """Runs one job in one process to its end; `closing` is set when the server shuts down."""

    def __init__(self, store: JobStore, limits: JobLimits, cancel_grace_s: float, progress_interval_s: float,
                 closing: threading.Event) -> None:
        self.store = store
        self.limits = limits
        self.cancel_grace_s = cancel_grace_s
        self.progress_interval_s = progress_interval_s
        self.closing = closing

    def run(self, job_id: str, job_process: JobProcess, module: str, params: dict[str, Any], watch: JobWatch,
            limits: JobLimits | None = None) -> Outcome:
        """Send the job to the (ready) process and follow it; returns how it ended. The caller stops the
        process once the outcome is stored (a finished job is recorded before its process has exited)."""
        limits = limits or self.limits
        baseline_mb = tree_rss_mb(job_process.pid)  # what the job adds on top is what counts
        try:
            job_process.conn.send(RunJob(module, params, limits))
            with watch.lock:  # from here on, cancel() talks to the process directly
                watch.process = job_process
                if watch.cancel_at is not None:
                    job_process.conn.send(Cancel())
            return self._follow(job_id, job_process, watch, limits, baseline_mb)
        except (OSError, EOFError, ValueError):  # the process died before or while it took the job
            job_process.stop(0.5)
            return self._ended(job_process, watch, limits, memory_mb=0.0)

    def _follow(self, job_id: str, job_process: JobProcess, watch: JobWatch, limits: JobLimits,
                baseline_mb: float) -> Outcome:
        conn, process = job_process.conn, job_process.process
        started = time.monotonic()
        deadline = started + limits.timeout_s
        last_cancel_check = last_memory_check = started
        last_progress_write = 0.0
        pending: tuple[float, str] | None = None
        used_mb = 0.0
        while True:
            if conn.poll(0.05):
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    return self._ended(job_process, watch, limits, used_mb)
                if isinstance(message, Progress):
                    pending = (message.fraction, message.message)
                elif isinstance(message, Finished):
                    return message.outcome
            # Every limit is checked on every pass, so a job flooding progress is still stopped.
            now = time.monotonic()
            if pending is not None and now - last_progress_write >= self.progress_interval_s:
                if self.store.progress(job_id, *pending):  # a failed write keeps the value for the next pass
                    pending = None
                last_progress_write = now
            if now - last_memory_check >= MEMORY_SAMPLE_S:
                last_memory_check = now
                used_mb = max(tree_rss_mb(job_process.pid) - baseline_mb, 0.0)
                if used_mb > limits.memory_mb:
                    job_process.stop(0.0)
                    return Outcome.out_of_memory(used_mb, limits.memory_mb)
            if now > deadline:
                job_process.stop(1.0)
                return Outcome.timed_out(limits.timeout_s)
            if self.closing.is_set():
                job_process.stop(0.5)
                return Outcome.interrupted()
            if now - last_cancel_check > CANCEL_POLL_S:  # a cancel sent to another server process
                last_cancel_check = now
                if watch.cancel_at is None and self.store.cancel_requested(job_id):
                    watch.request_cancel()
            if watch.cancel_at is not None and now - watch.cancel_at > self.cancel_grace_s:
                job_process.stop(0.5)
                return Outcome.cancelled()
            if not process.is_alive() and not conn.poll(0):
                return self._ended(job_process, watch, limits, used_mb)

    def _ended(self, job_process: JobProcess, watch: JobWatch, limits: JobLimits, memory_mb: float) -> Outcome:
        """The process is gone without an outcome: name why, from what we know and its exit status."""
        job_process.process.join(0.5)
        code = job_process.process.exitcode
        if self.closing.is_set():
            return Outcome.interrupted()
        if watch.cancel_at is not None:
            return Outcome.cancelled()
        if code == DEADLINE_EXIT_CODE:
            return Outcome.timed_out(limits.timeout_s)
        if code == -signal.SIGKILL and memory_mb > 0.9 * limits.memory_mb:
            return Outcome.out_of_memory(memory_mb, limits.memory_mb)  # the kernel's OOM killer, most likely
        return Outcome.failed(describe_exit(code))
