"""What runs on a Ray worker: one job, with progress to the backend's board actor and its own limits.

Workers never touch the database: progress goes to the `ProgressBoard` actor of the backend that
submitted the job (which drains it into the job row), and the outcome is the task's return value
(which the backend stores). A watchdog thread measures the job's resident memory and stops the
worker past the limit, and past the job's own deadline, so a job never outlives its limits even
when the backend that watched it is gone.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from backend.jobs.limits import DEADLINE_EXIT_CODE, JobLimits, limit_threads, tree_rss_mb
from backend.jobs.outcome import Outcome, execute, warm_up_figures

__all__ = ["ProgressBoard", "run_job_task"]

MEMORY_SAMPLE_S = 0.1
OOM_EXIT_CODE = 137


class ProgressBoard:
    """A Ray actor (one per backend instance): jobs post progress and notes, the backend drains them."""

    def __init__(self) -> None:
        self._progress: dict[str, tuple[float, str]] = {}
        self._notes: dict[str, dict[str, Any]] = {}

    def started(self, job_id: str, pid: int, node: str) -> None:
        self._notes.setdefault(job_id, {}).update(started=True, pid=pid, node=node)

    def report(self, job_id: str, fraction: float, message: str) -> None:
        self._progress[job_id] = (fraction, message)

    def note(self, job_id: str, **values: Any) -> None:
        self._notes.setdefault(job_id, {}).update(values)

    def drain(self) -> tuple[dict[str, tuple[float, str]], dict[str, dict[str, Any]]]:
        """The newest progress of each job since the last drain, and every job's notes so far."""
        progress, self._progress = self._progress, {}
        return progress, dict(self._notes)

    def forget(self, job_id: str) -> None:
        self._progress.pop(job_id, None)
        self._notes.pop(job_id, None)


def _watchdog(job_id: str, board: Any, limits: JobLimits, done: threading.Event) -> None:
    """Stop this worker past the memory limit (after noting it on the board) or past the deadline."""
    import ray

    pid = os.getpid()
    baseline = tree_rss_mb(pid)
    deadline = time.monotonic() + limits.timeout_s + limits.own_deadline_slack_s
    while not done.wait(MEMORY_SAMPLE_S):
        used = tree_rss_mb(pid) - baseline
        if used > limits.memory_mb:
            try:
                ray.get(board.note.remote(job_id, out_of_memory_mb=round(used)), timeout=5)
            finally:
                os._exit(OOM_EXIT_CODE)
        if time.monotonic() > deadline:
            try:
                ray.get(board.note.remote(job_id, exit_code=DEADLINE_EXIT_CODE), timeout=5)
            finally:
                os._exit(DEADLINE_EXIT_CODE)


def run_job_task(job_id: str, module: str, params: dict[str, Any], limits: JobLimits, board: Any,
                 progress_interval_s: float, threads: int) -> Outcome:
    """Run one job inside a Ray worker and return its outcome (never raises for a method's error)."""
    import ray

    from backend.registry import load_spec

    node = ray.get_runtime_context().get_node_id()
    try:
        spec = load_spec(module)  # imports do not count against the time limit (as in the forkserver)
        warm_up_figures()
    except Exception as exc:  # noqa: BLE001
        ray.get(board.started.remote(job_id, os.getpid(), node), timeout=60)
        return Outcome.failed(f"the method could not be loaded on the Ray worker: {type(exc).__name__}: {exc}")
    # Waiting for the board here also connects this worker to it before the job's clock starts (a
    # cold worker's first actor call can take seconds on a busy machine).
    ray.get(board.started.remote(job_id, os.getpid(), node), timeout=60)
    limit_threads(threads)
    done = threading.Event()
    threading.Thread(target=_watchdog, args=(job_id, board, limits, done), name="job-watchdog", daemon=True).start()
    last_sent = 0.0

    def progress(fraction: float, message: str = "") -> None:
        nonlocal last_sent
        now = time.monotonic()
        if now - last_sent >= progress_interval_s:
            last_sent = now
            board.report.remote(job_id, float(fraction), str(message))

    try:
        return execute(spec, params, progress, limits.memory_mb, limits.max_result_mb)
    finally:
        done.set()
