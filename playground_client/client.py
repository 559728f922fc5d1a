"""`Client`: submit runs and sweeps to a Method Playground model server, wait for them, read and download them."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import httpx

from playground_client.errors import ServerUnavailable, error_for

__all__ = ["DEFAULT_URL", "Client", "ProgressCallback", "Run", "Sweep"]

DEFAULT_URL = "http://127.0.0.1:8000"
FINISHED = frozenset({"succeeded", "failed", "cancelled", "timed_out"})
ProgressCallback = Callable[[float, str], None]
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


class Client:
    """One model server. `token`: a bearer token for a shared instance (None on a laptop's open server)."""

    def __init__(self, url: str = DEFAULT_URL, token: str | None = None, timeout_s: float = 30.0,
                 poll_s: float = 0.5) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.poll_s = poll_s
        self._http = httpx.Client(timeout=httpx.Timeout(timeout_s, connect=5.0))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def request(self, verb: str, path: str, **kwargs: Any) -> httpx.Response:
        """One HTTP call; an error answer raises its typed error (InvalidRequest, RateLimited, NotFound ...)."""
        headers = dict(kwargs.pop("headers", {}))
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        try:
            response = self._http.request(verb, self.url + path, headers=headers, **kwargs)
        except httpx.TransportError as exc:
            raise ServerUnavailable(0, f"the model server at {self.url} is not reachable ({type(exc).__name__})") from exc
        if response.status_code >= 400:
            try:
                detail = str(response.json().get("detail", response.text))
            except ValueError:
                detail = response.text or response.reason_phrase
            raise error_for(response.status_code, detail, response.headers.get("Retry-After"))
        return response

    def _json(self, verb: str, path: str, **kwargs: Any) -> Any:
        return self.request(verb, path, **kwargs).json()

    def session(self) -> str:
        """Open an anonymous session on a shared instance; the client uses its token from now on."""
        self.token = str(self._json("POST", "/api/sessions")["token"])
        return self.token

    def health(self) -> dict[str, Any]:
        return dict(self._json("GET", "/healthz"))

    def methods(self) -> list[dict[str, Any]]:
        """Every method the server offers: name, title, paper, summary and `params_schema`."""
        return list(self._json("GET", "/api/methods")["data"])

    def method(self, name: str) -> dict[str, Any]:
        return dict(self._json("GET", f"/api/methods/{name}"))

    def submit(self, method: str, params: Mapping[str, Any] | None = None) -> Run:
        """Queue one run and return at once (`Run.wait()` waits for it)."""
        body = {"method": method, "params": dict(params or {})}
        return Run(self, str(self._json("POST", "/api/jobs", json=body)["id"]))

    def run(self, method: str, params: Mapping[str, Any] | None = None, wait: bool = True,
            on_progress: ProgressCallback | None = None, timeout_s: float | None = None) -> Run:
        """Submit one run; with `wait` return when it has ended (any ending: check `Run.status`)."""
        run = self.submit(method, params)
        return run.wait(on_progress, timeout_s) if wait else run

    def job(self, job_id: str) -> Run:
        """An existing run by its id (404 NotFound when there is none, or it is another person's)."""
        run = Run(self, job_id)
        run.refresh()
        return run

    def sweep(self, method: str, params: Mapping[str, Any] | None, vary: Mapping[str, list[Any]],
              wait: bool = True, on_progress: ProgressCallback | None = None,
              timeout_s: float | None = None) -> Sweep:
        """One run per value of one field (at most 12 values), each over the params' seeds."""
        body = {"method": method, "params": dict(params or {}), "vary": {k: list(v) for k, v in vary.items()}}
        sweep = Sweep(self, dict(self._json("POST", "/api/sweeps", json=body)))
        return sweep.wait(on_progress, timeout_s) if wait else sweep

    def get_sweep(self, sweep_id: str) -> Sweep:
        return Sweep(self, dict(self._json("GET", f"/api/sweeps/{sweep_id}")))

    def _wait(self, read: Callable[[], dict[str, Any]], on_progress: ProgressCallback | None,
              timeout_s: float | None) -> dict[str, Any]:
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            state = read()
            if on_progress is not None:
                on_progress(float(state.get("progress", 0.0)), str(state.get("message", state["status"])))
            if state["status"] in FINISHED:
                return state
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"still {state['status']} after {timeout_s:g} s")
            time.sleep(self.poll_s)


