"""Home's reproduction status (`GET /api/home/reproductions`) and the instance's reference runs, on
SQLite and PostgreSQL: the latest "Reproduce the paper" run per method, from the reference identity or
the caller's own runs in shared mode, never another visitor's."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.api.auth import forget_tokens
from backend.main import create_app
from backend.reference_runs import REFERENCE_KIND, reference_owner, submit_reference_runs
from backend.registry import discover
from db.identities import IdentityRepository
from db.tables import Identity, Job
from tests.conftest import make_settings

pytestmark = pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _client(tmp_path: Path, mode: str) -> Iterator[TestClient]:
    forget_tokens()
    with TestClient(create_app(make_settings(tmp_path, access_mode=mode))) as client:
        yield client


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(tmp_path, "shared")


@pytest.fixture
def open_api(tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(tmp_path, "open")


def _user(api: TestClient, name: str) -> tuple[str, dict[str, str]]:
    with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        identity, token = IdentityRepository(session).create(name, "user")
        return identity.id, {"Authorization": f"Bearer {token}"}


def _run(api: TestClient, owner: str, minutes: int, held: int, tested: int = 4, *, example: str = "Reproduce the paper",
         status: str = "succeeded") -> str:
    """A finished toy run stored as the job service leaves one (the run itself is not what is tested)."""
    with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        job = Job(method="toy", params={}, owner=owner, status=status, example=example, verdict="partial",
                  verdict_kind="partial", verdict_tone="warning", verdict_held=held, verdict_tested=tested,
                  verdict_headline=5, verdict_seeds=3, created_at=T0, finished_at=T0 + timedelta(minutes=minutes))
        session.add(job)
        session.flush()
        return job.id


def _toy(api: TestClient, headers: dict[str, str] | None = None) -> dict | None:
    response = api.get("/api/home/reproductions", headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()["data"].get("toy")


def _reference(api: TestClient) -> str:
    with api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        owner = reference_owner(session, create=True)
    assert owner
    return owner


def test_shared_mode_shows_your_runs_or_the_reference_runs_never_a_strangers(shared: TestClient) -> None:
    alice, alice_h = _user(shared, "alice")
    bob, bob_h = _user(shared, "bob")
    _carol, carol_h = _user(shared, "carol")
    assert _toy(shared, carol_h) is None  # "not yet run"
    bobs = _run(shared, bob, minutes=30, held=1)  # the newest run of all, but bob's
    assert _toy(shared, carol_h) is None and _toy(shared, alice_h) is None
    assert _toy(shared, bob_h) == {"job_id": bobs, "example": "Reproduce the paper", "kind": "partial",
                                   "tone": "warning", "held": 1, "tested": 4, "headline": 5, "seeds": 3,
                                   "finished_at": _toy(shared, bob_h)["finished_at"], "source": "yours"}
    _run(shared, _reference(shared), minutes=10, held=3)
    seen = _toy(shared, carol_h)
    assert seen is not None and (seen["held"], seen["source"], seen["job_id"]) == (3, "reference", "")
    alices = _run(shared, alice, minutes=20, held=2)  # alice's own, newer than the reference run
    assert (_toy(shared, alice_h)["held"], _toy(shared, alice_h)["job_id"]) == (2, alices)
    assert _toy(shared, carol_h)["held"] == 3 and _toy(shared, bob_h)["held"] == 1
    assert shared.get("/api/home/reproductions").status_code == 401


def test_only_succeeded_reproduce_runs_count_and_the_latest_wins(open_api: TestClient) -> None:
    _run(open_api, "browser-a", minutes=5, held=1, example="Quick")
    _run(open_api, "browser-a", minutes=6, held=1, status="failed")
    _run(open_api, "browser-a", minutes=7, held=1, example=None)  # type: ignore[arg-type]
    assert _toy(open_api) is None
    _run(open_api, "browser-a", minutes=8, held=2, example="Reproduce the paper (3 seeds)")
    latest = _run(open_api, "browser-b", minutes=9, held=4)  # open mode: one local user, every run counts
    seen = _toy(open_api)
    assert seen is not None and (seen["job_id"], seen["held"], seen["source"]) == (latest, 4, "yours")
    assert seen["finished_at"].startswith("2026-12-01T12:09")


def test_reference_runs_are_queued_as_the_instance_with_their_example(open_api: TestClient) -> None:
    registry = discover()
    with open_api.app.state.sessions.begin() as session:  # type: ignore[attr-defined]
        rows = submit_reference_runs(registry, session, ["erm_overfit"])
        jobs = [session.get(Job, job_id) for _m, _l, job_id in rows]
        owner = reference_owner(session)
        identity = session.get(Identity, owner)
        assert identity is not None and identity.kind == REFERENCE_KIND and identity.revoked_at is not None
        assert rows and all(label.startswith("Reproduce the paper") for _m, label, _j in rows)
        assert all(job is not None and job.owner == owner and job.status == "queued" and job.example == label
                   for job, (_m, label, _j) in zip(jobs, rows, strict=True))
        assert jobs[0] is not None and jobs[0].params == registry.get("erm_overfit").spec.params_model.model_validate(
            dict(registry.get("erm_overfit").spec.examples())[rows[0][1]]).model_dump(mode="json")
        assert reference_owner(session, create=True) == owner  # one reference identity, reused
        with pytest.raises(KeyError):
            submit_reference_runs(registry, session, ["no_such_method"])
