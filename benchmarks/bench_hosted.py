"""Load test of a shared instance: many users with their own tokens submit and poll at once.

Starts the backend as `make run` does (uvicorn subprocess, embedded executor, ACCESS_MODE=shared,
default quotas) on SQLite and, where Debian's postgresql is installed, on a throwaway PostgreSQL
cluster, then runs USERS simulated users for SECONDS: each submits a short toy job, polls its
status view until it ends, reads its full result, and starts again. Prints requests/s, p50/p95
latency per request kind, how many submissions were refused with 429 (quotas, queue cap), and
jobs lost: accepted jobs that never reached a terminal state or whose result its owner could not
read (must be 0).

    python benchmarks/bench_hosted.py [--users 50] [--seconds 60] [--stores sqlite,postgres]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.devstack import free_port, wait_http  # noqa: E402
from db.identities import IdentityRepository  # noqa: E402
from db.session import make_engine, make_session_factory, upgrade_to_head  # noqa: E402
from tests.postgres import pg_bin, postgres_cluster  # noqa: E402

TERMINAL = {"succeeded", "failed", "cancelled", "timed_out"}
JOB = {"method": "toy", "params": {"steps": 5, "step_s": 0.04}}


def make_tokens(url: str, users: int) -> list[str]:
    upgrade_to_head(url)
    engine = make_engine(url)
    with make_session_factory(engine).begin() as session:
        repo = IdentityRepository(session)
        tokens = [repo.create(f"user{index}", "user")[1] for index in range(users)]
    engine.dispose()
    return tokens


def start_server(data_dir: str, database_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=data_dir, DATABASE_URL=database_url, EXTRA_METHODS="tests.toy_method",
               ACCESS_MODE="shared", OMP_NUM_THREADS="1", PRELOAD_METHODS="false")
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--host", "127.0.0.1",
                                "--port", str(port), "--log-level", "warning", "--limit-concurrency", "512",
                                "--timeout-keep-alive", "5"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    wait_http(url + "/healthz", process, timeout_s=240)
    return process, url


def user_loop(url: str, token: str, deadline: float, out: dict[str, Any]) -> None:
    """One simulated user: submit, poll the status view, read the result, repeat until the deadline.
    A request that fails at the transport level (timeout, reset) is counted, and the user goes on."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        while time.monotonic() < deadline:
            try:
                one_job(client, deadline, out)
            except httpx.TransportError as exc:
                out["errors"].append(type(exc).__name__)


def one_job(client: httpx.Client, deadline: float, out: dict[str, Any]) -> None:
    """Submit one job, poll it to its end, read its result."""
    start = time.perf_counter()
    response = client.post("/api/jobs", json=JOB)
    out["latency"]["submit"].append(time.perf_counter() - start)
    if response.status_code == 429:
        out["refused"] += 1
        time.sleep(min(float(response.headers.get("Retry-After", "1")), 2.0))
        return
    if response.status_code != 202:
        out["errors"].append(response.status_code)
        return
    job_id = response.json()["id"]
    out["accepted"].append((client.headers["Authorization"].split()[-1], job_id))
    status = "queued"
    while status not in TERMINAL and time.monotonic() < deadline:
        time.sleep(0.2)
        start = time.perf_counter()
        polled = client.get(f"/api/jobs/{job_id}", params={"view": "status"})
        out["latency"]["poll"].append(time.perf_counter() - start)
        if polled.status_code == 429:
            out["refused_polls"] += 1
            continue
        status = polled.json()["status"] if polled.status_code == 200 else status
    if status in TERMINAL:
        start = time.perf_counter()
        client.get(f"/api/jobs/{job_id}")
        out["latency"]["result"].append(time.perf_counter() - start)


def worker(url: str, tokens: list[str], seconds: float, queue: Any) -> None:
    deadline = time.monotonic() + seconds
    results = [{"latency": defaultdict(list), "accepted": [], "refused": 0, "refused_polls": 0, "errors": []}
               for _ in tokens]
    threads = [threading.Thread(target=user_loop, args=(url, token, deadline, result))
               for token, result in zip(tokens, results, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put([{**r, "latency": dict(r["latency"])} for r in results])


def lost_jobs(url: str, accepted: list[tuple[str, str]], grace_s: float = 120) -> int:
    """Accepted jobs that never end, or whose result their owner cannot read."""
    lost = 0
    deadline = time.monotonic() + grace_s
    with httpx.Client(base_url=url, timeout=30) as client:
        for token, job_id in accepted:
            headers = {"Authorization": f"Bearer {token}"}
            while True:
                job = client.get(f"/api/jobs/{job_id}", headers=headers)
                if job.status_code == 429:
                    time.sleep(1)
                    continue
                if job.status_code != 200:
                    lost += 1
                    break
                body = job.json()
                if body["status"] in TERMINAL:
                    lost += int(body["status"] == "succeeded" and body.get("result") is None)
                    break
                if time.monotonic() > deadline:
                    lost += 1
                    break
                time.sleep(0.2)
    return lost


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def run_store(label: str, database_url: str, data_dir: str, users: int, seconds: float) -> None:
    tokens = make_tokens(database_url, users)
    process, url = start_server(data_dir, database_url)
    try:
        queue: Any = multiprocessing.get_context("spawn").Queue()
        chunks = [tokens[i::5] for i in range(5)]
        started = time.monotonic()
        workers = [multiprocessing.get_context("spawn").Process(target=worker, args=(url, chunk, seconds, queue))
                   for chunk in chunks if chunk]
        for process_ in workers:
            process_.start()
        results = [item for _ in workers for item in queue.get(timeout=seconds + 300)]
        for process_ in workers:
            process_.join()
        elapsed = time.monotonic() - started
        latency: dict[str, list[float]] = defaultdict(list)
        for result in results:
            for kind, values in result["latency"].items():
                latency[kind].extend(values)
        accepted = [pair for result in results for pair in result["accepted"]]
        requests = sum(len(values) for values in latency.values())
        lost = lost_jobs(url, accepted)
    finally:
        process.terminate()
        process.wait(20)
    print(f"\n{label}: {users} users for {seconds:g} s against one backend (MAX_WORKERS=2, shared mode)")
    print(f"  requests: {requests}  ({requests / elapsed:.0f} requests/s)")
    for kind in ("submit", "poll", "result"):
        values = latency.get(kind, [])
        print(f"  {kind:7s} n = {len(values):6d}   p50 {percentile(values, 0.5):7.1f} ms   p95 {percentile(values, 0.95):7.1f} ms")
    refused = sum(r["refused"] for r in results)
    print(f"  jobs accepted: {len(accepted)}   submissions refused with 429: {refused}   "
          f"polls refused with 429: {sum(r['refused_polls'] for r in results)}   "
          f"other errors: {sum(len(r['errors']) for r in results)}")
    print(f"  jobs lost: {lost}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--stores", default="sqlite,postgres")
    args = parser.parse_args()
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    if "sqlite" in stores:
        with tempfile.TemporaryDirectory() as data_dir:
            run_store("SQLite", f"sqlite:///{data_dir}/playground.db", data_dir, args.users, args.seconds)
    if "postgres" in stores:
        if pg_bin() is None:
            print("\nPostgreSQL: skipped (Debian's postgresql is not installed)")
            return
        base = Path(tempfile.mkdtemp(prefix="playground-pg-"))
        with tempfile.TemporaryDirectory() as data_dir, postgres_cluster(base) as cluster:
            run_store("PostgreSQL", cluster.create_database(), data_dir, args.users, args.seconds)


if __name__ == "__main__":
    main()
