"""Several backends on one database: does a second server take over the first one's queue, and what
does the database queue cost a job?

1. Scale-out. A burst of JOBS toy jobs of known length (STEPS x STEP_S seconds each) is submitted to
   server A only. Makespan (first POST to last `succeeded`), jobs/s and which server ran how many,
   with one server and with two servers (`python -m backend.serve`, MAX_WORKERS=1 each) on the same
   database: SQLite and, where Debian's postgresql is installed, a throwaway PostgreSQL cluster.
2. Cost. Latency of a trivial job (POST -> `succeeded`, sequential, 0.3 s apart) on one server of
   this tree next to one of the baseline tree, the commit before the shared queue (a server handed
   each job straight to its own executor), both running at once and measured in alternating rounds.

    python benchmarks/bench_queue.py [--jobs 12] [--step-s 0.2] [--latency-jobs 20] [--baseline REF]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from db.session import make_engine, make_session_factory, upgrade_to_head  # noqa: E402
from db.tables import Job  # noqa: E402
from devtools.devstack import running_backend  # noqa: E402
from devtools.postgres import pg_bin, postgres_cluster  # noqa: E402

TERMINAL = {"succeeded", "failed", "cancelled", "timed_out"}
BASE_ENV = {"EXTRA_METHODS": "tests.toy_method", "PRELOAD_METHODS": "false", "WARM_WORKERS": "1"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def burst(url: str, jobs: int, steps: int, step_s: float) -> tuple[float, list[str]]:
    """Submit `jobs` jobs at once to `url`; seconds until every one has succeeded, and their ids."""
    with httpx.Client(base_url=url, timeout=60) as client:
        started = time.perf_counter()
        ids = []
        for _ in range(jobs):
            answer = client.post("/api/jobs", json={"method": "toy", "params": {"steps": steps, "step_s": step_s}})
            answer.raise_for_status()
            ids.append(answer.json()["id"])
        left = set(ids)
        while left:
            for job_id in list(left):
                status = client.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["status"]
                if status in TERMINAL:
                    if status != "succeeded":
                        raise SystemExit(f"job {job_id} ended {status}")
                    left.discard(job_id)
            time.sleep(0.02)
        return time.perf_counter() - started, ids


def scale_out(label: str, url: str, data_dir: Path, args: argparse.Namespace) -> None:
    upgrade_to_head(url)
    env = {**BASE_ENV, "DATABASE_URL": url, "MAX_WORKERS": "1"}
    sessions = make_session_factory(make_engine(url))
    print(f"\n{label}: {args.jobs} jobs of {args.steps} x {args.step_s:g} s, all submitted to server A "
          "(MAX_WORKERS=1 per server)")
    print(f"  {'servers':<8} {'makespan':>9} {'jobs/s':>7}  jobs run per server")
    results = {}
    for servers in (1, 2):
        with ExitStack() as stack:
            urls = [stack.enter_context(running_backend(data_dir, env, f"{label}-{servers}-{n}"))
                    for n in range(servers)]
            seconds, ids = burst(urls[0], args.jobs, args.steps, args.step_s)
        with sessions() as session:
            owners = Counter(session.get(Job, job_id).lease_owner for job_id in ids)  # type: ignore[union-attr]
        results[servers] = seconds
        per_server = ", ".join(str(count) for count in sorted(owners.values(), reverse=True))
        print(f"  {servers:<8} {seconds:>8.2f}s {args.jobs / seconds:>7.2f}  {per_server}")
    print(f"  speed-up of two servers: {results[1] / results[2]:.2f}x "
          f"(ideal {min(2, args.jobs):d}x; the work alone is {args.jobs * args.steps * args.step_s:g} s)")


def latencies(url: str, count: int) -> list[float]:
    found = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(count):
            started = time.perf_counter()
            job_id = client.post("/api/jobs", json={"method": "toy", "params": {"steps": 2}}).json()["id"]
            while client.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["status"] not in TERMINAL:
                time.sleep(0.002)
            found.append(time.perf_counter() - started)
            time.sleep(0.3)
    return found


def cost(args: argparse.Namespace) -> None:
    baseline = args.baseline or subprocess.run(
        ["git", "log", "-1", "--format=%H", "--", "backend/jobs/dispatch.py"], cwd=ROOT, capture_output=True,
        text=True, check=True).stdout.strip() + "^"
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), baseline], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True,
                                    text=True).stdout.strip()
            data = {name: Path(folder) / name for name in ("this", "base")}
            for path in data.values():
                path.mkdir()
            with running_backend(data["this"], BASE_ENV, "this") as this, \
                    running_backend(data["base"], BASE_ENV, "base", root=tree) as base:
                measured: dict[str, list[float]] = {"this": [], "base": []}
                rounds = 2
                for _ in range(rounds):
                    for name, url in (("base", base), ("this", this)):
                        measured[name] += latencies(url, max(1, args.latency_jobs // rounds))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    print(f"\nTrivial job, POST -> succeeded, one server (SQLite), {len(measured['this'])} jobs each:")
    print(f"  {'tree':<34} {'median':>8} {'p95':>8}")
    for name, label in (("base", f"baseline {commit} (own executor)"), ("this", "this tree (database queue)")):
        values = measured[name]
        print(f"  {label:<34} {1000 * statistics.median(values):>6.0f}ms {1000 * percentile(values, 0.95):>6.0f}ms")
    print(f"  ratio this / baseline (median): {statistics.median(measured['this']) / statistics.median(measured['base']):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=12)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--step-s", type=float, default=0.2)
    parser.add_argument("--latency-jobs", type=int, default=20)
    parser.add_argument("--baseline", default="", help="git ref of the baseline tree (default: before the queue)")
    parser.add_argument("--stores", default="sqlite,postgres")
    args = parser.parse_args()
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        if "sqlite" in stores:
            scale_out("SQLite", f"sqlite:///{data_dir}/queue.db", data_dir, args)
        if "postgres" in stores:
            if pg_bin() is None:
                print("\nPostgreSQL: skipped (Debian's postgresql is not installed)")
            else:
                base = Path(tempfile.mkdtemp(prefix="playground-pg-"))
                with postgres_cluster(base) as cluster:
                    scale_out("PostgreSQL", cluster.create_database(), data_dir, args)
    if args.latency_jobs:
        cost(args)


if __name__ == "__main__":
    main()
