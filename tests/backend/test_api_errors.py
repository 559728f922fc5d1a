"""Bad input gets a readable 4xx; methods, examples and health are served."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"method": "nope", "params": {}}, "unknown method 'nope'"),
        ({"method": "toy", "params": {"steps": "many"}}, "steps: Input should be a valid integer"),
        ({"method": "toy", "params": {"steps": 0}}, "steps: Input should be greater than or equal to 1"),
        ({"method": "toy", "params": {"steps": 10**9}}, "steps: Input should be less than or equal to 1000"),
        ({"method": "toy", "params": {"colour": "red"}}, "colour: Extra inputs are not permitted"),
        ({"method": "toy", "params": {"behaviour": "explode"}}, "behaviour: Input should be"),
        ({"params": {}}, "body.method: Field required"),
        ({"method": "toy", "params": [1, 2]}, "body.params: Input should be a valid dictionary"),
    ],
)
def test_bad_job_requests_get_a_readable_422(api: TestClient, body: dict, expected: str) -> None:
    response = api.post("/api/jobs", json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and expected in detail, detail


def test_malformed_json_body_is_a_422(api: TestClient) -> None:
    response = api.post("/api/jobs", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)


def test_oversized_body_is_refused(api: TestClient) -> None:
    response = api.post("/api/jobs", content=b"x" * (3 * 2**20), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_unknown_job_is_404(api: TestClient) -> None:
    assert api.get("/api/jobs/nope").status_code == 404
    assert api.get("/api/jobs/nope/export.zip").status_code == 404
    assert api.get("/api/jobs", params={"limit": 0}).status_code == 422


def test_methods_listing_has_paper_summary_and_schema(api: TestClient) -> None:
    listing = api.get("/api/methods").json()
    toy = next(m for m in listing["data"] if m["name"] == "toy")
    assert toy["paper"]["citation"] == "Tests. A toy. ICML 2026."
    assert toy["params_schema"]["properties"]["steps"]["maximum"] == 1000
    assert api.get("/api/methods/toy/examples").json() == {"Quick": {"steps": 3}}
    assert api.get("/api/methods/nope").status_code == 404


def test_healthz_reports_database_and_executor(api: TestClient) -> None:
    health = api.get("/healthz").json()
    assert health["ok"] and health["database"]
    assert health["executor"] == "embedded" and health["workers"] == 2
    assert health["torch_device"] in {"cpu", "cuda"}


def test_openapi_docs_are_served(api: TestClient) -> None:
    assert api.get("/docs").status_code == 200
    paths = api.get("/openapi.json").json()["paths"]
    assert {"/api/methods", "/api/jobs", "/api/jobs/{job_id}", "/healthz", "/api/jobs/{job_id}/export.zip"} <= set(paths)
