"""The job store under database faults (issue 31, D1 and D7), on SQLite and PostgreSQL: a pool that
never makes a request wait past its timeout (503 + Retry-After), status reads off the event loop,
writes retried on a pool timeout, a finished job's record kept until the database takes it (never
labelled "interrupted by a server restart" by a live server), and a full disk seen by /healthz."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from anyio import to_thread
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.outcome import Outcome
from backend.jobs.store import JobStore, disk_watch
from backend.main import create_app
from db.jobs import INTERRUPTED_MESSAGE, JobRepository
from db.session import make_engine, make_session_factory, upgrade_to_head
from tests.conftest import STORE, make_settings, wait_for

pytestmark = pytest.mark.usefixtures("store")
FULL = OperationalError("INSERT", {}, Exception("could not extend file: No space left on device"))


class Flaky:
    """A session factory that raises `error` on every use while `down` is set (a pool timeout, a full disk)."""

    def __init__(self, sessions: sessionmaker[Session], error: Exception) -> None:
        self.sessions, self.error, self.down, self.refused = sessions, error, False, 0

    def _check(self) -> None:
        if self.down:
            self.refused += 1
            raise self.error

    def begin(self) -> Any:
        self._check()
        return self.sessions.begin()

    def __call__(self) -> Session:
        self._check()
        return self.sessions()


def _store(tmp_path: Path, error: Exception) -> tuple[JobStore, Flaky, sessionmaker[Session]]:
    url = STORE["url"] or f"sqlite:///{tmp_path / 'store.db'}"
    upgrade_to_head(url)
    sessions = make_session_factory(make_engine(url))
    flaky = Flaky(sessions, error)
    return JobStore(flaky, instance_id="me", retry_s=0.3), flaky, sessions  # type: ignore[arg-type]


def _running_job(store: JobStore, sessions: sessionmaker[Session]) -> str:
    with sessions.begin() as session:
        job_id = JobRepository(session).create("toy", {}, "").id
    assert store.start(job_id)
    return job_id


def test_writes_are_retried_through_a_pool_timeout(tmp_path: Path) -> None:
    store, flaky, sessions = _store(tmp_path, PoolTimeout("QueuePool limit of size 5 overflow 10 reached"))
    job_id = _running_job(store, sessions)
    flaky.down = True
    threading.Timer(0.1, lambda: setattr(flaky, "down", False)).start()
    store.retry_s = 5.0
    assert store.finish(job_id, Outcome.failed("the method's own message"))
    assert flaky.refused >= 1
    assert store.progress(job_id, 0.5, "x") in (True, False)  # never raises
    with sessions() as session:
        assert JobRepository(session).get(job_id).error == "the method's own message"  # type: ignore[union-attr]


@pytest.mark.parametrize("error", [PoolTimeout("pool"), FULL], ids=["pool-timeout", "disk-full"])
def test_a_refused_record_is_kept_heartbeated_and_written_later(tmp_path: Path, error: Exception) -> None:
    """The database refuses the final write past retry_s: the result is kept, the job's lease stays
    fresh (a sweep in between does not call it interrupted), and the next heartbeat writes it."""
    store, flaky, sessions = _store(tmp_path, error)
    job_id = _running_job(store, sessions)
    flaky.down = True
    done = Outcome(Outcome.failed("").ending.__class__("succeeded"), result={"total": 10}, metrics={"total": 10})
    assert store.finish(job_id, done) is False
    assert store.pending() == [job_id]
    with pytest.raises(type(error)):
        store.heartbeat("me", [])  # still refused: nothing lost
    flaky.down = False
    time.sleep(1.1)
    store.heartbeat("me", [])  # what LeaseKeeper.beat does first ...
    assert store.reap_expired(1.0) == 0  # ... and then: the job is not "interrupted"
    assert store.pending() == []
    with sessions() as session:
        job = JobRepository(session).get(job_id)
        assert job is not None and job.status == "succeeded" and job.result == {"total": 10}
        assert job.error != INTERRUPTED_MESSAGE


def test_a_pending_record_keeps_its_lease_while_the_database_is_down_for_writes(tmp_path: Path) -> None:
    """A sweep by another server (its own database connection works) while this one's record waits:
    the heartbeat of the pending job keeps it from being marked interrupted."""
    store, flaky, sessions = _store(tmp_path, PoolTimeout("pool"))
    job_id = _running_job(store, sessions)
    flaky.down = True
    assert store.finish(job_id, Outcome.failed("boom")) is False
    flaky.down = False
    store.flush_pending = lambda: len(store.pending())  # type: ignore[method-assign]  # the write keeps failing
    other = JobStore(sessions, instance_id="other")
    for _ in range(3):
        time.sleep(0.5)
        store.heartbeat("me", [])
        assert other.reap_expired(1.0) == 0
    with sessions() as session:
        assert JobRepository(session).get(job_id).status == "running"  # type: ignore[union-attr]


@pytest.fixture
def small_pool(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path, api_threads=4, max_workers=1, warm_workers=0, db_pool_timeout_s=1.5)
    with TestClient(create_app(settings)) as client:
        yield client


def test_the_pool_holds_a_connection_per_thread_and_a_timeout_is_a_503(small_pool: TestClient) -> None:
    engine = small_pool.app.state.engine  # type: ignore[attr-defined]
    settings = small_pool.app.state.settings  # type: ignore[attr-defined]
    assert engine.pool.size() == settings.db_pool_size >= settings.api_threads + settings.max_workers, \
        "every API thread and job supervisor gets a connection"
    limiter = small_pool.portal.call(to_thread.current_default_thread_limiter)  # type: ignore[union-attr]
    assert limiter.total_tokens == settings.api_threads, "a request thread never waits for a connection"
    with ExitStack() as held:
        for _ in range(engine.pool.size()):
            held.enter_context(engine.connect())
        answer: dict[str, Any] = {}
        poll = threading.Thread(target=lambda: answer.update(r=small_pool.get("/api/jobs/x?view=status")))
        poll.start()
        time.sleep(0.3)  # the poll now waits for a connection
        assert small_pool.get("/api/methods").status_code == 200
        assert poll.is_alive(), "a status read waiting for the pool held up the event loop"
        poll.join(30)
    response = answer["r"]
    assert response.status_code == 503 and response.headers["Retry-After"] == "2", response.text
    assert small_pool.get("/api/jobs/x").status_code == 404, "it recovers once connections are free"


def _fill_sqlite(engine: Any, full: bool) -> None:
    """SQLite's disk-full error without a small disk: cap the file at its current size (per connection)."""
    def cap(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
        cursor.execute(f"PRAGMA max_page_count = {pages if full else 2**30}")
        cursor.close()

    for listener in getattr(engine, "_test_caps", []):
        event.remove(engine, "connect", listener)
    engine._test_caps = [cap]
    event.listen(engine, "connect", cap)
    engine.dispose()


def test_disk_full_is_reported_and_the_finished_result_is_kept(tmp_path: Path, store: str) -> None:
    if store != "sqlite":
        pytest.skip("a real disk-full error needs SQLite's max_page_count; PostgreSQL's is injected above")
    settings = make_settings(tmp_path, db_retry_s=0.3, job_lease_s=1.5, warm_workers=0)
    with TestClient(create_app(settings)) as api:
        engine = api.app.state.engine  # type: ignore[attr-defined]
        job_id = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 60, "step_s": 0.05}}).json()["id"]
        wait_for(api, job_id, {"running"})
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE ballast (b BLOB)"))
        _fill_sqlite(engine, full=True)
        with pytest.raises(OperationalError, match="full"):  # use up the free pages too: the disk is full
            for _ in range(10_000):
                with engine.begin() as conn:
                    conn.execute(text("INSERT INTO ballast VALUES (zeroblob(2000))"))
        deadline = time.monotonic() + 60
        while not api.get("/healthz").json()["pending_results"]:
            assert time.monotonic() < deadline, "the job's record was never refused"
            time.sleep(0.1)
        health = api.get("/healthz").json()
        assert health["ok"] is False and health["disk_ok"] is False
        submitted = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}})  # a small row may fit
        assert submitted.status_code == 202 or "disk is full" in submitted.json()["detail"], submitted.text
        time.sleep(2.5)  # past a lease: a live server's pending job is not "interrupted"
        _fill_sqlite(engine, full=False)
        job = wait_for(api, job_id, {"succeeded", "failed"})
        assert job["status"] == "succeeded" and job["result"]["steps_done"] == 60, job
        disk_watch._seen_at = None
        assert api.get("/healthz").json()["pending_results"] == 0


def test_a_full_disk_is_a_503_that_says_so(api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: Any, **_kwargs: Any) -> str:
        raise FULL

    monkeypatch.setattr(api.app.state.service, "submit", full)  # type: ignore[attr-defined]
    refused = api.post("/api/jobs", json={"method": "toy", "params": {}})
    assert refused.status_code == 503 and refused.json()["detail"].startswith("the server's disk is full")
    assert int(refused.headers["Retry-After"]) >= 1
    assert api.get("/healthz").json()["disk_ok"] is False
    disk_watch._seen_at = None
