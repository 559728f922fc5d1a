"""playground_client against a real server: runs, claims and verdicts as the API serves them, downloads,
cancel, progress, and the typed errors (422 with the field, 429 with Retry-After, 404, 401)."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from playground_client import Client, InvalidRequest, NotFound, RateLimited, Unauthorized
from playground_client.errors import error_for


def _served_job(url: str, job_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{url}/api/jobs/{job_id}", headers=headers, timeout=30).json()


def test_run_returns_what_the_api_serves_and_downloads_everything(open_server: str, tmp_path: Path) -> None:
    client = Client(open_server)
    assert {"toy", "sweep_toy"} <= {m["name"] for m in client.methods()}
    seen: list[float] = []
    run = client.run("sweep_toy", {"level": 6.0, "seeds": 3}, on_progress=lambda f, _m: seen.append(f))
    assert run.status == "succeeded", run.error
    served = _served_job(open_server, run.id)
    assert run.claims == served["result"]["claims"] and [c["id"] for c in run.claims] == ["level", "small"]
    assert run.verdict == served["verdict"] and run.verdict is not None
    assert run.metrics == served["metrics"] and run.params["level"] == 6.0
    assert seen and all(0.0 <= f <= 1.0 for f in seen)
    written = run.download(tmp_path / "out")
    assert {p.name for p in written} == {*run.artifacts, "export.zip"}
    assert (tmp_path / "out" / "result.json").read_bytes() == httpx.get(
        f"{open_server}/api/jobs/{run.id}/artifacts/result.json", timeout=30).content
    names = zipfile.ZipFile(io.BytesIO((tmp_path / "out" / "export.zip").read_bytes())).namelist()
    assert {"result.json", "params.json", "reproduce.py", "reproduce.ipynb"} <= set(names)
    assert f'JOB_ID = "{run.id}"' in run.reproduce_script()


def test_submit_then_cancel(open_server: str) -> None:
    client = Client(open_server)
    run = client.submit("toy", {"behaviour": "sleep", "step_s": 0.2})
    deadline = time.monotonic() + 60
    while run.refresh(full=False).status == "queued" and time.monotonic() < deadline:
        time.sleep(0.1)
    run.cancel()
    assert run.wait(timeout_s=60).status == "cancelled"


def test_typed_errors_carry_the_servers_message(open_server: str) -> None:
    client = Client(open_server)
    with pytest.raises(InvalidRequest) as invalid:
        client.run("sweep_toy", {"level": -1})
    assert invalid.value.status_code == 422 and invalid.value.field == "level"
    assert "greater than or equal to 0" in invalid.value.detail
    with pytest.raises(InvalidRequest) as unknown:
        client.submit("no_such_method")
    assert unknown.value.field is None and "unknown method" in unknown.value.detail
    with pytest.raises(NotFound):
        client.job("00000000-0000-0000-0000-000000000000")
    limited = error_for(429, "slow down", "17")
    assert isinstance(limited, RateLimited) and limited.retry_after == 17.0


def test_shared_mode_session_run_privacy_and_quota(shared_server: str) -> None:
    with pytest.raises(Unauthorized):
        Client(shared_server).submit("toy")
    alice, bob = Client(shared_server), Client(shared_server)
    alice.session()
    bob.session()
    run = alice.run("sweep_toy", {"level": 3.0, "seeds": 2})
    assert run.status == "succeeded"
    served = _served_job(shared_server, run.id, alice.token)
    assert run.claims == served["result"]["claims"] and run.verdict == served["verdict"]
    with pytest.raises(NotFound):
        bob.job(run.id)
    sleepers = [bob.submit("toy", {"behaviour": "sleep", "step_s": 0.2}) for _ in range(2)]
    with pytest.raises(RateLimited) as limited:
        bob.submit("toy")
    assert limited.value.retry_after is not None and limited.value.retry_after > 0
    assert "limit is 2" in limited.value.detail
    for sleeper in sleepers:
        sleeper.cancel()