class Run:
    """One job on the server. `status`, `result`, `claims`, `verdict` and `metrics` read its last known state."""

    def __init__(self, client: Client, job_id: str) -> None:
        self.client = client
        self.id = job_id
        self.data: dict[str, Any] = {"status": "queued"}

    def __repr__(self) -> str:
        return f"Run({self.id!r}, status={self.data.get('status')!r})"

    def refresh(self, full: bool = True) -> Run:
        view = "full" if full else "status"
        self.data = dict(self.client._json("GET", f"/api/jobs/{self.id}", params={"view": view}))
        return self

    def wait(self, on_progress: ProgressCallback | None = None, timeout_s: float | None = None) -> Run:
        """Poll until the run ends (then read its full view); `on_progress(fraction, message)` on each poll."""
        self.client._wait(lambda: self.refresh(full=False).data, on_progress, timeout_s)
        return self.refresh()

    @property
    def status(self) -> str:
        return str(self.data["status"])

    @property
    def method(self) -> str:
        return str(self.data.get("method", ""))

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.data.get("params") or {})

    @property
    def error(self) -> str | None:
        return self.data.get("error")

    @property
    def result(self) -> dict[str, Any] | None:
        return self.data.get("result")

    @property
    def claims(self) -> list[dict[str, Any]]:
        """The claims as the API serves them: dicts with `id`, `holds`, `ours`, `seeds`, ... ([] before the end)."""
        return list((self.result or {}).get("claims") or [])

    @property
    def verdict(self) -> dict[str, Any] | None:
        return self.data.get("verdict")

    @property
    def metrics(self) -> dict[str, Any]:
        return dict(self.data.get("metrics") or {})

    @property
    def artifacts(self) -> list[str]:
        return list(self.data.get("artifacts") or [])

    def cancel(self) -> str:
        """Ask the server to stop the run; returns the status it answered (`cancelled` or `running` while it stops)."""
        status = str(self.client._json("DELETE", f"/api/jobs/{self.id}")["status"])
        self.data["status"] = status
        return status

    def reproduce_script(self) -> str:
        """The run's `reproduce.py` (re-runs it through the library and checks it against its result)."""
        return self.client.request("GET", f"/api/jobs/{self.id}/reproduce.py").text

    def download(self, folder: str | Path) -> list[Path]:
        """Write every artifact and `export.zip` into `folder`; returns the paths written."""
        target = Path(folder)
        target.mkdir(parents=True, exist_ok=True)
        if self.data.get("artifacts") is None or "result" not in self.data:
            self.refresh()
        written = []
        for name in self.artifacts:
            path = target / (_SAFE.sub("_", name) or "artifact")
            path.write_bytes(self.client.request("GET", f"/api/jobs/{self.id}/artifacts/{name}").content)
            written.append(path)
        archive = target / "export.zip"
        archive.write_bytes(self.client.request("GET", f"/api/jobs/{self.id}/export.zip").content)
        return [*written, archive]


class Sweep:
    """One sweep: `field` over `values`, one run per value; `rows` has, per claim, a row per value."""

    def __init__(self, client: Client, data: dict[str, Any]) -> None:
        self.client = client
        self.data = data
        self.id = str(data["id"])

    def __repr__(self) -> str:
        return f"Sweep({self.id!r}, {self.field}={self.values!r}, status={self.status!r})"

    def refresh(self) -> Sweep:
        self.data = dict(self.client._json("GET", f"/api/sweeps/{self.id}"))
        return self

    def wait(self, on_progress: ProgressCallback | None = None, timeout_s: float | None = None) -> Sweep:
        self.client._wait(lambda: self.refresh().data, on_progress, timeout_s)
        return self

    def cancel(self) -> str:
        self.data = dict(self.client._json("DELETE", f"/api/sweeps/{self.id}"))
        return self.status

    @property
    def status(self) -> str:
        return str(self.data["status"])

    @property
    def method(self) -> str:
        return str(self.data["method"])

    @property
    def field(self) -> str:
        return str(self.data["field"])

    @property
    def values(self) -> list[Any]:
        return list(self.data["values"])

    @property
    def job_ids(self) -> list[str | None]:
        return list(self.data["job_ids"])

    @property
    def rows(self) -> list[dict[str, Any]]:
        return list(self.data["rows"])

    def runs(self) -> list[Run]:
        """The sweep's runs that were submitted so far, in value order."""
        return [self.client.job(job_id) for job_id in self.job_ids if job_id]

    def csv(self) -> str:
        return self.client.request("GET", f"/api/sweeps/{self.id}/rows.csv").text
