"""Result tables as data and the example a run was started from, stored and served on both stores.

`endings` declares one table (a NaN cell, a NUL in a text cell); `toy` has the example "Quick" (steps 3).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from backend.main import create_app
from tests.backend.conftest import job_settings, submit
from tests.conftest import wait_for


@pytest.fixture
def jobs_api(tmp_path: Path, store: str) -> Iterator[TestClient]:
    with TestClient(create_app(job_settings(tmp_path, executor="inline"))) as client:
        yield client


def test_a_succeeded_job_serves_its_tables_typed_in_the_full_view_only(jobs_api: TestClient) -> None:
    job_id = submit(jobs_api, "endings", steps=3)
    assert wait_for(jobs_api, job_id, {"succeeded", "failed"})["status"] == "succeeded"
    assert jobs_api.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["tables"] is None
    tables = jobs_api.get(f"/api/jobs/{job_id}", params={"view": "full"}).json()["tables"]
    assert [table["title"] for table in tables] == ["Steps"]
    steps = tables[0]
    assert [column["key"] for column in steps["columns"]] == ["step", "share", "even", "note"]
    assert steps["columns"][1] == {"key": "share", "label": "Share", "unit": "%", "fmt": "number", "digits": 3}
    assert steps["caption"] == "Each step once."
    assert [row["step"] for row in steps["rows"]] == [0, 1, 2]
    assert steps["rows"][1]["share"] == pytest.approx(100 / 3)
    assert steps["rows"][2]["share"] is None, "NaN is stored as null (PostgreSQL's JSON has no NaN)"
    assert [row["even"] for row in steps["rows"]] == [True, False, True]
    assert steps["rows"][0]["note"] == "step\ufffd0", "a NUL in a text cell is replaced before it is stored"


def test_the_embedded_executor_stores_the_tables_too(tmp_path: Path, store: str) -> None:
    """The job process (forked, its outcome sent over the pipe) carries the tables like the metrics."""
    with TestClient(create_app(job_settings(tmp_path, executor="embedded"))) as api:
        job_id = submit(api, "endings", steps=2)
        assert wait_for(api, job_id, {"succeeded", "failed"})["status"] == "succeeded"
        (steps,) = api.get(f"/api/jobs/{job_id}").json()["tables"]
        assert steps["title"] == "Steps" and [row["step"] for row in steps["rows"]] == [0, 1]


def test_a_failed_job_and_a_method_without_tables_serve_an_empty_list(jobs_api: TestClient) -> None:
    failed = submit(jobs_api, "toy", behaviour="fail")
    ok = submit(jobs_api, "toy", steps=2)
    assert wait_for(jobs_api, failed, {"failed", "succeeded"})["status"] == "failed"
    assert wait_for(jobs_api, ok, {"failed", "succeeded"})["status"] == "succeeded"
    assert jobs_api.get(f"/api/jobs/{failed}").json()["tables"] == []
    assert jobs_api.get(f"/api/jobs/{ok}").json()["tables"] == []


def test_an_example_label_is_stored_and_served_in_the_job_and_the_history(jobs_api: TestClient) -> None:
    response = jobs_api.post("/api/jobs", json={"method": "toy", "params": {"steps": 3}, "example": "Quick"})
    assert response.status_code == 202, response.text
    started = response.json()["id"]
    own = submit(jobs_api, "toy", steps=3)  # the same params without a label: the visitor's own inputs
    for job_id in (started, own):
        wait_for(jobs_api, job_id, {"succeeded", "failed"})
    assert jobs_api.get(f"/api/jobs/{started}").json()["example"] == "Quick"
    assert jobs_api.get(f"/api/jobs/{own}", params={"view": "status"}).json()["example"] is None
    rows = {row["id"]: row for row in jobs_api.get("/api/jobs", params={"method": "toy"}).json()["data"]}
    assert rows[started]["example"] == "Quick" and rows[own]["example"] is None
    only = jobs_api.get("/api/jobs", params={"example": "Quick"}).json()
    assert [row["id"] for row in only["data"]] == [started] and only["count"] == 1


@pytest.mark.parametrize(("body", "said"), [
    ({"method": "toy", "params": {"steps": 3}, "example": "Slow"}, "'Slow' is not an example of toy (its examples: 'Quick')"),
    ({"method": "toy", "params": {"steps": 4}, "example": "Quick"}, "differ from example 'Quick' in steps"),
    ({"method": "endings", "params": {}, "example": "Quick"}, "is not an example of endings (its examples: none)"),
    ({"method": "toy", "params": {"steps": 3}, "example": ""}, "example"),
    ({"method": "toy", "params": {"steps": 3}, "example": "Qu\x00ick"}, "example: control characters"),
])
def test_an_example_that_is_not_the_methods_or_not_unchanged_is_refused_with_a_readable_422(
        jobs_api: TestClient, body: dict[str, object], said: str) -> None:
    response = jobs_api.post("/api/jobs", json=body)
    assert response.status_code == 422, response.text
    assert said in str(response.json()["detail"])
    assert jobs_api.get("/api/jobs").json()["count"] == 0, "a refused submit stores no job"
