"""EXECUTOR=ray: each job is a Ray task on an existing cluster (RAY_ADDRESS); the backend keeps the state.

The backend never starts a cluster. Each job becomes one task with the method's `num_cpus` and
`num_gpus`; progress comes back through a `ProgressBoard` actor that one monitor thread drains into
the job row (throttled as for the embedded executor); the task's return value is the outcome, which
the backend stores. Time limit and Cancel use `ray.cancel(force=True)`. A job stays `queued` until
its task starts on a worker (its time limit counts from then). When the backend stops, running
tasks are cancelled and marked interrupted; when it dies, Ray ends the tasks it owned and the next
server marks them interrupted once their lease has expired (no re-attachment).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from backend.jobs.limits import DEADLINE_EXIT_CODE, JobLimits
from backend.jobs.outcome import Outcome
from backend.jobs.ray.task import ProgressBoard, run_job_task
from backend.jobs.store import JobStore
from backend.registry import load_spec
from backend.settings import Settings

__all__ = ["RayExecutor", "RayUnavailable"]

log = logging.getLogger(__name__)

PASS_S = 0.05  # the monitor's longest wait for a finished task per pass
CANCEL_POLL_S = 0.5
NAMESPACE = "method-playground"


class RayUnavailable(RuntimeError):
    """RAY_ADDRESS is missing or the cluster there cannot be reached (a start-up error)."""


@dataclass
class _RayJob:
    ref: Any
    limits: JobLimits
    started: bool = False
    deadline: float = float("inf")
    cancel_at: float | None = None
    pending: tuple[float, str] | None = None
    last_write: float = 0.0


def _check_reachable(address: str, timeout_s: float = 3.0) -> None:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise RayUnavailable(f"RAY_ADDRESS must be host:port (the head's GCS port), got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        raise RayUnavailable(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}; start one with "
            "`ray start --head --port PORT` (the backend never starts a cluster itself)") from None


class RayExecutor:
    """Runs jobs as Ray tasks; one monitor thread follows all of them."""

    name = "ray"

    def __init__(self, store: JobStore, settings: Settings) -> None:
        address = settings.ray_address.strip()
        if not address:
            raise RayUnavailable("EXECUTOR=ray needs RAY_ADDRESS (host:port of a running Ray head)")
        _check_reachable(address)
        import ray

        self._ray = ray
        self.address = address
        self.store = store
        self.settings = settings
        try:
            ray.init(address=address, namespace=NAMESPACE, log_to_driver=False, logging_level=logging.WARNING,
                     configure_logging=False)
        except Exception as exc:  # noqa: BLE001 - turned into one readable start-up error
            raise RayUnavailable(f"cannot connect to the Ray cluster at {address}: {type(exc).__name__}: {exc}") from None
        self._board: Any = ray.remote(num_cpus=0)(ProgressBoard).remote()
        self._task = ray.remote(run_job_task)
        self._jobs: dict[str, _RayJob] = {}
        self._finishing: set[str] = set()
        self.on_free: Callable[[], None] = lambda: None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._finisher = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ray-finish")
        self._monitor = threading.Thread(target=self._watch, name="ray-monitor", daemon=True)
        self._monitor.start()

    # the executor interface
    @property
    def workers(self) -> int:
        return int(self.resources().get("CPU", 0))

    def resources(self) -> dict[str, float]:
        try:
            return {key: float(value) for key, value in self._ray.cluster_resources().items()
                    if not key.startswith("node:")}
        except Exception:  # noqa: BLE001 - reported as an empty cluster
            return {}

    def describe(self) -> dict[str, Any]:
        nodes = [node for node in self._ray.nodes() if node.get("Alive")]
        return {"address": self.address, "nodes": len(nodes), "resources": self.resources()}

    def held(self) -> list[str]:
        with self._lock:
            return [*self._jobs, *self._finishing]

    def submit(self, job_id: str, module: str, params: dict[str, Any]) -> None:
        requirements = load_spec(module).requirements
        gpus_there = self.resources().get("GPU", 0.0)
        if requirements.gpus > gpus_there:
            self._finish(job_id, Outcome.failed(
                f"this method needs {requirements.gpus:g} GPU(s) and the Ray cluster at {self.address} has "
                f"{gpus_there:g}; add a GPU worker (`ray start --address ... --num-gpus 1`)"), start=True)
            return
        memory_mb = requirements.memory_mb or self.settings.job_memory_mb
        limits = JobLimits(timeout_s=self.settings.job_timeout_s, memory_mb=memory_mb,
                           max_result_mb=self.settings.max_result_mb)
        options: dict[str, Any] = {"num_cpus": requirements.cpus, "num_gpus": requirements.gpus, "max_retries": 0,
                                   "name": f"job-{job_id[:8]}"}
        if requirements.memory_mb:
            options["memory"] = requirements.memory_mb * 2**20
        threads = max(1, round(requirements.cpus)) if requirements.cpus >= 1 else 1
        ref = self._task.options(**options).remote(job_id, module, params, limits, self._board,
                                                   self.settings.progress_interval_s, threads)
        with self._lock:
            self._jobs[job_id] = _RayJob(ref=ref, limits=limits)

    def cancel(self, job_id: str) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and job.cancel_at is None:
                job.cancel_at = time.monotonic()

    def shutdown(self) -> None:
        self._closing.set()
        self._monitor.join(15)
        self._finisher.shutdown(wait=True)
        try:
            self._ray.shutdown()
        except Exception:  # noqa: BLE001
            log.exception("ray.shutdown failed")

    # the monitor
    def _watch(self) -> None:
        last_cancel_poll = time.monotonic()
        while True:
            try:
                if self._closing.is_set():
                    self._interrupt_all()
                    return
                self._pass(poll_cancels=time.monotonic() - last_cancel_poll > CANCEL_POLL_S)
                if time.monotonic() - last_cancel_poll > CANCEL_POLL_S:
                    last_cancel_poll = time.monotonic()
            except Exception:  # noqa: BLE001 - the monitor must outlive any one bad pass
                log.exception("the Ray monitor pass failed")
                time.sleep(0.5)

    def _pass(self, poll_cancels: bool) -> None:
        with self._lock:
            jobs = dict(self._jobs)
        if not jobs:
            time.sleep(PASS_S)
            return
        refs = [job.ref for job in jobs.values()]
        self._ray.wait(refs, num_returns=1, timeout=PASS_S)  # the pass's pause, cut short by a finished task
        ready, _ = self._ray.wait(refs, num_returns=len(refs), timeout=0)
        progress, notes = self._ray.get(self._board.drain.remote(), timeout=10)
        done = set(ready)
        now = time.monotonic()
        for job_id, job in jobs.items():
            note = notes.get(job_id, {})
            if not job.started and note.get("started"):
                job.started = True
                job.deadline = now + job.limits.timeout_s
                if not self.store.start(job_id):  # cancelled while it waited
                    self._end(job_id, job, Outcome.cancelled(), kill=True)
                    continue
            if job_id in progress:
                job.pending = progress[job_id]
            if job.ref in done:
                self._end(job_id, job, self._collect(job_id, job), kill=False)
            elif job.cancel_at is not None:
                self._end(job_id, job, Outcome.cancelled(), kill=True)
            elif now > job.deadline:
                self._end(job_id, job, Outcome.timed_out(job.limits.timeout_s), kill=True)
            else:
                if job.pending is not None and job.started and now - job.last_write >= self.settings.progress_interval_s:
                    if self.store.progress(job_id, *job.pending):
                        job.pending = None
                    job.last_write = now
                if poll_cancels and job.started and self.store.cancel_requested(job_id):
                    job.cancel_at = now

    def _collect(self, job_id: str, job: _RayJob) -> Outcome:
        """The outcome a finished task returned, or the ending its error stands for."""
        exceptions = self._ray.exceptions
        try:
            outcome = self._ray.get(job.ref, timeout=30)
        except exceptions.TaskCancelledError:
            return Outcome.cancelled()
        except exceptions.OutOfMemoryError:
            return Outcome.out_of_memory(None, job.limits.memory_mb)
        except (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.LocalRayletDiedError) as exc:
            return self._crashed(job_id, job, exc)
        except exceptions.RayError as exc:
            first_line = str(exc).strip().splitlines()[-1:] or [""]
            return Outcome.failed(f"the Ray task failed: {type(exc).__name__}: {first_line[0]}"[:500])
        if isinstance(outcome, Outcome):
            return outcome
        return Outcome.failed(f"the Ray task returned {type(outcome).__name__} instead of an outcome")

    def _crashed(self, job_id: str, job: _RayJob, exc: Exception) -> Outcome:
        try:
            note = self._ray.get(self._board.drain.remote(), timeout=10)[1].get(job_id, {})
        except Exception:  # noqa: BLE001
            note = {}
        if note.get("out_of_memory_mb"):
            return Outcome.out_of_memory(float(note["out_of_memory_mb"]), job.limits.memory_mb)
        if note.get("exit_code") == DEADLINE_EXIT_CODE:
            return Outcome.timed_out(job.limits.timeout_s)
        where = f" on node {str(note['node'])[:12]}" if note.get("node") else ""
        kind = "node" if isinstance(exc, self._ray.exceptions.NodeDiedError) else "worker process"
        return Outcome.failed(f"the Ray {kind} running the job{where} died before it finished "
                              f"({type(exc).__name__}); run it again, and try smaller settings if it repeats")

    def _kill(self, job: _RayJob) -> None:
        try:
            self._ray.cancel(job.ref, force=True)
        except Exception:  # noqa: BLE001 - already finished or gone
            pass

    def _end(self, job_id: str, job: _RayJob, outcome: Outcome, kill: bool) -> None:
        if kill:
            self._kill(job)
        with self._lock:
            self._jobs.pop(job_id, None)
            self._finishing.add(job_id)
        self._finisher.submit(self._finish, job_id, outcome)

    def _finish(self, job_id: str, outcome: Outcome, start: bool = False) -> None:
        try:
            if start:
                self.store.start(job_id)
            self.store.finish(job_id, outcome)
        finally:
            with self._lock:
                self._finishing.discard(job_id)
            self.on_free()
            try:
                self._board.forget.remote(job_id)
            except Exception:  # noqa: BLE001
                pass

    def _interrupt_all(self) -> None:
        """Started tasks end as interrupted; tasks still waiting for a Ray worker are cancelled and
        their jobs go back to the database queue."""
        with self._lock:
            jobs = dict(self._jobs)
        waiting = []
        for job_id, job in jobs.items():
            if job.started:
                self._end(job_id, job, Outcome.interrupted(), kill=True)
                continue
            self._kill(job)
            with self._lock:
                self._jobs.pop(job_id, None)
            waiting.append(job_id)
        if waiting:
            self.store.release(waiting)

