"""Every page's method gives the same result through Ray as through the embedded executor.

Each method runs its `smoke_params` (its defaults when it declares none) once through a backend with
EXECUTOR=ray and once through the embedded executor, at the same time; results and verdicts must be
equal apart from measured durations (keys such as `seconds`, `total_seconds`, `seconds_per_step`,
`*_seconds`, `*_ms`, and the measured values of a claim whose quantity is a measured time, such as
skill_moe's runtime ratio, of which only the verdict must agree), which no two runs share."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.main import create_app
from backend.registry import discover
from tests.backend.conftest import RayHead, job_settings
from tests.conftest import wait_for

pytestmark = pytest.mark.slow
END = {"succeeded", "failed", "cancelled", "timed_out"}
TIMING_KEY = re.compile(r"^(seconds|elapsed|wall|runtime)$|^seconds_|_(seconds|elapsed|ms|s)$")
TIMED_CLAIM = re.compile(r"\bmeasured\b.*\btime\b", re.IGNORECASE)
PAGES = [(m.spec.name, dict(m.spec.smoke_params or {})) for m in discover().ordered() if m.module.startswith("models.")]


def without_timings(value: Any) -> Any:
    """`value` with every measured-duration entry removed, recursively."""
    if isinstance(value, dict):
        if TIMED_CLAIM.search(str(value.get("quantity", ""))) and "holds" in value:
            return {"id": value.get("id"), "holds": value["holds"]}  # a timed claim: only its verdict is shared
        return {key: without_timings(item) for key, item in value.items() if not TIMING_KEY.search(str(key))}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def verdict_without_timings(verdict: dict[str, Any], timed: list[str]) -> dict[str, Any]:
    """The verdict with the measured values of timed claims dropped from its detail (their verdicts stay)."""
    detail = str(verdict.get("detail") or "")
    for claim_id in timed:
        detail = re.sub(rf"\b({re.escape(claim_id)} (?:held|partial|not held|not tested)): [^;]*", r"\1", detail)
    return {**verdict, "detail": detail}


@pytest.fixture(scope="module")
def two_backends(ray_head: RayHead, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, TestClient]]:
    root: Path = tmp_path_factory.mktemp("pages")
    limits = {"job_timeout_s": 900, "job_memory_mb": 4096}
    with TestClient(create_app(job_settings(root / "ray", executor="ray", ray_address=ray_head.address, **limits))) as ray, \
            TestClient(create_app(job_settings(root / "embedded", **limits))) as embedded:
        yield ray, embedded


def test_timing_keys_are_recognised() -> None:
    kept = {"steps": 1, "regret": 2.0, "status": "ok", "time_horizon": 8, "seed": 0}
    dropped = {"seconds": 0.1, "total_seconds": 2.0, "solve_seconds": 1.0, "elapsed": 3, "latency_ms": 4,
               "seconds_per_step": 0.01}
    assert without_timings({**kept, **dropped, "stages": [{"name": "parse", "seconds": 0.5}]}) == {
        **kept, "stages": [{"name": "parse"}]}
    timed = {"id": "runtime", "quantity": "measured CPU time, ours / baseline", "holds": "held",
             "ours": {"mean": 0.52}, "seeds": [{"value": 0.52}]}
    counted = {"id": "gain", "quantity": "accuracy - best baseline (points)", "holds": "held", "ours": {"mean": 3.0}}
    assert without_timings({"claims": [timed, counted]}) == {
        "claims": [{"id": "runtime", "holds": "held"}, counted]}
    verdict = {"label": "Partly reproduced", "detail": "gain held: 5 (1 seed); runtime held: 0.489 (1 seed); robust no"}
    assert verdict_without_timings(verdict, ["runtime"]) == {
        "label": "Partly reproduced", "detail": "gain held: 5 (1 seed); runtime held; robust no"}


@pytest.mark.parametrize(("method", "params"), PAGES, ids=[name for name, _ in PAGES])
def test_the_page_gives_the_same_result_through_ray(two_backends: tuple[TestClient, TestClient], method: str,
                                                    params: dict[str, Any]) -> None:
    def run(api: TestClient) -> dict[str, Any]:
        response = api.post("/api/jobs", json={"method": method, "params": params})
        assert response.status_code == 202, response.text
        return wait_for(api, response.json()["id"], END, 900)

    with ThreadPoolExecutor(2) as both:
        through_ray, embedded = both.map(run, two_backends)
    assert through_ray["status"] == embedded["status"] == "succeeded", (through_ray["error"], embedded["error"])
    assert without_timings(through_ray["result"]) == without_timings(embedded["result"])
    timed = [c["id"] for c in embedded["result"].get("claims", []) if TIMED_CLAIM.search(c.get("quantity", ""))]
    assert verdict_without_timings(through_ray["verdict"], timed) == verdict_without_timings(embedded["verdict"], timed)
