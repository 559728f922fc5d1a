"""Job overhead and polling throughput of the model server on the default SQLite store.

Starts the real backend (uvicorn, embedded executor) in a subprocess and measures:
  1. wall time from POST /api/jobs to `succeeded` for a trivial job (median, p95) on a server that
     has loaded every method package: job processes forked from the preloaded forkserver with a
     warm spare (the default), without the spare, and the baseline DESIGN.md first described, a
     spawned interpreter per job (START_METHOD=spawn, which must import the packages again);
  2. GET /api/jobs/{id} requests per second under 50 concurrent pollers (httpx, 5 client
     processes x 10 keep-alive connections), for the
     `status` view the front end polls with and the `full` view (result + figures).

    python benchmarks/bench_jobs.py [--jobs 40] [--seconds 5]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_backend(data_dir: str, warm_workers: int, start_method: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=data_dir, EXTRA_METHODS="tests.toy_method", WARM_WORKERS=str(warm_workers),
               START_METHOD=start_method, OMP_NUM_THREADS="1")
    process = subprocess.Popen([sys.executable, "-m", "uvicorn", "backend.main:app", "--port", str(port),
                                "--log-level", "warning"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the backend did not start")


def job_latencies(url: str, count: int) -> list[float]:
    latencies = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(count):
            started = time.perf_counter()
            job_id = client.post("/api/jobs", json={"method": "toy", "params": {"steps": 2}}).json()["id"]
            while client.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["status"] != "succeeded":
                time.sleep(0.002)
            latencies.append(time.perf_counter() - started)
            time.sleep(0.3)  # let the executor refill its warm process, as between real user clicks
    return latencies


def _poll_worker(args: tuple[str, str, str, int, float]) -> int:
    """One client process: `threads` sync httpx pollers until the deadline; returns requests done."""
    url, job_id, view, threads, stop_at = args
    counts = [0] * threads

    def poller(slot: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as client:
            while time.time() < stop_at:
                client.get(f"/api/jobs/{job_id}", params={"view": view}).raise_for_status()
                counts[slot] += 1

    workers = [threading.Thread(target=poller, args=(slot,)) for slot in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts)


def polling_rate(url: str, job_id: str, view: str, pollers: int, seconds: float) -> float:
    """Requests/s of `pollers` concurrent keep-alive clients, spread over 5 client processes
    (one Python process cannot generate enough load by itself: its own GIL becomes the limit)."""
    processes = 5
    threads = max(1, pollers // processes)
    stop_at = time.time() + seconds + 1.0  # +1 s for the client processes to start
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        started = time.time()
        done = sum(pool.map(_poll_worker, [(url, job_id, view, threads, stop_at)] * processes))
    return done / max(stop_at - started, 1e-9)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--baseline-jobs", type=int, default=8, help="jobs for the slow spawn baseline")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--pollers", type=int, default=50)
    args = parser.parse_args()
    rows = []
    variants = [("forkserver + warm process (default)", 1, "forkserver", args.jobs),
                ("forkserver, no warm process", 0, "forkserver", args.jobs),
                ("baseline: spawn per job (DESIGN.md)", 0, "spawn", args.baseline_jobs)]
    rates: dict[str, float] = {}
    for label, warm, start_method, count in variants:
        with tempfile.TemporaryDirectory() as data_dir:
            process, url = start_backend(data_dir, warm, start_method)
            try:
                latencies = job_latencies(url, count)
                if not rates:
                    job_id = httpx.post(url + "/api/jobs", json={"method": "toy", "params": {"steps": 2}}).json()["id"]
                    time.sleep(1.0)
                    rates = {view: polling_rate(url, job_id, view, args.pollers, args.seconds)
                             for view in ("status", "full")}
            finally:
                process.terminate()
                process.wait(10)
        rows.append((label, statistics.median(latencies) * 1000, percentile(latencies, 0.95) * 1000, count))
    print("\nJob overhead, POST -> succeeded, trivial job, SQLite store, all method packages loaded")
    print(f"{'executor':<40}{'jobs':>6}{'median ms':>12}{'p95 ms':>10}")
    for label, median, p95, count in rows:
        print(f"{label:<40}{count:>6}{median:>12.1f}{p95:>10.1f}")
    print(f"ratio baseline/default (median): {rows[2][1] / rows[0][1]:.1f}x")
    print(f"\nPolling GET /api/jobs/{{id}} with {args.pollers} concurrent pollers for {args.seconds:g} s")
    print(f"{'view':<34}{'requests/s':>12}")
    for view, rate in rates.items():
        print(f"{view:<34}{rate:>12.0f}")
    print(f"ratio status/full: {rates['status'] / rates['full']:.2f}x")


if __name__ == "__main__":
    main()
