"""Load test of a shared instance: many users, each with its own address and token, submit and poll at once.

Starts the model server as `make run` and Docker do (`python -m backend.serve`, embedded executor,
ACCESS_MODE=shared, default quotas and rate limits) on SQLite and, where Debian's postgresql is
installed, on a throwaway PostgreSQL cluster. Then USERS simulated users run for SECONDS, each from
its own loopback address (127.0.0.10, 127.0.0.11, ...: the per-address rate limit applies to each
user as it would to each browser) with its own token: submit a short toy job, poll its status view
every 0.2 s until it ends, read its full result, start again. A prober reads /healthz once a second
from an address of its own.

Prints requests/s, p50/p95 latency per request kind, HTTP codes other than 2xx (429, 500, 503),
transport errors, and jobs lost: accepted jobs that never ended, ended as failed (the toy job never
fails: an "interrupted" or "internal error" label is a lost job), or whose result its owner could
not read. All must be 0 but the 429s of the quotas. Each server runs in its own process group and
is stopped by that group's id; its data folder and the PostgreSQL cluster are removed afterwards.

    python benchmarks/bench_hosted.py [--users 50] [--seconds 60] [--stores sqlite,postgres] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.postgres import pg_bin, postgres_cluster  # noqa: E402
from devtools.shared_server import make_tokens, start_server, stop_server  # noqa: E402

TERMINAL = {"succeeded", "failed", "cancelled", "timed_out"}
JOB = {"method": "toy", "params": {"steps": 5, "step_s": 0.04}}
FIRST_HOST = 10  # users are 127.0.0.10 ... 127.0.0.(10 + USERS - 1); the prober 127.0.0.9


def address(index: int) -> str:
    host = FIRST_HOST + index
    return f"127.0.{host // 256}.{host % 256}"


def new_result() -> dict[str, Any]:
    return {"latency": defaultdict(list), "accepted": [], "codes": Counter(), "errors": Counter(), "ended": Counter()}


def client_for(url: str, index: int, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = httpx.HTTPTransport(local_address=address(index) if index >= 0 else "127.0.0.9")
    return httpx.Client(base_url=url, headers=headers, timeout=60, transport=transport)


def timed(client: httpx.Client, out: dict[str, Any], kind: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    start = time.perf_counter()
    response = client.request(method, path, **kwargs)
    out["latency"][kind].append(time.perf_counter() - start)
    if response.status_code >= 300:
        out["codes"][response.status_code] += 1
    return response


def user_loop(url: str, index: int, token: str, deadline: float, out: dict[str, Any]) -> None:
    """One simulated user: submit, poll the status view, read the result, repeat until the deadline.
    A request that fails at the transport level (timeout, reset) is counted, and the user goes on."""
    with client_for(url, index, token) as client:
        while time.monotonic() < deadline:
            try:
                one_job(client, token, deadline, out)
            except httpx.TransportError as exc:
                out["errors"][type(exc).__name__] += 1
                time.sleep(0.5)


def one_job(client: httpx.Client, token: str, deadline: float, out: dict[str, Any]) -> None:
    """Submit one job, poll it to its end, read its result."""
    response = timed(client, out, "submit", "POST", "/api/jobs", json=JOB)
    if response.status_code in (429, 503):
        time.sleep(min(float(response.headers.get("Retry-After", "1")), 2.0))
        return
    if response.status_code != 202:
        time.sleep(0.5)
        return
    job_id = response.json()["id"]
    out["accepted"].append((token, job_id))
    status = "queued"
    while status not in TERMINAL and time.monotonic() < deadline:
        time.sleep(0.2)
        polled = timed(client, out, "poll", "GET", f"/api/jobs/{job_id}", params={"view": "status"})
        if polled.status_code == 200:
            status = polled.json()["status"]
        elif polled.status_code in (429, 503):
            time.sleep(min(float(polled.headers.get("Retry-After", "1")), 2.0))
    if status in TERMINAL:
        timed(client, out, "result", "GET", f"/api/jobs/{job_id}")


def prober(url: str, deadline: float, out: dict[str, Any]) -> None:
    with client_for(url, -1, None) as client:
        while time.monotonic() < deadline:
            try:
                timed(client, out, "healthz", "GET", "/healthz")
            except httpx.TransportError as exc:
                out["errors"][type(exc).__name__] += 1
            time.sleep(1.0)


def worker(url: str, users: list[tuple[int, str]], seconds: float, with_prober: bool, queue: Any) -> None:
    deadline = time.monotonic() + seconds
    results = [new_result() for _ in users]
    threads = [threading.Thread(target=user_loop, args=(url, index, token, deadline, result))
               for (index, token), result in zip(users, results, strict=True)]
    if with_prober:
        results.append(new_result())
        threads.append(threading.Thread(target=prober, args=(url, deadline, results[-1])))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put([{**r, "latency": dict(r["latency"])} for r in results])


def settle(url: str, users: list[tuple[int, str]], accepted: list[tuple[str, str]], grace_s: float = 180) -> Counter:
    """How each accepted job ended: succeeded (with a readable result), failed: <error>, never ended, ..."""
    index_of = {token: index for index, token in users}
    ended: Counter = Counter()
    deadline = time.monotonic() + grace_s
    clients: dict[str, httpx.Client] = {}
    try:
        for token, job_id in accepted:
            client = clients.setdefault(token, client_for(url, index_of[token], token))
            while True:
                job = client.get(f"/api/jobs/{job_id}")
                if job.status_code in (429, 503):
                    time.sleep(1)
                    continue
                if job.status_code != 200:
                    ended[f"unreadable ({job.status_code})"] += 1
                    break
                body = job.json()
                if body["status"] == "succeeded":
                    ended["succeeded" if body.get("result") is not None else "succeeded without a result"] += 1
                    break
                if body["status"] in TERMINAL:
                    ended[f"{body['status']}: {body.get('error')}"] += 1
                    break
                if time.monotonic() > deadline:
                    ended["never ended"] += 1
                    break
                time.sleep(0.2)
    finally:
        for client in clients.values():
            client.close()
    return ended


def export_figure(url: str, token: str) -> dict[str, float]:
    """ms of the first and of later GETs of one shared run's export.zip (issue 45, N7: later ones come from the cache)."""
    with client_for(url, -2, token) as client:
        job_id = client.post("/api/jobs", json=JOB).json()["id"]
        while client.get(f"/api/jobs/{job_id}", params={"view": "status"}).json()["status"] not in TERMINAL:
            time.sleep(0.2)
        link = client.post(f"/api/jobs/{job_id}/share").json()["link"]
        seconds = []
        for _ in range(6):
            started = time.perf_counter()
            assert client.get(f"/api/shared/{link}/export.zip").status_code == 200
            seconds.append(time.perf_counter() - started)
    return {"first_ms": round(1000 * seconds[0], 1), "later_p50_ms": percentile(seconds[1:], 0.5)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1) if ordered else float("nan")


