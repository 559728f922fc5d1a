"""Entry point of a job process: wait for one job, run it under a memory limit, report back, exit.

The process is spawned ahead of time (warm) with the method packages already imported, so a job
pays neither interpreter start-up nor import time; it still gets a fresh process of its own.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["worker_main"]


def _address_space_bytes() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def _limit_memory(memory_mb: int) -> None:
    """Cap the address space at what is mapped now (interpreter + libraries) plus `memory_mb`."""
    limit = _address_space_bytes() + memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _limit_threads(threads: int) -> None:
    """Cap BLAS/OpenMP and torch threads: with MAX_WORKERS jobs at once, oversubscribed thread pools
    make every job slower. Libraries were imported (and sized their pools) in the forkserver, so
    environment variables alone are too late here."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(threads)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads)
    except Exception:  # noqa: BLE001 - only a speed setting
        pass
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)


def worker_main(conn: Connection, preload: list[str], progress_interval_s: float, threads: int = 1) -> None:
    """Serve exactly one job received over `conn`."""
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    import importlib

    from backend.jobs.outcome import execute
    from backend.registry import load_spec
    from models.common import Cancelled

    for module_name in preload:
        try:
            importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - the job that needs it will report the import error
            pass
    _warm_up_figures()
    conn.send(("ready",))
    message = conn.recv()
    if message[0] != "job":
        return
    _, module_name, params, memory_mb, max_result_mb = message
    _limit_threads(threads)
    _limit_memory(memory_mb)
    last_sent = 0.0

    def progress(fraction: float, message: str = "") -> None:
        nonlocal last_sent
        if conn.poll():
            command = conn.recv()
            if command[0] == "cancel":
                raise Cancelled()
        now = time.monotonic()
        if now - last_sent >= progress_interval_s:
            last_sent = now
            conn.send(("progress", float(fraction), str(message)))

    try:
        spec = load_spec(module_name)
    except Exception as exc:  # noqa: BLE001
        conn.send(("outcome", _failed(f"the method could not be loaded: {type(exc).__name__}: {exc}")))
        return
    outcome = execute(spec, params, progress, memory_mb=memory_mb, max_result_mb=max_result_mb)
    conn.send(("outcome", outcome))


def _warm_up_figures() -> None:
    """Pay plotly's first-serialisation cost (validators, encoders) before a job arrives."""
    try:
        import plotly.graph_objects as go

        go.Figure(go.Scatter(x=[0.0], y=[0.0]), layout={"title": "warm"}).to_json()
    except Exception:  # noqa: BLE001 - only a speed-up
        pass


def _failed(error: str) -> Any:
    from backend.jobs.outcome import Outcome

    return Outcome("failed", error=error)
