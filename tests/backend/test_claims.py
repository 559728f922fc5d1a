"""The shared queue: any server claims any queued job, each job exactly once, on SQLite and PostgreSQL.

Claims are `SELECT ... FOR UPDATE SKIP LOCKED` plus a guarded UPDATE (db/jobs.py). These tests claim
from two OS processes at once, check that a claim never waits on rows another transaction holds
(PostgreSQL), and run two backend servers on one database with jobs submitted to only one of them.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError

from db.jobs import JobRepository, JobStatus
from db.session import make_engine, make_session_factory, upgrade_to_head
from db.tables import Job
from devtools.devstack import running_backend
from tests.backend.conftest import JOB_METHODS
from tests.conftest import make_settings


def _database(tmp_path: Path) -> str:
    url = make_settings(tmp_path).resolved_database_url
    upgrade_to_head(url)
    return url


def _queue(url: str, count: int, method: str = "toy") -> list[str]:
    sessions = make_session_factory(make_engine(url))
    with sessions.begin() as session:
        repo = JobRepository(session)
        return [repo.create(method, {"n": index}).id for index in range(count)]


def test_a_claim_takes_the_oldest_unclaimed_jobs_of_known_methods(tmp_path: Path) -> None:
    url = _database(tmp_path)
    toy = _queue(url, 4)
    other = _queue(url, 1, method="not_here")
    sessions = make_session_factory(make_engine(url))
    with sessions.begin() as session:
        first = JobRepository(session).claim("a", ["toy"], 2)
    with sessions.begin() as session:
        second = JobRepository(session).claim("b", ["toy"], 5)
    assert [job.id for job in first] == toy[:2] and [job.id for job in second] == toy[2:]
    assert first[0].method == "toy" and first[0].params == {"n": 0}
    with sessions.begin() as session:
        repo = JobRepository(session)
        assert repo.claim("c", ["toy"], 5) == []
        assert not repo.mark_running(toy[0], "b"), "b started a job a holds"
        assert repo.mark_running(toy[0], "a")
        assert repo.release([toy[1], toy[2]], "a") == 1, "a released a job b holds"
        assert repo.get(other[0]).lease_owner is None  # type: ignore[union-attr]
    with sessions.begin() as session:
        assert [job.id for job in JobRepository(session).claim("c", ["toy"], 5)] == [toy[1]]


def _claim_all(url: str, name: str, barrier: Any, out: Any) -> None:
    """One claimer process: claims a job at a time until no unclaimed queued job is left."""
    sessions = make_session_factory(make_engine(url))
    barrier.wait(60)
    mine: list[str] = []
    while True:
        try:
            with sessions.begin() as session:
                repo = JobRepository(session)
                claimed = repo.claim(name, ["toy"], 1)
                left = session.scalar(select(func.count()).select_from(Job).where(
                    Job.status == JobStatus.QUEUED.value, Job.lease_owner.is_(None)))
        except OperationalError:  # SQLite: the other process held the write lock; try again
            time.sleep(0.001)
            continue
        mine.extend(job.id for job in claimed)
        if not claimed and not left:
            break
    out.put((name, mine))


def test_two_processes_claim_every_job_exactly_once(tmp_path: Path) -> None:
    url = _database(tmp_path)
    queued = _queue(url, 200)
    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(2), context.Queue()
    processes = [context.Process(target=_claim_all, args=(url, name, barrier, out)) for name in ("a", "b")]
    for process in processes:
        process.start()
    results = dict(out.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(30)
    claims = Counter(job_id for ids in results.values() for job_id in ids)
    assert set(claims) == set(queued), "some queued job was never claimed"
    assert max(claims.values()) == 1, f"claimed twice: {[j for j, n in claims.items() if n > 1][:5]}"
    assert all(results[name] for name in ("a", "b")), {name: len(ids) for name, ids in results.items()}


def test_a_claim_skips_rows_another_transaction_holds(store: str, tmp_path: Path) -> None:
    if store != "postgres":
        pytest.skip("SQLite has one writer at a time: there are no row locks to skip")
    url = _database(tmp_path)
    queued = _queue(url, 3)
    sessions = make_session_factory(make_engine(url))
    with sessions.begin() as holding:
        held = JobRepository(holding).claim("a", ["toy"], 1)  # not committed yet: its row stays locked
        with sessions.begin() as other:
            other.execute(text("SET LOCAL lock_timeout = '2s'"))  # waiting on a's row would fail the test
            started = time.monotonic()
            taken = JobRepository(other).claim("b", ["toy"], 1)
            waited = time.monotonic() - started
    assert [job.id for job in held] == queued[:1]
    assert [job.id for job in taken] == queued[1:2], "b took a's row or none"
    assert waited < 2, waited


@pytest.mark.slow
def test_two_servers_share_one_queue(store: str, tmp_path: Path) -> None:
    """Jobs submitted to server A only, one worker each: B claims what A cannot run yet; every job ends
    succeeded, exactly once, and both servers ran some."""
    url = _database(tmp_path)
    env = {"DATABASE_URL": url, "EXTRA_METHODS": JOB_METHODS, "MAX_WORKERS": "1", "DISPATCH_POLL_S": "0.1",
           "PRELOAD_METHODS": "false", "WARM_WORKERS": "1"}
    with running_backend(tmp_path, env, "server-a") as a, running_backend(tmp_path, env, "server-b") as b:
        ids = [httpx.post(a + "/api/jobs", json={"method": "endings", "params": {
            "behaviour": "sleep", "steps": 4, "step_s": 0.25}}).json()["id"] for _ in range(6)]
        deadline = time.monotonic() + 180
        jobs: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            jobs = [httpx.get(f"{b}/api/jobs/{job_id}").json() for job_id in ids]  # B reads A's jobs too
            if all(job["status"] not in ("queued", "running") for job in jobs):
                break
            time.sleep(0.2)
        assert [job["status"] for job in jobs] == ["succeeded"] * 6, [job.get("error") for job in jobs]
    sessions = make_session_factory(make_engine(url))
    with sessions() as session:
        owners = Counter(session.scalars(select(Job.lease_owner).where(Job.id.in_(ids))).all())
    assert len(owners) == 2 and None not in owners, owners