def run_store(label: str, database_url: str, data_dir: str, users: int, seconds: float) -> dict[str, Any]:
    tokens = make_tokens(database_url, users)
    indexed = list(enumerate(tokens))
    process, url, log = start_server(data_dir, database_url)
    load_before = os.getloadavg()[0]
    try:
        context = multiprocessing.get_context("spawn")
        queue: Any = context.Queue()
        chunks = [indexed[i::5] for i in range(5)]
        started = time.monotonic()
        workers = [context.Process(target=worker, args=(url, chunk, seconds, n == 0, queue))
                   for n, chunk in enumerate(chunks) if chunk]
        for process_ in workers:
            process_.start()
        results = [item for _ in workers for item in queue.get(timeout=seconds + 300)]
        for process_ in workers:
            process_.join()
        elapsed = time.monotonic() - started
        load_after = os.getloadavg()[0]
        accepted = [pair for result in results for pair in result["accepted"]]
        ended = settle(url, indexed, accepted)
        export = export_figure(url, tokens[0])
    finally:
        stop_server(process, log)
    server_log = (Path(data_dir) / "server.log").read_text(errors="replace")
    latency: dict[str, list[float]] = defaultdict(list)
    codes: Counter = Counter()
    errors: Counter = Counter()
    for result in results:
        for kind, values in result["latency"].items():
            latency[kind].extend(values)
        codes.update(result["codes"])
        errors.update(result["errors"])
    requests = sum(len(values) for values in latency.values())
    lost = sum(count for how, count in ended.items() if how != "succeeded")
    figures: dict[str, Any] = {
        "store": label, "users": users, "seconds": seconds, "requests": requests,
        "requests_per_s": round(requests / elapsed, 1), "load_avg": [round(load_before, 1), round(load_after, 1)],
        "latency_ms": {kind: {"n": len(v), "p50": percentile(v, 0.5), "p95": percentile(v, 0.95),
                              "max": percentile(v, 1.0)} for kind, v in sorted(latency.items())},
        "http_codes": {str(code): count for code, count in sorted(codes.items())},
        "http_500": sum(count for code, count in codes.items() if code >= 500 and code != 503),
        "transport_errors": dict(errors), "jobs_accepted": len(accepted), "jobs_lost": lost,
        "endings": dict(ended), "server_log_tracebacks": server_log.count("Traceback"),
        "server_log_pool_timeouts": server_log.count("QueuePool limit"), "export_zip": export,
    }
    print(f"\n{label}: {users} users (own address and token each) for {seconds:g} s against backend.serve "
          f"(MAX_WORKERS=2, shared mode); load average {load_before:.1f} -> {load_after:.1f}")
    print(f"  requests: {requests}  ({figures['requests_per_s']} requests/s)")
    for kind, row in figures["latency_ms"].items():
        print(f"  {kind:7s} n = {row['n']:6d}   p50 {row['p50']:8.1f} ms   p95 {row['p95']:8.1f} ms   "
              f"max {row['max']:8.1f} ms")
    print(f"  HTTP codes other than 2xx: {figures['http_codes'] or 'none'}   transport errors: {dict(errors) or 'none'}")
    print(f"  jobs accepted: {len(accepted)}   endings: {dict(ended)}")
    print(f"  jobs lost: {lost}   HTTP 500: {figures['http_500']}   tracebacks in the server log: "
          f"{figures['server_log_tracebacks']} (pool timeouts: {figures['server_log_pool_timeouts']})")
    print(f"  shared export.zip: first {export['first_ms']} ms, later (cached) p50 {export['later_p50_ms']} ms")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--json", default="", help="write the figures of every store to this file")
    args = parser.parse_args()
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    figures = []
    if "sqlite" in stores:
        with tempfile.TemporaryDirectory(prefix="bench-hosted-") as data_dir:
            figures.append(run_store("SQLite", f"sqlite:///{data_dir}/playground.db", data_dir, args.users,
                                     args.seconds))
    if "postgres" in stores:
        if pg_bin() is None:
            print("\nPostgreSQL: skipped (Debian's postgresql is not installed)")
        else:
            base = Path(tempfile.mkdtemp(prefix="bench-hosted-pg-"))
            try:
                with tempfile.TemporaryDirectory(prefix="bench-hosted-") as data_dir, postgres_cluster(base) as cluster:
                    figures.append(run_store("PostgreSQL", cluster.create_database(), data_dir, args.users,
                                             args.seconds))
            finally:
                shutil.rmtree(base, ignore_errors=True)  # the cluster's data folder (stopped by postgres_cluster)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
