"""Admission on a shared instance (issue 31): quotas and the queue cap hold under parallel submits,
admission comes before any parse, the submit-time check is bounded, every request counts against
its address, control characters are refused at the schema, and the small D11 items. Runs on SQLite
and PostgreSQL (conftest STORE_MODULES)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.api.auth import forget_tokens
from backend.hosting.quotas import QuotaExceeded, admit
from backend.jobs.service import JobService, bounded_check
from backend.main import create_app
from backend.settings import Settings
from db.identities import IdentityRepository
from db.jobs import JobRepository
from tests.conftest import make_settings, wait_for

pytestmark = pytest.mark.usefixtures("store")


def _app(settings: Settings) -> Iterator[TestClient]:
    forget_tokens()
    with TestClient(create_app(settings)) as client:
        yield client


def user(api: TestClient, name: str, admin: bool = False) -> tuple[str, dict[str, str]]:
    with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        identity, token = IdentityRepository(session).create(name, "user", admin=admin)
    return identity.id, {"Authorization": f"Bearer {token}"}


def race(api: TestClient, owner: str, admin_flag: bool, count: int) -> int:
    """`count` parallel submits of one owner through the service, each admission held open 50 ms
    (the window in which an unlocked check-then-insert lets the others pass); returns how many got in."""
    service: JobService = api.app.state.service  # type: ignore[attr-defined]
    settings: Settings = api.app.state.settings  # type: ignore[attr-defined]

    def slow_admit(session: Session) -> None:
        admit(session, owner, admin_flag, settings)
        time.sleep(0.05)

    accepted: list[str] = []
    barrier = threading.Barrier(count)

    def one() -> None:
        barrier.wait()
        try:
            accepted.append(service.submit("toy", {"behaviour": "sleep"}, owner, admit=slow_admit))
        except QuotaExceeded:
            pass

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for job_id in accepted:
        service.cancel(job_id)
    return len(accepted)


def test_the_concurrency_quota_holds_under_parallel_submits(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", quota_concurrent_jobs=2, max_workers=1,
                                  warm_workers=0)):
        owner, _ = user(api, "alice")
        assert race(api, owner, False, 10) == 2


def test_the_hourly_quota_holds_under_parallel_submits(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", quota_jobs_per_hour=3, quota_concurrent_jobs=50,
                                  max_workers=1, warm_workers=0)):
        owner, _ = user(api, "alice")
        assert race(api, owner, False, 10) == 3


def test_the_queue_cap_holds_under_parallel_submits(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, max_queued_jobs=3, max_workers=1, warm_workers=0, dispatch_poll_s=60)):
        api.app.state.dispatcher.stop()  # type: ignore[attr-defined]  # nothing is claimed: every job stays queued
        api.app.state.service.wake = lambda: None  # type: ignore[attr-defined]
        with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
            JobRepository(session).create("toy", {"behaviour": "sleep"}, "x")
        assert race(api, "", True, 10) == 2, "3 queued at most, one of them the earlier job"


def _spy_validation(api: TestClient) -> list[str]:
    service: JobService = api.app.state.service  # type: ignore[attr-defined]
    calls: list[str] = []
    original: Callable[..., Any] = service._validated

    def spy(method: str, params: dict[str, Any]) -> Any:
        calls.append(method)
        return original(method, params)

    service._validated = spy  # type: ignore[method-assign]
    return calls


def test_an_identity_over_its_quota_is_refused_before_its_body_is_parsed(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", quota_concurrent_jobs=1, max_workers=1)):
        _, alice = user(api, "alice")
        first = api.post("/api/jobs", json={"method": "toy", "params": {"behaviour": "sleep"}}, headers=alice)
        assert first.status_code == 202
        calls = _spy_validation(api)
        refused = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 3}}, headers=alice)
        assert refused.status_code == 429 and calls == [], "the quota answered after the params were parsed"
        api.delete(f"/api/jobs/{first.json()['id']}", headers=alice)


def test_a_check_over_its_budget_is_left_to_the_job(tmp_path: Path) -> None:
    """With no API budget at all the submit-time check is skipped: the job is accepted and the check
    runs inside the job (whose process has its own limits); within budget, bad input is a 422 at once."""
    bad = {"method": "inequality", "params": {"problem": "x^2 >= y +"}}
    for api in _app(make_settings(tmp_path)):
        assert api.post("/api/jobs", json=bad).status_code == 422
    for api in _app(make_settings(tmp_path / "zero", check_budget_ms=0)):
        accepted = api.post("/api/jobs", json=bad)
        assert accepted.status_code == 202, accepted.text
        job = wait_for(api, accepted.json()["id"], {"failed"})
        assert job["error"], "the job ran the check and reported why"


def test_bounded_check_stops_a_long_pure_python_check_and_lets_a_short_one_finish() -> None:
    def long_check(_model: Any) -> None:
        def step(n: int) -> int:
            return n + 1
        total = 0
        for _ in range(10**9):
            total = step(total)

    seen: list[int] = []
    assert bounded_check(long_check, None, 0.05) is False  # type: ignore[arg-type]
    assert bounded_check(lambda _m: seen.append(1), None, 0.05) is True  # type: ignore[arg-type]
    assert seen == [1]
    with pytest.raises(ValueError):  # the method's own errors still come through
        bounded_check(lambda _m: (_ for _ in ()).throw(ValueError("bad")), None, 1.0)  # type: ignore[arg-type]


def test_junk_authorization_headers_and_401s_count_against_the_address(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", rate_limit_per_minute=5)):
        codes = [api.get("/api/methods/toy", headers={"Authorization": "Bearer junk"}).status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
    for api in _app(make_settings(tmp_path / "b", access_mode="shared", rate_limit_per_minute=5)):
        codes = [api.get("/api/jobs", headers={"Authorization": f"Bearer junk{n}"}).status_code for n in range(6)]
        assert codes == [401] * 5 + [429]
        _, admin = user(api, "root", admin=True)
        assert all(api.get("/api/jobs", headers=admin).status_code == 200 for _ in range(5)), "admins pass"


def test_junk_tokens_over_the_limit_cost_no_database_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over its budget an address's requests with unknown tokens are refused without a token lookup
    once its (equal) budget of lookups is spent: 40 junk tokens cost 5 + 5 reads, not 40."""
    reads: list[str] = []
    original = IdentityRepository.by_token

    def counted(self: IdentityRepository, token: str) -> Any:
        reads.append(token)
        return original(self, token)

    monkeypatch.setattr(IdentityRepository, "by_token", counted)
    for api in _app(make_settings(tmp_path, access_mode="shared", rate_limit_per_minute=5)):
        codes = [api.get("/api/jobs", headers={"Authorization": f"Bearer junk{n}"}).status_code for n in range(40)]
        assert codes == [401] * 5 + [429] * 35
        assert len(reads) <= 10, f"{len(reads)} database reads for 40 junk tokens"


