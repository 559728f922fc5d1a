"""Entry point of a job process: wait for one job, run it, report back, exit.

The process is started ahead of time (warm) with the method packages already imported, so a job
pays neither interpreter start-up nor import time; it still gets a fresh process of its own. It
dies with the server (PR_SET_PDEATHSIG, and a watchdog that notices a new parent) and stops itself
past its own deadline, so no job outlives a killed server or runs on without a time limit.
"""

from __future__ import annotations

import os
import threading
import time
from multiprocessing.connection import Connection

from backend.jobs.limits import (
    die_with_parent,
    limit_address_space,
    limit_threads,
    release_forkserver_lifeline,
    watch_parent_and_deadline,
)

__all__ = ["worker_main"]


def worker_main(conn: Connection, preload: list[str], progress_interval_s: float, threads: int = 1,
                server_pid: int | None = None) -> None:
    """Serve exactly one job received over `conn` (`server_pid`: the server this job dies with)."""
    die_with_parent()
    release_forkserver_lifeline()
    parent = os.getppid()
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    import importlib

    from backend.jobs.embedded.messages import Cancel, Finished, Progress, Ready, RunJob
    from backend.jobs.outcome import Outcome, execute, warm_up_figures
    from backend.registry import load_spec
    from models.common import Cancelled

    for module_name in preload:
        try:
            importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - the job that needs it will report the import error
            pass
    warm_up_figures()
    conn.send(Ready())
    try:
        job = conn.recv()
    except (EOFError, OSError):
        return  # the server went away (or stopped a spare)
    if not isinstance(job, RunJob):
        return
    limits = job.limits
    deadline = time.monotonic() + limits.timeout_s + limits.own_deadline_slack_s
    threading.Thread(target=watch_parent_and_deadline, args=(deadline, parent, server_pid), name="job-watchdog",
                     daemon=True).start()
    limit_threads(threads)
    if limits.address_space_mb:
        limit_address_space(limits.address_space_mb)
    last_sent = 0.0

    def progress(fraction: float, message: str = "") -> None:
        nonlocal last_sent
        if conn.poll():
            if isinstance(conn.recv(), Cancel):
                raise Cancelled()
        now = time.monotonic()
        if now - last_sent >= progress_interval_s:
            last_sent = now
            conn.send(Progress(float(fraction), str(message)))

    try:
        spec = load_spec(job.module)
    except Exception as exc:  # noqa: BLE001
        conn.send(Finished(Outcome.failed(f"the method could not be loaded: {type(exc).__name__}: {exc}")))
        return
    conn.send(Finished(execute(spec, job.params, progress, limits.memory_mb, limits.max_result_mb)))
