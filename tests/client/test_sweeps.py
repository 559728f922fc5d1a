"""Sweeps against a real server: one job per value, rows per claim that agree with the closed form and with
each run's own claims, validation, cancel, CSV, and in shared mode N jobs against the hourly quota with
the jobs waiting under the concurrency quota."""

from __future__ import annotations

import csv
import io
import math
import statistics
import time

import httpx
import pytest

from playground_client import Client, InvalidRequest, NotFound, RateLimited
from tests.client.sweep_method import expected_values

LEVELS = [3.0, 4.5, 6.0, 9.0]


def test_sweep_rows_match_the_closed_form_and_each_runs_claims(open_server: str) -> None:
    client = Client(open_server)
    sweep = client.sweep("sweep_toy", {"spread": 0.5, "seeds": 3}, {"level": LEVELS}, timeout_s=120)
    assert sweep.status == "succeeded" and sweep.field == "level" and sweep.values == LEVELS
    assert len(set(sweep.job_ids)) == 4 and all(sweep.job_ids)
    runs = sweep.runs()
    assert [r.params["level"] for r in runs] == LEVELS and all(r.params["seeds"] == 3 for r in runs)
    rows = sweep.rows
    assert sorted({r["claim"] for r in rows}) == ["level", "small"]
    for claim in ("level", "small"):
        mine = [r for r in rows if r["claim"] == claim]
        assert [r["value"] for r in mine] == LEVELS  # a row per value, in value order
        for row, run in zip(mine, runs, strict=True):
            values = expected_values(row["value"], 0.5, 3)
            assert math.isclose(row["mean"], statistics.fmean(values), rel_tol=1e-12)
            assert math.isclose(row["sd"], statistics.stdev(values), rel_tol=1e-12) and row["n"] == 3
            low, high = row["interval"]
            assert low < row["mean"] < high
            own = next(c for c in run.claims if c["id"] == claim)
            assert row["holds"] == own["holds"] and row["job_id"] == run.id and row["status"] == "succeeded"
    level_rows = [r for r in rows if r["claim"] == "level"]
    assert level_rows[0]["holds"] == "not_held" and level_rows[-1]["holds"] == "held"  # 3..4 < 5; 9..10 >= 5
    table = list(csv.reader(io.StringIO(sweep.csv())))
    assert table[0][:5] == ["claim", "quantity", "criterion", "target", "level"] and len(table) == 1 + 8


@pytest.mark.parametrize(("body", "words"), [
    ({"vary": {"level": list(range(13))}}, "1 to 12 values"),
    ({"vary": {"level": [1, 2], "spread": [1]}}, "exactly one field"),
    ({"vary": {"level": [1, 1]}}, "distinct"),
    ({"vary": {"level": [1, -5]}}, "sweep value 2"),
    ({"vary": {"level": [1]}, "params": {"nope": 1}}, "nope"),
    ({"vary": {"nope": [1, 2]}}, "not a parameter of sweep_toy"),
])
def test_invalid_sweeps_are_422_and_store_nothing(open_server: str, body: dict, words: str) -> None:
    answer = httpx.post(f"{open_server}/api/sweeps", json={"method": "sweep_toy", **body}, timeout=30)
    assert answer.status_code == 422 and words in answer.json()["detail"]


def test_a_deleted_run_ends_its_sweep_row(open_server: str) -> None:
    client = Client(open_server)
    sweep = client.sweep("sweep_toy", {"seeds": 2}, {"level": [1.0, 2.0]}, timeout_s=120)
    assert httpx.delete(f"{open_server}/api/jobs/{sweep.job_ids[1]}/record", timeout=30).status_code == 204
    sweep.refresh()
    assert sweep.status == "failed" and sweep.data["message"].startswith("2 of 2 runs ended")
    gone = [r for r in sweep.rows if r["value"] == 2.0]
    assert gone and all(r["status"] == "deleted" and r["mean"] is None for r in gone)


def test_cancelling_a_sweep_cancels_its_jobs(open_server: str) -> None:
    client = Client(open_server)
    sweep = client.sweep("sweep_toy", {"step_s": 3.0, "seeds": 5}, {"level": [1.0, 2.0, 3.0]}, wait=False)
    assert sweep.status in ("queued", "running")
    sweep.cancel()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(r.status not in ("cancelled",) for r in sweep.runs()):
        time.sleep(0.2)
    assert [r.status for r in sweep.runs()] == ["cancelled"] * 3
    assert sweep.refresh().status == "cancelled"
    with pytest.raises(NotFound):
        client.get_sweep("00000000-0000-0000-0000-000000000000")


def test_shared_sweep_counts_n_jobs_and_waits_under_the_concurrency_quota(shared_server: str) -> None:
    alice, bob = Client(shared_server), Client(shared_server)
    alice.session()
    bob.session()
    with pytest.raises(RateLimited) as refused:  # the hourly quota is 8: a sweep of 9 is 9 jobs
        alice.sweep("sweep_toy", {}, {"level": [float(v) for v in range(9)]}, wait=False)
    assert "9 jobs" in refused.value.detail and refused.value.retry_after
    sweep = alice.sweep("sweep_toy", {"step_s": 0.3, "seeds": 1}, {"level": [1.0, 2.0, 3.0, 4.0, 5.0]}, wait=False)
    assert sum(1 for j in sweep.job_ids if j) <= 2  # the concurrency quota is 2: the rest wait
    most_active = 0
    deadline = time.monotonic() + 120
    while sweep.refresh().status not in ("succeeded", "failed") and time.monotonic() < deadline:
        listed = httpx.get(f"{shared_server}/api/jobs", headers={"Authorization": f"Bearer {alice.token}"},
                           params={"limit": 50}, timeout=30).json()["data"]
        most_active = max(most_active, sum(1 for j in listed if j["status"] in ("queued", "running")))
        time.sleep(0.2)
    assert sweep.status == "succeeded" and all(sweep.job_ids) and most_active <= 2
    with pytest.raises(NotFound):
        bob.get_sweep(sweep.id)
    with pytest.raises(RateLimited):  # 5 of 8 used: a sweep of 4 no longer fits in this hour
        alice.sweep("sweep_toy", {}, {"level": [1.0, 2.0, 3.0, 4.0]}, wait=False)
    with pytest.raises(InvalidRequest):
        alice.sweep("sweep_toy", {}, {"level": []}, wait=False)
