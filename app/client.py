"""The only code that speaks HTTP to the model server."""

from __future__ import annotations

import os
from typing import Any

import httpx

__all__ = ["BackendError", "BackendUnavailable", "artifact_bytes", "backend_url", "cancel", "examples",
           "admin_overview", "export_zip", "health", "job", "jobs", "me", "method", "methods", "new_session", "reproductions", "resource",
           "share", "shared_artifact_bytes", "shared_export_zip", "shared_job", "submit"]

TIMEOUT = httpx.Timeout(30.0, connect=3.0)


class BackendUnavailable(RuntimeError):
    """The model server cannot be reached."""


class BackendError(RuntimeError):
    """The model server answered with an error; `detail` is its user-facing message."""

    def __init__(self, status_code: int, detail: str) -> None:
        super().__init__(detail)
        self.status_code = status_code
        self.detail = detail


def backend_url() -> str:
    return os.environ.get("BACKEND_URL", "http://127.0.0.1:8000").rstrip("/")


def _session_headers() -> dict[str, str]:
    """The bearer token of this browser session (shared mode, kept in Streamlit's session state only)
    and the browser's address, so the model server's per-address limits see people, not this server."""
    headers: dict[str, str] = {}
    try:
        import streamlit as st

        token = st.session_state.get("api_token")
        address = getattr(st.context, "ip_address", None)
    except Exception:  # noqa: BLE001 - outside a Streamlit session there is neither
        return headers
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if isinstance(address, str) and address and len(address) <= 64:
        headers["X-Forwarded-For"] = address
    return headers


def _request(verb: str, path: str, **kwargs: Any) -> httpx.Response:
    extra = _session_headers()
    if extra:
        kwargs["headers"] = {**kwargs.get("headers", {}), **extra}
    try:
        response = httpx.request(verb, backend_url() + path, timeout=TIMEOUT, **kwargs)
    except httpx.TransportError as exc:
        raise BackendUnavailable(f"the model server at {backend_url()} is not reachable ({type(exc).__name__})") from exc
    if response.status_code >= 400:
        try:
            detail = str(response.json().get("detail", response.text))
        except ValueError:
            detail = response.text or response.reason_phrase
        raise BackendError(response.status_code, detail)
    return response


def health() -> dict[str, Any]:
    return dict(_request("GET", "/healthz").json())


def reproductions() -> dict[str, dict[str, Any]]:
    """Per method, its latest "Reproduce the paper" run (the instance's reference runs or this caller's)."""
    return dict(_request("GET", "/api/home/reproductions").json()["data"])


def methods() -> list[dict[str, Any]]:
    return list(_request("GET", "/api/methods").json()["data"])


def method(name: str) -> dict[str, Any]:
    return dict(_request("GET", f"/api/methods/{name}").json())


def examples(name: str) -> dict[str, dict[str, Any]]:
    return dict(_request("GET", f"/api/methods/{name}/examples").json())


def resource(name: str, key: str) -> Any:
    return _request("GET", f"/api/methods/{name}/resources/{key}").json()


def submit(method_name: str, params: dict[str, Any], owner: str = "", example: str | None = None) -> str:
    """Submit a job; `example`: the label of the example these params are, unchanged (None: own inputs)."""
    body: dict[str, Any] = {"method": method_name, "params": params, "owner": owner}
    if example is not None:
        body["example"] = example
    return str(_request("POST", "/api/jobs", json=body).json()["id"])


def job(job_id: str, full: bool = True) -> dict[str, Any]:
    return dict(_request("GET", f"/api/jobs/{job_id}", params={"view": "full" if full else "status"}).json())


def cancel(job_id: str) -> str:
    return str(_request("DELETE", f"/api/jobs/{job_id}").json()["status"])


def jobs(method_name: str | None, owner: str | None = None, limit: int = 20, verdict: str | None = None,
         example: str | None = None) -> list[dict[str, Any]]:
    """History rows, newest first; `example`: only runs started from that example unchanged."""
    query: dict[str, Any] = {"limit": limit}
    for key, value in (("method", method_name), ("owner", owner), ("verdict", verdict), ("example", example)):
        if value:
            query[key] = value
    return list(_request("GET", "/api/jobs", params=query).json()["data"])


def me() -> dict[str, Any]:
    return dict(_request("GET", "/api/me").json())


def new_session() -> str:
    return str(_request("POST", "/api/sessions").json()["token"])


def share(job_id: str) -> dict[str, str]:
    return dict(_request("POST", f"/api/jobs/{job_id}/share").json())


def shared_job(link: str) -> dict[str, Any]:
    return dict(_request("GET", f"/api/shared/{link}").json())


def shared_artifact_bytes(link: str, name: str) -> bytes:
    return _request("GET", f"/api/shared/{link}/artifacts/{name}").content


def shared_export_zip(link: str) -> bytes:
    return _request("GET", f"/api/shared/{link}/export.zip").content


def admin_overview() -> dict[str, Any]:
    return dict(_request("GET", "/api/admin/overview").json())


def artifact_bytes(job_id: str, name: str) -> bytes:
    return _request("GET", f"/api/jobs/{job_id}/artifacts/{name}").content


def export_zip(job_id: str) -> bytes:
    return _request("GET", f"/api/jobs/{job_id}/export.zip").content


def sweep_create(body: dict[str, Any]) -> str:
    """Start a sweep ({method, params, vary: {field: [values]}}); its id."""
    return str(_request("POST", "/api/sweeps", json=body).json()["id"])


def sweep(sweep_id: str) -> dict[str, Any]:
    """A sweep's status, jobs and rows (reading it also submits values waiting for a free slot)."""
    return dict(_request("GET", f"/api/sweeps/{sweep_id}").json())


def sweep_cancel(sweep_id: str) -> None:
    _request("DELETE", f"/api/sweeps/{sweep_id}")


def sweep_csv(sweep_id: str) -> str:
    return _request("GET", f"/api/sweeps/{sweep_id}/rows.csv").text