@pytest.mark.parametrize("bad", ["a\x00b", "\x07bell", "x\x1b[31m"])
def test_control_characters_are_refused_at_the_schema(api: TestClient, bad: str) -> None:
    for body in ({"method": "toy", "params": {"behaviour": bad}}, {"method": "toy", "params": {bad: 1}},
                 {"method": "toy", "params": {"nested": [{"deep": bad}]}}, {"method": "toy", "owner": bad}):
        response = api.post("/api/jobs", json=body)
        assert response.status_code == 422, (body, response.text)
        assert "control characters" in response.json()["detail"]
    assert api.get(f"/api/jobs/{quote(bad)}").status_code == 404
    assert api.get(f"/api/jobs?method={quote(bad)}").status_code == 422
    ok = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 1}, "owner": "tab\there"})
    assert ok.status_code == 202, "tab, newline and carriage return are text"


def test_a_user_deletes_a_finished_run_and_only_their_own(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared")):
        _, alice = user(api, "alice")
        _, bob = user(api, "bob")
        job_id = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 2}}, headers=alice).json()["id"]
        deadline = time.monotonic() + 60
        while api.get(f"/api/jobs/{job_id}", headers=alice).json()["status"] != "succeeded":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        link = api.post(f"/api/jobs/{job_id}/share", headers=alice).json()["link"]
        assert api.delete(f"/api/jobs/{job_id}/record", headers=bob).status_code == 404
        assert api.delete(f"/api/jobs/{job_id}/record", headers=alice).status_code == 204
        assert api.get(f"/api/jobs/{job_id}", headers=alice).status_code == 404
        assert api.get(f"/api/shared/{link}").status_code == 404
        assert api.get("/api/jobs", headers=alice).json()["count"] == 0
        running = api.post("/api/jobs", json={"method": "toy", "params": {"behaviour": "sleep"}}, headers=alice)
        assert api.delete(f"/api/jobs/{running.json()['id']}/record", headers=alice).status_code == 409
        api.delete(f"/api/jobs/{running.json()['id']}", headers=alice)


def test_the_session_refusal_waits_for_the_oldest_session_of_the_hour(tmp_path: Path) -> None:
    for api in _app(make_settings(tmp_path, access_mode="shared", sessions_per_hour=2)):
        assert [api.post("/api/sessions").status_code for _ in range(2)] == [201, 201]
        refused = api.post("/api/sessions")
        assert refused.status_code == 429
        assert 3500 <= int(refused.headers["Retry-After"]) <= 3600, refused.headers["Retry-After"]


def test_healthz_names_no_host_and_no_pid(api: TestClient) -> None:
    import os
    import socket

    health = api.get("/healthz").json()
    assert socket.gethostname() not in str(health) and f"-{os.getpid()}-" not in str(health)
    assert health["ok"] and health["disk_ok"] and health["pending_results"] == 0
