"""Parameter sweeps: one job per value of one field, submitted as the owner's quotas allow, and the
claims of those jobs gathered as rows (per claim, a row per value).

A sweep counts as N jobs for the hourly quota: it is refused at once unless all N fit (`admit_sweep`,
which asks the existing quota function the question "would N more submissions pass?"). Its jobs wait
under the owner's concurrency quota rather than being refused: `advance` submits the values whose job
does not exist yet while `admit` lets them in, at creation and at every later look at the sweep (the
page and the Python client poll it), so a sweep never holds more than the quota's queued or running jobs.
"""

from __future__ import annotations

import importlib
import math
import statistics
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from backend.hosting.quotas import QuotaExceeded, admit
from backend.jobs.service import JobService
from backend.settings import Settings
from db.status import JobStatus
from db.tables import Job, Sweep

__all__ = ["DELETED", "MAX_VALUES", "admit_sweep", "advance", "claim_rows", "job_states", "sweep_progress", "sweep_status"]

MAX_VALUES = 12
DELETED = "deleted"  # a run of the sweep that was deleted since (DELETE .../record, retention): it ended
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
_advance_lock = threading.Lock()
_finished_claims: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
_KEPT = 512


def admit_sweep(session: Session, owner: str, is_admin: bool, settings: Settings, count: int) -> None:
    """Raise QuotaExceeded unless `count` more submissions fit in the owner's hourly quota (shared mode).

    The existing `admit` is asked with the hourly limit lowered by count - 1 (so it passes only when
    submitted + count <= limit) and the concurrency limit lifted (a sweep's jobs wait for it)."""
    if not settings.shared or is_admin:
        return
    limit = settings.quota_jobs_per_hour
    if count > limit:
        raise QuotaExceeded(f"a sweep counts as {count} jobs, more than the hourly quota of {limit}; "
                            "sweep fewer values", 3600)
    probe = settings.model_copy(update={"quota_jobs_per_hour": limit - (count - 1),
                                        "quota_concurrent_jobs": 10**9, "max_queued_jobs": 10**9})
    try:
        admit(session, owner, is_admin, probe)
    except QuotaExceeded as exc:
        raise QuotaExceeded(f"a sweep counts as {count} jobs for the hourly quota of {limit} jobs and they do not "
                            f"fit in this hour; try again in {exc.retry_after_s} s or sweep fewer values",
                            exc.retry_after_s) from None


def advance(sessions: sessionmaker[Session], service: JobService, sweep_id: str, is_admin: bool,
            settings: Settings) -> None:
    """Submit the sweep's waiting values while the quotas admit them (all at once in open mode)."""
    with _advance_lock:
        with sessions() as session:
            sweep = session.get(Sweep, sweep_id)
            if sweep is None or sweep.cancelled or all(sweep.job_ids):
                return
            owner, method, field = sweep.owner, sweep.method, sweep.field
            values, params, job_ids = list(sweep.values), dict(sweep.params), list(sweep.job_ids)
        gate: Callable[[Session], None] = lambda s: admit(s, owner, is_admin, settings)  # noqa: E731
        changed = False
        for index, job_id in enumerate(job_ids):
            if job_id is not None:
                continue
            try:
                job_ids[index] = service.submit(method, {**params, field: values[index]}, owner, admit=gate)
            except QuotaExceeded:
                break
            changed = True
        if changed:
            with sessions.begin() as session:
                row = session.get(Sweep, sweep_id)
                if row is not None:
                    row.job_ids = job_ids


def job_states(session: Session, job_ids: Sequence[str | None]) -> dict[str, tuple[str, float]]:
    ids = [i for i in job_ids if i]
    if not ids:
        return {}
    rows = session.execute(select(Job.id, Job.status, Job.progress).where(Job.id.in_(ids))).all()
    return {row.id: (row.status, float(row.progress or 0.0)) for row in rows}


def sweep_status(sweep: Sweep, jobs: dict[str, tuple[str, float]]) -> str:
    """One of the job statuses: cancelled, succeeded (every run did), failed (every run ended, some did
    not succeed), running (some run started or ended) or queued."""
    if sweep.cancelled:
        return JobStatus.CANCELLED.value
    statuses = [(jobs[i][0] if i in jobs else DELETED) if i else None for i in sweep.job_ids]
    terminal = {JobStatus.SUCCEEDED.value, JobStatus.FAILED.value, JobStatus.CANCELLED.value, JobStatus.TIMED_OUT.value,
                DELETED}
    if all(s in terminal for s in statuses):
        return JobStatus.SUCCEEDED.value if all(s == JobStatus.SUCCEEDED.value for s in statuses) else JobStatus.FAILED.value
    if any(s is not None and s != JobStatus.QUEUED.value for s in statuses):
        return JobStatus.RUNNING.value
    return JobStatus.QUEUED.value


