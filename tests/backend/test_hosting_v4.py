"""Hosted instance v4 (issue 45): the red team's N2, N3, N5, N6, revocation and the export cache, on
SQLite and PostgreSQL.

- N2: one address's anonymous sessions hold at most QUOTA_JOBS_PER_ADDRESS queued or running jobs,
  and claims go to the least-served address first, then the least-served identity in it;
- N3: deleting finished runs does not give the hourly quota back (the submissions ledger);
- N5: a control character in any path parameter is a 404 before the store sees it;
- N6: parallel session requests cannot pass the per-address session limit together;
- a revoked token's running job is cancelled and its share links die;
- a finished run's export.zip is built once (N7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.api.auth import forget_tokens
from backend.api.exportcache import export_cache
from backend.main import create_app
from backend.settings import Settings
from db.identities import IdentityRepository
from db.jobs import JobRepository
from tests.conftest import make_settings

pytestmark = pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
SLEEP = {"method": "toy", "params": {"behaviour": "sleep"}}


def _app(settings: Settings) -> Iterator[TestClient]:
    forget_tokens()
    with TestClient(create_app(settings)) as client:
        yield client


def _hold_the_queue(api: TestClient) -> None:
    """No job is claimed: every accepted job stays queued (the tests claim by hand)."""
    api.app.state.dispatcher.stop()  # type: ignore[attr-defined]
    api.app.state.service.wake = lambda: None  # type: ignore[attr-defined]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait_status(api: TestClient, job_id: str, headers: dict[str, str], statuses: set[str]) -> str:
    deadline = time.monotonic() + 60
    while (status := api.get(f"/api/jobs/{job_id}?view=status", headers=headers).json()["status"]) not in statuses:
        assert time.monotonic() < deadline, f"{job_id} is still {status}"
        time.sleep(0.05)
    return str(status)


def test_one_address_holds_at_most_its_limit_of_jobs(tmp_path: Path, store: str) -> None:
    """30 sessions from one address, 2 submits each: 6 accepted (was 60); another address still gets in."""
    for api in _app(make_settings(tmp_path, access_mode="shared", dispatch_poll_s=60, warm_workers=0)):
        _hold_the_queue(api)
        tokens = [api.post("/api/sessions").json()["token"] for _ in range(30)]
        codes = [api.post("/api/jobs", json=SLEEP, headers=_bearer(t)).status_code for t in tokens for _ in range(2)]
        assert codes.count(202) == 6 and codes.count(429) == 54, codes
        with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
            _, other = IdentityRepository(session).create("anonymous", "anonymous", client_address="198.51.100.2")
        assert api.post("/api/jobs", json=SLEEP, headers=_bearer(other)).status_code == 202


def _queue(session: Any, owner: str, count: int) -> list[str]:
    repo = JobRepository(session)
    ids = []
    for _ in range(count):
        ids.append(repo.create("toy", {"behaviour": "sleep"}, owner).id)
        session.flush()
        time.sleep(0.002)  # distinct created_at: the oldest-first tie break is well defined
    return ids


def test_claims_serve_the_least_served_address_then_identity_first(tmp_path: Path, store: str) -> None:
    """Address A queues 6 jobs (5 from a1, then 1 from a2), then address B queues 1: the claims run
    A's first, then B's (before A's later jobs), then a2's (before a1's later ones)."""
    for api in _app(make_settings(tmp_path, access_mode="shared", dispatch_poll_s=60, warm_workers=0)):
        _hold_the_queue(api)
        sessions = api.app.state.sessions  # type: ignore[attr-defined]
        with sessions.begin() as session:
            people = IdentityRepository(session)
            a1 = people.create("anonymous", "anonymous", client_address="198.51.100.1")[0].id
            a2 = people.create("anonymous", "anonymous", client_address="198.51.100.1")[0].id
            b1 = people.create("anonymous", "anonymous", client_address="198.51.100.2")[0].id
        with sessions.begin() as session:
            first_a1 = _queue(session, a1, 5)
            only_a2 = _queue(session, a2, 1)
            only_b1 = _queue(session, b1, 1)
        order = []
        for _ in range(3):
            with sessions.begin() as session:
                order += [job.id for job in JobRepository(session).claim("server-1", ["toy"], 1)]
        assert order == [first_a1[0], only_b1[0], only_a2[0]], order
        with sessions.begin() as session:
            rest = [job.id for job in JobRepository(session).claim("server-1", ["toy"], 10)]
        assert rest == first_a1[1:], "the rest in submission order, each claimed once"


def test_deleting_finished_runs_does_not_refund_the_hourly_quota(tmp_path: Path, store: str) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", quota_jobs_per_hour=3)):
        token = api.post("/api/sessions").json()["token"]
        codes = []
        for _ in range(5):
            created = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}}, headers=_bearer(token))
            codes.append(created.status_code)
            if created.status_code == 202:
                _wait_status(api, created.json()["id"], _bearer(token), {"succeeded"})
                assert api.delete(f"/api/jobs/{created.json()['id']}/record", headers=_bearer(token)).status_code == 204
        assert codes == [202, 202, 202, 429, 429], codes


