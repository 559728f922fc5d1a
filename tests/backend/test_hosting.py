"""The shared hosted instance: tokens, private runs, share links, quotas, rate limits and abuse guards."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.api.auth import forget_tokens
from backend.hosting.bodylimit import BodyLimit
from backend.main import create_app
from backend.settings import Settings
from db.identities import IdentityRepository
from tests.conftest import make_settings, wait_for


def _client(settings: Settings) -> Iterator[TestClient]:
    forget_tokens()
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(make_settings(tmp_path, access_mode="shared", quota_concurrent_jobs=2, quota_jobs_per_hour=60))


def user(api: TestClient, name: str, admin: bool = False) -> dict[str, str]:
    """Authorization headers of a new registered user."""
    with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        _identity, token = IdentityRepository(session).create(name, "user", admin=admin)
    return {"Authorization": f"Bearer {token}"}


def anonymous(api: TestClient) -> dict[str, str]:
    response = api.post("/api/sessions")
    assert response.status_code == 201, response.text
    assert response.json()["expires_at"].endswith(("+00:00", "Z"))
    return {"Authorization": f"Bearer {response.json()['token']}"}


def submit(api: TestClient, headers: dict[str, str], **params: Any) -> str:
    response = api.post("/api/jobs", json={"method": "toy", "params": params}, headers=headers)
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def done(api: TestClient, job_id: str, headers: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = api.get(f"/api/jobs/{job_id}", headers=headers).json()
        if job["status"] in ("succeeded", "failed", "cancelled", "timed_out"):
            return dict(job)
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def test_public_routes_need_no_token_and_the_rest_answer_401(shared: TestClient) -> None:
    for path in ("/healthz", "/docs", "/openapi.json", "/api/methods", "/api/methods/toy", "/api/me"):
        assert shared.get(path).status_code == 200, path
    for verb, path in (("GET", "/api/jobs"), ("POST", "/api/jobs"), ("GET", "/api/jobs/x"), ("DELETE", "/api/jobs/x"),
                       ("GET", "/api/jobs/x/export.zip"), ("POST", "/api/jobs/x/share"), ("GET", "/api/admin/overview")):
        response = shared.request(verb, path, json={"method": "toy", "params": {}} if verb == "POST" else None)
        assert response.status_code == 401, (verb, path, response.text)
        assert "token" in response.json()["detail"]
    wrong = shared.get("/api/jobs", headers={"Authorization": "Bearer not-a-token"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "unknown, revoked or expired token"


def test_runs_are_private_and_another_owners_job_is_404_everywhere(shared: TestClient) -> None:
    alice, bob, admin = user(shared, "alice"), anonymous(shared), user(shared, "root", admin=True)
    job_id = submit(shared, alice, steps=3)
    assert done(shared, job_id, alice)["status"] == "succeeded"
    for verb, path in (("GET", f"/api/jobs/{job_id}"), ("GET", f"/api/jobs/{job_id}?view=status"),
                       ("GET", f"/api/jobs/{job_id}/artifacts/result.json"), ("GET", f"/api/jobs/{job_id}/export.zip"),
                       ("DELETE", f"/api/jobs/{job_id}"), ("POST", f"/api/jobs/{job_id}/share")):
        response = shared.request(verb, path, headers=bob)
        assert response.status_code == 404, (verb, path)
        assert response.json()["detail"] == f"no job with id {job_id!r}", "the same answer as a missing job"
        assert shared.request(verb, path, headers=admin).status_code in (200, 201), (verb, path)
    assert [row["id"] for row in shared.get("/api/jobs", headers=alice).json()["data"]] == [job_id]
    assert shared.get("/api/jobs", headers=bob).json()["data"] == []
    # A non-admin cannot widen the list by naming another owner.
    owner = shared.get("/api/jobs", headers=alice).json()["data"][0]["owner"]
    assert shared.get("/api/jobs", params={"owner": owner}, headers=bob).json()["data"] == []
    assert [row["id"] for row in shared.get("/api/jobs", headers=admin).json()["data"]] == [job_id]


def test_share_links_are_read_only_and_revocable(shared: TestClient) -> None:
    alice, bob = user(shared, "alice"), user(shared, "bob")
    job_id = submit(shared, alice, steps=4)
    done(shared, job_id, alice)
    created = shared.post(f"/api/jobs/{job_id}/share", headers=alice)
    assert created.status_code == 201
    link = created.json()["link"]
    assert created.json()["url"].endswith(f"/toy?share={link}")
    view = shared.get(f"/api/shared/{link}")  # no token at all
    assert view.status_code == 200
    assert view.json()["id"] == job_id and view.json()["result"]["total"] == 10 and view.json()["owner"] == ""
    assert shared.get(f"/api/shared/{link}/artifacts/steps.csv").status_code == 200
    assert shared.get(f"/api/shared/{link}/export.zip").status_code == 200
    assert shared.delete(f"/api/shared/{link}", headers=bob).status_code == 404, "only the owner revokes"
    assert shared.delete(f"/api/shared/{link}", headers=alice).status_code == 204
    assert shared.get(f"/api/shared/{link}").status_code == 404
    assert shared.get("/api/shared/made-up").status_code == 404


def test_concurrency_quota_answers_429_with_retry_after(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, access_mode="shared", quota_concurrent_jobs=2, max_workers=1)):
        alice, admin = user(api, "alice"), user(api, "root", admin=True)
        first, second = submit(api, alice, behaviour="sleep"), submit(api, alice, behaviour="sleep")
        third = api.post("/api/jobs", json={"method": "toy", "params": {}}, headers=alice)
        assert third.status_code == 429
        assert "you already have 2 jobs queued or running (the limit is 2)" in third.json()["detail"]
        assert int(third.headers["Retry-After"]) >= 1
        assert api.post("/api/jobs", json={"method": "toy", "params": {}}, headers=admin).status_code == 202
        for job_id in (first, second):
            api.delete(f"/api/jobs/{job_id}", headers=alice)


def test_hourly_quota_counts_submissions(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, access_mode="shared", quota_jobs_per_hour=3,
                                     quota_concurrent_jobs=10)):
        alice = user(api, "alice")
        for _ in range(3):
            done(api, submit(api, alice, steps=1), alice)
        refused = api.post("/api/jobs", json={"method": "toy", "params": {}}, headers=alice)
        assert refused.status_code == 429 and "3 jobs in the last hour (the limit is 3)" in refused.json()["detail"]
        assert 3500 <= int(refused.headers["Retry-After"]) <= 3600


def test_the_global_queue_cap_holds_in_both_modes(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, max_queued_jobs=2, max_workers=1, warm_workers=0)):
        ids = [api.post("/api/jobs", json={"method": "toy", "params": {"behaviour": "sleep"}}).json()["id"]]
        wait_for(api, ids[0], {"running"})
        ids += [api.post("/api/jobs", json={"method": "toy", "params": {"behaviour": "sleep"}}).json()["id"]
                for _ in range(2)]
        refused = api.post("/api/jobs", json={"method": "toy", "params": {}})
        assert refused.status_code == 429 and "queue is full" in refused.json()["detail"]
        for job_id in ids:
            api.delete(f"/api/jobs/{job_id}")


def test_request_rate_limit_per_identity_and_per_address(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, access_mode="shared", rate_limit_per_minute=5)):
        alice, admin = user(api, "alice"), user(api, "root", admin=True)
        codes = [api.get("/api/jobs", headers=alice).status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        limited = api.get("/api/jobs", headers=alice)
        assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
        assert all(api.get("/api/jobs", headers=admin).status_code == 200 for _ in range(10)), "admins are not limited"
        anonymous_codes = [api.get("/api/methods").status_code for _ in range(6)]
        assert anonymous_codes[-1] == 429, "requests without a token are limited per client address"


def test_sessions_are_rate_limited_per_address(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, access_mode="shared", sessions_per_hour=2)):
        assert [api.post("/api/sessions").status_code for _ in range(3)] == [201, 201, 429]


def test_revoked_and_expired_tokens_stop_working(tmp_path: Path) -> None:
    for api in _client(make_settings(tmp_path, access_mode="shared", session_ttl_hours=1e-6)):
        expired = anonymous(api)
        time.sleep(0.05)
        assert api.get("/api/jobs", headers=expired).status_code == 401
        alice = user(api, "alice")
        assert api.get("/api/jobs", headers=alice).status_code == 200
        with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
            assert IdentityRepository(session).revoke("alice") == 1
        forget_tokens()
        assert api.get("/api/jobs", headers=alice).status_code == 401


def test_chunked_body_above_the_limit_is_refused_without_reading_it_all() -> None:
    """At the ASGI level (a test client would read the whole generator itself): a body without a
    Content-Length is counted as it arrives and refused as soon as it passes the limit."""
    received = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal received
        received += 1
        return {"type": "http.request", "body": b"x" * 2**20, "more_body": received < 400}  # 400 MB in all

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not see a refused body")

    scope = {"type": "http", "method": "POST", "path": "/api/jobs", "headers": [(b"transfer-encoding", b"chunked")]}
    asyncio.run(BodyLimit(app, max_bytes=2 * 2**20)(scope, receive, send))
    assert sent[0]["status"] == 413
    assert received == 3, f"read {received} MB of a refused body"


def test_small_chunked_bodies_still_work(api: TestClient) -> None:
    body = b'{"method": "toy", "params": {"steps": 2}}'
    response = api.post("/api/jobs", content=iter([body[:10], body[10:]]), headers={"content-type": "application/json"})
    assert response.status_code == 202, response.text


def test_unknown_host_headers_are_refused(api: TestClient) -> None:
    assert api.get("/healthz", headers={"host": "evil.example"}).status_code == 400
    assert api.get("/healthz", headers={"host": "127.0.0.1:8000"}).status_code == 200


def test_job_lists_are_paged_capped_and_small(api: TestClient) -> None:
    ids = [api.post("/api/jobs", json={"method": "toy", "params": {"steps": n}}).json()["id"] for n in (1, 2, 3)]
    for job_id in ids:
        wait_for(api, job_id, {"succeeded"})
    assert api.get("/api/jobs", params={"limit": 101}).status_code == 422
    page = api.get("/api/jobs", params={"limit": 2, "method": "toy"}).json()
    rest = api.get("/api/jobs", params={"limit": 2, "offset": 2, "method": "toy"}).json()
    assert page["count"] == 3 and [r["id"] for r in page["data"] + rest["data"]] == ids[::-1]
    assert "params" not in page["data"][0] and "result" not in page["data"][0]
    assert page["data"][0]["created_at"].endswith(("+00:00", "Z")), "timestamps carry their time zone"
