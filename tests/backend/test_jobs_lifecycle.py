"""The job lifecycle through the API, with the real process-per-job executor and the toy method."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.main import create_app
from db.jobs import INTERRUPTED_MESSAGE, JobRepository
from db.session import make_engine, make_session_factory, upgrade_to_head
from db.tables import Job, utcnow
from tests.backend.conftest import job_settings
from tests.conftest import make_settings, wait_for


def submit(api: TestClient, **params: object) -> str:
    response = api.post("/api/jobs", json={"method": "toy", "params": params})
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def test_success_reports_progress_and_stores_artifacts(api: TestClient) -> None:
    job_id = submit(api, steps=20, step_s=0.1)
    running = wait_for(api, job_id, {"running"})
    seen_progress = set()
    job = running
    while job["status"] == "running":
        seen_progress.add(round(job["progress"], 2))
        job = api.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()
    job = wait_for(api, job_id, {"succeeded"})
    assert any(0 < p < 1 for p in seen_progress), seen_progress
    assert job["progress"] == 1.0
    assert job["result"] == {"steps_done": 20, "total": 210, "blas_threads": 0, "claims": [], "standing": None,
                             "grids": []}
    assert job["metrics"] == {"Steps done": 20, "Sum of 1..steps": 210}
    assert set(job["figures"]) == {"steps"}
    assert job["artifacts"] == ["result.json", "steps.csv"]
    csv = api.get(f"/api/jobs/{job_id}/artifacts/steps.csv")
    assert csv.status_code == 200
    assert csv.text.splitlines()[:3] == ["step", "0", "1"]
    assert f'filename="toy-{job_id[:8]}-steps.csv"' in csv.headers["content-disposition"]
    verdict = job["verdict"]
    assert (verdict["kind"], verdict["label"], verdict["tone"], verdict["detail"]) == ("answer", "Even", "success",
                                                                                     "the sum is 210")
    assert job["summary"] == "ok, 20 steps · steps=20, step_s=0.1", "the method's summary, then what differs from the defaults"
    assert api.get(f"/api/jobs/{job_id}/artifacts/missing.csv").status_code == 404


def test_method_input_error_fails_the_job_with_its_message(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="fail"), {"failed", "succeeded"})
    assert job["status"] == "failed"
    assert job["error"] == "behaviour 'fail' asks for a failure: this message is for the user"


def test_a_crashing_method_fails_cleanly_and_the_server_keeps_serving(api: TestClient) -> None:
    job = wait_for(api, submit(api, behaviour="crash"), {"failed", "succeeded"})
    assert job["status"] == "failed"
    assert "ZeroDivisionError" in job["error"] and "Traceback" not in job["error"]
    assert wait_for(api, submit(api, steps=2), {"succeeded", "failed"})["status"] == "succeeded"


@pytest.mark.parametrize("step_s", [0.05, 0.0], ids=["steady", "flooding-progress"])
def test_timeout_stops_the_job(tmp_path: Path, step_s: float) -> None:
    with TestClient(create_app(make_settings(tmp_path, job_timeout_s=1.5))) as api:
        job = wait_for(api, submit(api, behaviour="sleep", step_s=step_s), {"timed_out", "succeeded", "failed"}, 30)
        assert job["status"] == "timed_out"
        assert "time limit of 1.5 s" in job["error"]


def test_memory_cap_fails_the_job_not_the_server(tmp_path: Path) -> None:
    with TestClient(create_app(job_settings(tmp_path, job_memory_mb=200))) as api:
        big = {"method": "endings", "params": {"behaviour": "touch_memory", "memory_mb": 2000, "step_s": 2.0}}
        job = wait_for(api, api.post("/api/jobs", json=big).json()["id"], {"failed", "succeeded"}, 30)
        assert job["status"] == "failed"
        assert job["error"].startswith("ran out of memory (")
        small = wait_for(api, submit(api, behaviour="memory", memory_mb=20), {"failed", "succeeded"}, 30)
        assert small["status"] == "succeeded"


def test_cancel_stops_a_running_job(api: TestClient) -> None:
    job_id = submit(api, behaviour="sleep", step_s=0.05)
    wait_for(api, job_id, {"running"})
    response = api.delete(f"/api/jobs/{job_id}")
    assert response.status_code == 200
    job = wait_for(api, job_id, {"cancelled", "failed", "succeeded"}, 20)
    assert job["status"] == "cancelled", job["error"]
    assert api.delete("/api/jobs/does-not-exist").status_code == 404


def test_cancel_a_job_that_ignores_progress_is_killed_after_the_grace(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path, cancel_grace_s=0.5))) as api:
        job_id = submit(api, steps=1, step_s=5.0)  # one long step: progress is not called during it
        wait_for(api, job_id, {"running"})
        api.delete(f"/api/jobs/{job_id}")
        job = wait_for(api, job_id, {"cancelled", "succeeded", "failed"}, 10)
        assert job["status"] == "cancelled", job["error"]


def test_restart_marks_running_jobs_interrupted(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    url = settings.resolved_database_url
    upgrade_to_head(url)
    sessions = make_session_factory(make_engine(url))
    with sessions.begin() as session:
        repo = JobRepository(session)
        job_id = repo.create("toy", {"steps": 1}).id
        repo.mark_running(job_id, "a-server-that-died")
        expired = utcnow() - timedelta(seconds=settings.job_lease_s + 1)
        session.get(Job, job_id).heartbeat_at = expired  # type: ignore[union-attr]
    with TestClient(create_app(settings)) as api:
        job = api.get(f"/api/jobs/{job_id}").json()
        assert job["status"] == "failed"
        assert job["error"] == INTERRUPTED_MESSAGE
        assert wait_for(api, submit(api, steps=1), {"succeeded", "failed"})["status"] == "succeeded"


def test_export_zip_holds_params_result_and_artifacts(api: TestClient) -> None:
    job_id = submit(api, steps=3)
    wait_for(api, job_id, {"succeeded"})
    response = api.get(f"/api/jobs/{job_id}/export.zip")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    bundle = zipfile.ZipFile(io.BytesIO(response.content))
    assert set(bundle.namelist()) == {"params.json", "job.json", "result.json", "artifacts/result.json",
                                      "artifacts/steps.csv", "figures/steps.json", "figures/steps.html",
                                      "figures/plotly.min.js", "reproduce.py", "reproduce.ipynb"}
    assert json.loads(bundle.read("params.json"))["params"]["steps"] == 3
    assert json.loads(bundle.read("artifacts/result.json")) == {"steps_done": 3, "total": 6, "blas_threads": 0,
                                                                "claims": [], "standing": None, "grids": []}
    assert json.loads(bundle.read("job.json"))["verdict"]["label"] == "Even"
    assert json.loads(bundle.read("figures/steps.json"))["layout"]["title"]["text"] == "Steps"
    html = bundle.read("figures/steps.html").decode()
    assert 'src="plotly.min.js"' in html and "Steps" in html
    assert len(bundle.read("figures/plotly.min.js")) > 1_000_000


def test_submit_time_check_answers_422_and_stores_nothing(api: TestClient) -> None:
    before = api.get("/api/jobs", params={"method": "toy"}).json()["count"]
    response = api.post("/api/jobs", json={"method": "toy", "params": {"behaviour": "reject"}})
    assert response.status_code == 422
    assert response.json()["detail"] == "behaviour 'reject' is refused before the job is stored"
    assert api.get("/api/jobs", params={"method": "toy"}).json()["count"] == before


def test_history_filters_by_verdict(api: TestClient) -> None:
    even = submit(api, steps=3)  # 1 + 2 + 3 = 6
    odd = submit(api, steps=2)  # 1 + 2 = 3
    wait_for(api, even, {"succeeded"})
    wait_for(api, odd, {"succeeded"})
    rows = api.get("/api/jobs", params={"method": "toy", "verdict": "Odd"}).json()["data"]
    assert [row["id"] for row in rows] == [odd]
    assert rows[0]["summary"] == "ok, 2 steps · steps=2" and rows[0]["verdict"]["tone"] == "error"


def test_page_resources_are_served_by_key(api: TestClient) -> None:
    assert api.get("/api/methods/toy").json()["resources"] == ["numbers"]
    assert api.get("/api/methods/toy/resources/numbers").json() == [1, 2, 3]
    missing = api.get("/api/methods/toy/resources/nope")
    assert missing.status_code == 404 and "no resource 'nope'" in missing.json()["detail"]


def test_history_lists_jobs_of_a_method_newest_first(api: TestClient) -> None:
    first = submit(api, steps=1)
    wait_for(api, first, {"succeeded"})
    second = api.post("/api/jobs", json={"method": "toy", "params": {"steps": 2}, "owner": "alice"}).json()["id"]
    wait_for(api, second, {"succeeded"})
    history = api.get("/api/jobs", params={"method": "toy"}).json()
    assert history["count"] == 2
    assert [job["id"] for job in history["data"]] == [second, first]
    mine = api.get("/api/jobs", params={"method": "toy", "owner": "alice"}).json()
    assert [job["id"] for job in mine["data"]] == [second]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_job_runs_with_job_threads_blas_threads(tmp_path: Path, threads: int) -> None:
    """The pools were sized in the forkserver, whatever OMP_NUM_THREADS said; the job resizes them."""
    with TestClient(create_app(make_settings(tmp_path, job_threads=threads))) as api:
        job = wait_for(api, submit(api, behaviour="threads"), {"succeeded", "failed"})
        assert job["status"] == "succeeded", job["error"]
        assert job["result"]["blas_threads"] == threads


def test_old_finished_jobs_are_deleted_at_start_up(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, job_retention_days=7)
    url = settings.resolved_database_url
    upgrade_to_head(url)
    sessions = make_session_factory(make_engine(url))
    with sessions.begin() as session:
        repo = JobRepository(session)
        ids = {}
        for label, age_days in (("old", 8), ("recent", 6)):
            job_id = repo.create("toy", {"steps": 1}).id
            repo.mark_running(job_id)
            repo.succeed(job_id, {}, {}, {}, {"result.json": ("application/json", b"{}")})
            session.get(Job, job_id).finished_at = utcnow() - timedelta(days=age_days)  # type: ignore[union-attr]
            ids[label] = job_id
    with TestClient(create_app(settings)) as api:
        assert api.get(f"/api/jobs/{ids['old']}").status_code == 404
        assert api.get(f"/api/jobs/{ids['old']}/artifacts/result.json").status_code == 404
        assert api.get(f"/api/jobs/{ids['recent']}").json()["status"] == "succeeded"
        assert api.get(f"/api/jobs/{ids['recent']}/artifacts/result.json").status_code == 200


def test_the_summary_names_what_differs_from_the_defaults() -> None:
    from backend.jobs.service import _summary
    from tests.toy_method import SPEC, Params

    assert _summary(SPEC, Params()).endswith("· defaults")
    one, other = _summary(SPEC, Params(seed=1)), _summary(SPEC, Params(seed=2))
    assert one != other and one.endswith("seed=1") and other.endswith("seed=2")
    assert len(_summary(SPEC, Params(steps=999, step_s=4.5, memory_mb=65536, seed=2**31 - 1))) <= 200


def test_the_methods_own_summary_says_identifiers_in_words() -> None:
    from backend.jobs.service import _summary
    from models.bilateral_trade import SPEC

    own = _summary(SPEC, SPEC.params_model()).split(" · ")[0]
    assert "two markets" in own.lower() and "_" not in own, own


def test_a_queued_job_knows_how_many_are_ahead(tmp_path: Path) -> None:
    from db.status import JobStatus

    settings = make_settings(tmp_path)
    url = settings.resolved_database_url
    upgrade_to_head(url)
    sessions = make_session_factory(make_engine(url))
    with sessions() as session:
        repository = JobRepository(session)
        first, second, third = (repository.create("toy", {"steps": k}).id for k in (1, 2, 3))
        session.commit()
        assert [repository.queue_position(j) for j in (first, second, third)] == [0, 1, 2]
        repository.finish(first, JobStatus.CANCELLED)
        session.commit()
        assert repository.queue_position(first) is None and repository.queue_position(third) == 1