@pytest.mark.parametrize("bad", ["a%00b", "a%1bb", "%7f"])
def test_control_characters_in_path_parameters_are_404(tmp_path: Path, store: str, bad: str) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared")):
        token = api.post("/api/sessions").json()["token"]
        job_id = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}}, headers=_bearer(token)).json()["id"]
        _wait_status(api, job_id, _bearer(token), {"succeeded"})
        link = api.post(f"/api/jobs/{job_id}/share", headers=_bearer(token)).json()["link"]
        for path in (f"/api/shared/{link}/artifacts/{bad}", f"/api/jobs/{job_id}/artifacts/{bad}",
                     f"/api/shared/{bad}", f"/api/shared/{bad}/export.zip", f"/api/methods/{bad}", f"/api/jobs/{bad}"):
            assert api.get(path, headers=_bearer(token)).status_code == 404, path
        assert api.get(f"/api/shared/{link}/artifacts/nothing").status_code == 404
        assert api.get(f"/api/shared/{link}").status_code == 200, "the link itself still works"


def _parallel_sessions(api: TestClient, count: int) -> list[int]:
    codes: list[int] = []
    barrier = threading.Barrier(count)

    def one() -> None:
        barrier.wait()
        codes.append(api.post("/api/sessions").status_code)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return codes


def test_parallel_sessions_cannot_pass_the_session_limit(tmp_path: Path, store: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """60 parallel requests with a limit of 30, each count held open 50 ms (a slow database): exactly 30."""
    original = IdentityRepository.sessions_from

    def slow(self: IdentityRepository, address: str, since: Any) -> Any:
        counted = original(self, address, since)
        time.sleep(0.05)
        return counted

    monkeypatch.setattr(IdentityRepository, "sessions_from", slow)
    for api in _app(make_settings(tmp_path, access_mode="shared", sessions_per_hour=30, api_threads=64)):
        codes = _parallel_sessions(api, 60)
        assert codes.count(201) == 30 and len(codes) == 60, sorted(codes)


def test_revoking_a_token_cancels_its_running_job_and_kills_its_share_links(tmp_path: Path, store: str) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared")):
        with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
            _, token = IdentityRepository(session).create("mallory", "user")
        done = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}}, headers=_bearer(token)).json()["id"]
        _wait_status(api, done, _bearer(token), {"succeeded"})
        link = api.post(f"/api/jobs/{done}/share", headers=_bearer(token)).json()["link"]
        running = api.post("/api/jobs", json=SLEEP, headers=_bearer(token)).json()["id"]
        _wait_status(api, running, _bearer(token), {"running"})
        with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
            assert IdentityRepository(session).revoke("mallory") == 1  # what `backend.cli tokens revoke` runs
        forget_tokens()
        assert api.get(f"/api/shared/{link}").status_code == 404
        deadline = time.monotonic() + 30
        while True:
            with api.app.state.sessions() as session:  # type: ignore[attr-defined]
                status = JobRepository(session).get(running).status  # type: ignore[union-attr]
            if status == "cancelled":
                break
            assert time.monotonic() < deadline, f"the revoked token's job is still {status}"
            time.sleep(0.1)
        assert api.get("/api/jobs", headers=_bearer(token)).status_code == 401


def test_a_finished_runs_export_is_built_once_and_never_outlives_the_run(tmp_path: Path, store: str) -> None:
    export_cache.clear()
    for api in _app(make_settings(tmp_path, access_mode="shared")):
        token = api.post("/api/sessions").json()["token"]
        job_id = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}}, headers=_bearer(token)).json()["id"]
        _wait_status(api, job_id, _bearer(token), {"succeeded"})
        link = api.post(f"/api/jobs/{job_id}/share", headers=_bearer(token)).json()["link"]
        builds, hits = export_cache.builds, export_cache.hits
        first = api.get(f"/api/shared/{link}/export.zip")
        second = api.get(f"/api/shared/{link}/export.zip")
        assert first.status_code == second.status_code == 200 and first.content == second.content
        assert (export_cache.builds - builds, export_cache.hits - hits) == (1, 1)
        assert api.delete(f"/api/jobs/{job_id}/record", headers=_bearer(token)).status_code == 204
        assert api.get(f"/api/shared/{link}/export.zip").status_code == 404
        assert api.get(f"/api/jobs/{job_id}/export.zip", headers=_bearer(token)).status_code == 404
