"""A job's limits and the process-level tools that enforce them (shared by job processes and Ray tasks)."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import time
from dataclasses import dataclass

import psutil

__all__ = ["DEADLINE_EXIT_CODE", "JobLimits", "die_with_parent", "limit_address_space", "limit_threads",
           "release_forkserver_lifeline", "tree_rss_mb", "watch_parent_and_deadline"]

PR_SET_PDEATHSIG = 1
# Exit status of a job that stopped itself at its own deadline (the supervisor normally stops it first).
DEADLINE_EXIT_CODE = 124


@dataclass(frozen=True)
class JobLimits:
    """What one job may use; the supervisor enforces them, the job process backs them up."""

    timeout_s: float
    memory_mb: int
    max_result_mb: int = 64
    address_space_mb: int = 0  # 0: no RLIMIT_AS (never for GPU jobs: CUDA maps tens of GB at start)
    own_deadline_slack_s: float = 5.0  # the job stops itself this long after its time limit


def _children(pid: int) -> list[int]:
    """Direct children from /proc (one small read per thread) rather than a scan of every process."""
    found: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as children:
                found.extend(int(child) for child in children.read().split())
    except OSError:
        return found
    return found


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants, in MB (0 when it is gone).

    Sampled ten times a second per job, so it reads /proc directly (about 0.1 ms for a lone
    process) instead of letting psutil scan every process on the machine for children (~20 ms)."""
    if not os.path.exists(f"/proc/{pid}/task"):  # not Linux: psutil's portable (slower) way
        return _tree_rss_psutil(pid)
    total, stack, seen = 0, [pid], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        total += _rss_bytes(current)
        stack.extend(_children(current))
    return total / 2**20


def _tree_rss_psutil(pid: int) -> float:
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            continue
    return total / 2**20


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux; elsewhere a no-op)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.Error:
        return True


def watch_parent_and_deadline(deadline: float, parent: int | None, server: int | None = None) -> None:
    """Loop (in a daemon thread): exit the process past `deadline`, when its parent changes, or when
    the server is gone (a forkserver child's parent is the forkserver, which can outlive the server)."""
    while True:
        time.sleep(0.25)
        if (parent is not None and os.getppid() != parent) or (server is not None and _gone(server)):
            os._exit(1)
        if time.monotonic() > deadline:
            os._exit(DEADLINE_EXIT_CODE)


def release_forkserver_lifeline() -> None:
    """Close this process's copy of the forkserver's "server alive" pipe.

    Python hands every forkserver child a copy of the write end the forkserver watches to learn
    that the server died; while any job holds one, a killed server's forkserver never exits (and
    its children's PR_SET_PDEATHSIG never fires). A job process starts no processes of its own
    through the forkserver, so it lets go of its copy."""
    try:
        from multiprocessing import forkserver

        server = getattr(forkserver, "_forkserver", None)
        fd = getattr(server, "_forkserver_alive_fd", None)
        if fd is not None:
            server._forkserver_alive_fd = None  # type: ignore[union-attr]
            os.close(fd)
    except (ImportError, AttributeError, OSError):
        pass


def _address_space_bytes() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def limit_address_space(memory_mb: int) -> None:
    """Optional backstop for CPU jobs: cap the address space at what is mapped now plus `memory_mb`."""
    limit = _address_space_bytes() + memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def limit_threads(threads: int) -> None:
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