def sweep_progress(sweep: Sweep, jobs: dict[str, tuple[str, float]]) -> tuple[float, str]:
    ended = {JobStatus.SUCCEEDED.value, JobStatus.FAILED.value, JobStatus.CANCELLED.value, JobStatus.TIMED_OUT.value,
             DELETED}
    parts, done = [], 0
    for job_id in sweep.job_ids:
        status, progress = jobs.get(job_id, (DELETED, 1.0)) if job_id else ("waiting", 0.0)
        finished = status in ended
        done += finished
        parts.append(1.0 if finished else progress)
    waiting = sum(1 for i in sweep.job_ids if i is None)
    note = f"; {waiting} waiting for your quota" if waiting and not sweep.cancelled else ""
    return (sum(parts) / len(parts) if parts else 1.0), f"{done} of {len(parts)} runs ended{note}"


def _interval(claim: dict[str, Any]) -> list[float] | None:
    """The claim's own 95% interval where the result carries one (claims v2), else a Student-t interval of
    the mean over its seeds (None with fewer than two measured seeds)."""
    test = claim.get("test") or {}
    if isinstance(test, dict) and isinstance(test.get("interval"), list | tuple) and len(test["interval"]) == 2:
        return [float(test["interval"][0]), float(test["interval"][1])]
    values = [s["value"] for s in claim.get("seeds") or [] if isinstance(s.get("value"), int | float)]
    values = [float(v) for v in values if math.isfinite(v)]
    if len(values) < 2:
        return None
    mean, half = statistics.fmean(values), _T95.get(len(values) - 1, 1.96) * statistics.stdev(values) / math.sqrt(len(values))
    return [mean - half, mean + half]


def _claims_of(session: Session, job_id: str) -> list[dict[str, Any]]:
    """The summary of a succeeded job's claims (read once per job: a finished job never changes)."""
    if job_id in _finished_claims:
        return _finished_claims[job_id]
    result = session.scalar(select(Job.result).where(Job.id == job_id)) or {}
    summary = [{"id": c.get("id"), "quantity": c.get("quantity", ""), "criterion": c.get("criterion", ""),
                "headline": bool(c.get("headline", True)), "mean": (c.get("ours") or {}).get("mean"),
                "sd": (c.get("ours") or {}).get("sd"), "n": (c.get("ours") or {}).get("n", 0),
                "interval": _interval(c), "holds": c.get("holds"), "target": c.get("target")}
               for c in result.get("claims") or []]
    _finished_claims[job_id] = summary
    while len(_finished_claims) > _KEPT:
        _finished_claims.popitem(last=False)
    return summary


def _declared(run_module: str) -> list[dict[str, Any]]:
    """The method's declared claims (id, quantity, criterion, target), so rows exist before any run ends:
    `CLAIMS` of the module holding its `run`, or of the `claims` module beside it."""
    package = run_module.rpartition(".")[0]
    for name in (run_module, f"{package}.claims"):
        try:
            claims = importlib.import_module(name).CLAIMS
        except (ImportError, AttributeError, ValueError):
            continue
        return [{"id": c.id, "quantity": c.quantity, "criterion": c.criterion(), "headline": c.headline,
                 "target": float(c.target)} for c in claims]
    return []


def claim_rows(session: Session, sweep: Sweep, jobs: dict[str, tuple[str, float]],
               run_module: str = "") -> list[dict[str, Any]]:
    """For every claim, a row per swept value: mean, sd, interval and holds (None until that run succeeded).
    `run_module`: the module of the method's `run` (where its declared claims are found)."""
    declared = {c["id"]: c for c in _declared(run_module)} if run_module else {}
    measured: list[dict[str, dict[str, Any]]] = []
    for job_id in sweep.job_ids:
        status = jobs.get(job_id or "", ("",))[0]
        found = _claims_of(session, job_id) if job_id and status == JobStatus.SUCCEEDED.value else []
        measured.append({c["id"]: c for c in found})
        for claim in found:
            declared.setdefault(claim["id"], {k: claim[k] for k in ("id", "quantity", "criterion", "headline", "target")})
    rows = []
    for claim_id, claim in declared.items():
        for index, value in enumerate(sweep.values):
            job_id = sweep.job_ids[index]
            got = measured[index].get(claim_id, {})
            rows.append({"claim": claim_id, "quantity": claim["quantity"], "criterion": claim["criterion"],
                         "headline": claim["headline"], "target": claim.get("target"), "value": value,
                         "job_id": job_id, "status": jobs.get(job_id, (DELETED,))[0] if job_id else "waiting",
                         "mean": got.get("mean"), "sd": got.get("sd"), "n": got.get("n", 0),
                         "interval": got.get("interval"), "holds": got.get("holds")})
    return rows
