"""A sweep against the same jobs submitted one by one: wall time from the first request to the last result.

One `python -m backend.serve` (MAX_WORKERS workers, embedded executor, a fresh SQLite store) runs, in
alternating rounds:
1. **sweep**: `Client.sweep(method, params, {field: values})`, waited for (the server submits one job per
   value at once, so they spread over the workers);
2. **one by one**: the same jobs with `Client.run(...)` each, waiting for one before submitting the next
   (what a script without the sweep API does);
3. **all at once by hand**: the same jobs submitted with `Client.submit`, then each waited for (the
   baseline that a sweep should match: the sweep adds only its own bookkeeping).
It also prints the sweep's rows per claim (one per value) and checks that DELETE cancels a sweep's jobs.

    python benchmarks/bench_sweeps.py [--method bilateral_trade] [--field horizon]
        [--values 4096,8192,16384,32768] [--params '{"seeds": 2, "grid_size": 21}'] [--rounds 2] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.devstack import running_backend  # noqa: E402
from playground_client import Client  # noqa: E402


def _sweep(client: Client, method: str, params: dict, field: str, values: list) -> tuple[float, object]:
    started = time.perf_counter()
    sweep = client.sweep(method, params, {field: values}, timeout_s=1800)
    return time.perf_counter() - started, sweep


def _one_by_one(client: Client, method: str, params: dict, field: str, values: list) -> float:
    started = time.perf_counter()
    for value in values:
        assert client.run(method, {**params, field: value}, timeout_s=1800).status == "succeeded"
    return time.perf_counter() - started


def _by_hand(client: Client, method: str, params: dict, field: str, values: list) -> float:
    started = time.perf_counter()
    runs = [client.submit(method, {**params, field: value}) for value in values]
    assert all(run.wait(timeout_s=1800).status == "succeeded" for run in runs)
    return time.perf_counter() - started


def _cancel_check(client: Client, method: str, params: dict, field: str, values: list) -> str:
    sweep = client.sweep(method, params, {field: values}, wait=False)
    sweep.cancel()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        statuses = [run.status for run in sweep.runs()]
        if all(s in ("cancelled", "succeeded", "failed") for s in statuses):
            break
        time.sleep(0.5)
    return f"sweep {sweep.refresh().status}; its jobs: {dict(Counter(statuses))}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="bilateral_trade")
    parser.add_argument("--field", default="horizon")
    parser.add_argument("--values", default="4096,8192,16384,32768")
    parser.add_argument("--params", default='{"seeds": 2, "grid_size": 21}')
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    values = [json.loads(v) for v in args.values.split(",")]
    params = json.loads(args.params)
    env = {"MAX_WORKERS": str(args.workers), "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as data, running_backend(Path(data), env) as url:
        client = Client(url)
        client.run(args.method, {**params, args.field: values[0]}, timeout_s=1800)  # warm the forkserver
        times: dict[str, list[float]] = {"sweep": [], "one by one": [], "all at once by hand": []}
        sweep = None
        for _ in range(args.rounds):
            seconds, sweep = _sweep(client, args.method, params, args.field, values)
            times["sweep"].append(seconds)
            times["one by one"].append(_one_by_one(client, args.method, params, args.field, values))
            times["all at once by hand"].append(_by_hand(client, args.method, params, args.field, values))
        print(f"{args.method}: {args.field} over {values}, params {params}, MAX_WORKERS={args.workers}, "
              f"{args.rounds} rounds (median wall time, s)")
        base = statistics.median(times["one by one"])
        for name, seconds in times.items():
            median = statistics.median(seconds)
            print(f"  {name:<22} {median:7.1f} s   ({', '.join(f'{s:.1f}' for s in seconds)})   "
                  f"one-by-one / this = {base / median:.2f}x")
        rows = Counter(row["claim"] for row in sweep.rows)  # type: ignore[union-attr]
        print(f"  last sweep: {sweep.status}, rows per claim: {dict(rows)}")  # type: ignore[union-attr]
        print(f"  cancel: {_cancel_check(client, args.method, params, args.field, values)}")


if __name__ == "__main__":
    main()
