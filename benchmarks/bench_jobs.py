"""Job overhead and polling throughput of the model server on the default SQLite store.

Starts the real backend (uvicorn, embedded executor) in a subprocess and measures:
  1. wall time from POST /api/jobs to `succeeded` for a trivial job (median, p95) on a server that
     has loaded every method package: job processes forked from the preloaded forkserver with a
     warm spare (the default), without the spare, and the baseline the first design described (docs/architecture.md, "The first design"), a
     spawned interpreter per job (START_METHOD=spawn, which must import the packages again);
  2. GET /api/jobs/{id} requests per second under 50 concurrent pollers (httpx, 5 client
     processes x 10 keep-alive connections), for the
     `status` view the front end polls with and the `full` view (result + figures).

With `--executor ray` it compares the embedded executor with EXECUTOR=ray side by side instead:
  3. job overhead (POST -> succeeded) of a trivial job, and of jobs of known length (the toy's
     sleep steps), so the fixed cost of a Ray task is the latency minus the job's own length;
  4. throughput: a burst of trivial jobs submitted at once, jobs/s until all have succeeded.
It starts a local Ray head on loopback (`ray start --head`, its own temp dir, stopped afterwards)
unless `--ray-address HOST:PORT` names a running cluster.

    python benchmarks/bench_jobs.py [--jobs 40] [--seconds 5]
    python benchmarks/bench_jobs.py --executor ray [--jobs 20] [--ray-address 127.0.0.1:6379]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import signal
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


def start_backend(data_dir: str, warm_workers: int, start_method: str,
                  **extra_env: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, DATA_DIR=data_dir, EXTRA_METHODS="tests.toy_method", WARM_WORKERS=str(warm_workers),
               START_METHOD=start_method, OMP_NUM_THREADS="1", **extra_env)
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


def job_latencies(url: str, count: int, params: dict[str, object] | None = None) -> list[float]:
    latencies = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(count):
            started = time.perf_counter()
            job_id = client.post("/api/jobs", json={"method": "toy", "params": params or {"steps": 2}}).json()["id"]
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


def burst_rate(url: str, count: int) -> float:
    """Jobs/s: `count` trivial jobs submitted at once, until the last one has succeeded."""
    with httpx.Client(base_url=url, timeout=60) as client:
        started = time.perf_counter()
        ids = [client.post("/api/jobs", json={"method": "toy", "params": {"steps": 2}}).json()["id"]
               for _ in range(count)]
        for job_id in ids:
            while client.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["status"] != "succeeded":
                time.sleep(0.01)
        return count / (time.perf_counter() - started)


class LocalRayHead:
    """`ray start --head --block` on loopback in its own process group and temp dir."""

    def __init__(self, num_cpus: int) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.temp_dir = tempfile.mkdtemp(prefix="rayb")
        ray = str(Path(sys.executable).with_name("ray"))
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)  # noqa: SIM115
        env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", RAY_USAGE_STATS_ENABLED="0")
        self.process = subprocess.Popen(
            [ray, "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(self.port),
             "--num-cpus", str(num_cpus), "--include-dashboard=false", "--temp-dir", self.temp_dir,
             "--disable-usage-stats"], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in Path(self.log.name).read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the Ray head did not start")
            time.sleep(0.2)

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def compare_with_ray(args: argparse.Namespace) -> None:
    """Embedded (forkserver + warm process) and Ray side by side: overhead by job length, burst rate."""
    head = None if args.ray_address else LocalRayHead(num_cpus=2)
    address = args.ray_address or (head.address if head else "")
    lengths = [0.0, 0.5, 2.0]
    table: dict[str, dict[str, object]] = {}
    try:
        for label, env in (("embedded (forkserver + warm)", {"MAX_WORKERS": "2"}),
                           ("ray (task per job)", {"EXECUTOR": "ray", "RAY_ADDRESS": address})):
            with tempfile.TemporaryDirectory() as data_dir:
                process, url = start_backend(data_dir, 1, "forkserver", **env)
                try:
                    job_latencies(url, 2)  # warm up: a cold Ray worker imports the method packages
                    row: dict[str, object] = {}
                    for length in lengths:
                        count = args.jobs if length == 0 else max(3, args.jobs // 5)
                        params = {"steps": 2} if length == 0 else {"steps": 10, "step_s": length / 10}
                        row[f"{length:g}"] = job_latencies(url, count, params)
                    row["burst"] = burst_rate(url, args.jobs)
                    table[label] = row
                finally:
                    process.terminate()
                    process.wait(30)
    finally:
        if head is not None:
            head.stop()
    print("\nJob latency POST -> succeeded, toy method, SQLite store (median / p95 ms; overhead = median - length)")
    print(f"{'executor':<30}" + "".join(f"{f'job {length:g} s':>26}" for length in lengths) + f"{'burst jobs/s':>14}")
    medians: dict[str, list[float]] = {}
    for label, row in table.items():
        cells, medians[label] = [], []
        for length in lengths:
            values = row[f"{length:g}"]
            assert isinstance(values, list)
            median = statistics.median(values) * 1000
            medians[label].append(median - length * 1000)
            cells.append(f"{median:.0f} / {percentile(values, 0.95) * 1000:.0f} (+{median - length * 1000:.0f})")
        print(f"{label:<30}" + "".join(f"{cell:>26}" for cell in cells) + f"{row['burst']:>14.1f}")
    embedded, ray = (statistics.median(values) for values in medians.values())
    print(f"Per-job overhead (median over the job lengths): embedded {embedded:.0f} ms, Ray {ray:.0f} ms "
          f"(Ray - embedded: {ray - embedded:+.0f} ms).")
    for share in (0.10, 0.01):
        print(f"  Ray's overhead is under {share:.0%} of a job's time from {ray / share / 1000:.1f} s of work on.")
    print("Ray pays when the cluster has more (or GPU) workers than the backend's machine and the jobs are")
    print("long enough for that overhead to vanish; the numbers above are for one machine, same CPUs.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--baseline-jobs", type=int, default=8, help="jobs for the slow spawn baseline")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--pollers", type=int, default=50)
    parser.add_argument("--executor", choices=["embedded", "ray"], default="embedded",
                        help="ray: compare the embedded executor with EXECUTOR=ray side by side")
    parser.add_argument("--ray-address", default="", help="a running Ray head (default: start a local one)")
    args = parser.parse_args()
    if args.executor == "ray":
        compare_with_ray(args)
        return
    rows = []
    variants = [("forkserver + warm process (default)", 1, "forkserver", args.jobs),
                ("forkserver, no warm process", 0, "forkserver", args.jobs),
                ("baseline: spawn per job (the first design)", 0, "spawn", args.baseline_jobs)]
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
