"""Every example's stated time against its measured time (issue 47, item 6).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_examples.py [METHOD ...] [--timeout S] [--csv PATH]

Runs every example of the named methods (default: all) as a job runs it (`run_method`, the thread limit
JOB_THREADS), each in a fresh process, and prints the label's stated time ("~20 s", "~2 min", "~1-2 min")
beside the measured wall time and user CPU time of the run (imports excluded), and each over the stated
time. A job runs on one thread (JOB_THREADS=1), so on an idle 2-core machine its wall time is about its
CPU time; on a loaded machine (the 1-minute load average is printed with every row) the wall time is
inflated and the CPU time much less. "off" marks a label whose CPU ratio is above 2 or below 1/2 (a label
to fix) or, on an idle machine (load below 2), whose wall ratio is; labels with no stated time say so.
The baseline is the label itself (what a visitor is promised).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STATED = re.compile(r"~\s*(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?\s*(s|min)\b")
COLUMNS = ["method", "example", "stated_s", "wall_s", "user_cpu_s", "wall_ratio", "cpu_ratio", "off", "load_1min"]


def stated_seconds(label: str) -> float | None:
    """The time a label states, in seconds (the upper end of a range), or None."""
    match = STATED.search(label)
    if match is None:
        return None
    value = float(match.group(2) or match.group(1))
    return value * 60 if match.group(3) == "min" else value


def _child(method: str, index: int) -> None:
    """Run one example in this process; print {"wall_s", "user_cpu_s", "error"} as JSON."""
    from backend.jobs.limits import limit_threads
    from backend.jobs.run import run_method
    from backend.registry import discover
    from backend.settings import get_settings

    spec = discover().get(method).spec  # type: ignore[union-attr]
    label, params = list(dict(spec.examples()).items())[index]  # type: ignore[misc]
    limit_threads(get_settings().job_threads)
    error = ""
    before_self, before_children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        run_method(spec, params, lambda _fraction, _message="": None)
    except Exception as exc:  # noqa: BLE001 - reported in the row, the benchmark goes on
        error = f"{type(exc).__name__}: {exc}"[:200]
    wall = time.perf_counter() - start
    after_self, after_children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    user = (after_self.ru_utime - before_self.ru_utime) + (after_children.ru_utime - before_children.ru_utime)
    print(json.dumps({"label": label, "wall_s": wall, "user_cpu_s": user, "error": error}))


def _examples(method: str) -> list[str]:
    from backend.registry import discover

    registered = discover().get(method)
    if registered is None:
        raise SystemExit(f"error: unknown method {method!r}")
    return list(dict(registered.spec.examples()).keys()) if registered.spec.examples else []


def measure(method: str, index: int, timeout_s: float) -> dict[str, object]:
    command = [sys.executable, __file__, "--child", method, str(index)]
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"wall_s": None, "user_cpu_s": None, "error": f"over the {timeout_s:g} s limit"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"wall_s": None, "user_cpu_s": None, "error": (done.stderr.strip().splitlines() or ["no output"])[-1][:200]}
    return dict(json.loads(lines[-1]))


def _row(method: str, label: str, measured: dict[str, object]) -> dict[str, object]:
    stated = stated_seconds(label)
    wall, cpu, load = measured.get("wall_s"), measured.get("user_cpu_s"), os.getloadavg()[0]
    wall_ratio = float(wall) / stated if isinstance(wall, float) and stated else None
    cpu_ratio = float(cpu) / stated if isinstance(cpu, float) and stated else None
    judged = [cpu_ratio] + ([wall_ratio] if load < 2 else [])
    off = "" if cpu_ratio is None else ("off" if any(r is not None and (r > 2 or r < 0.5) for r in judged) else "ok")
    if stated is None:
        off = "no time stated"
    if measured.get("error"):
        off = f"error: {measured['error']}"
    return {"method": method, "example": label, "stated_s": stated, "wall_s": wall, "user_cpu_s": cpu,
            "wall_ratio": wall_ratio, "cpu_ratio": cpu_ratio, "off": off, "load_1min": round(load, 1)}


def _fmt(value: object) -> str:
    return "—" if value is None else f"{value:.1f}" if isinstance(value, float) else str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("methods", nargs="*")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one example may take (default 600)")
    parser.add_argument("--csv", type=Path, default=None, help="also write the rows to this CSV file")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    if not args.methods:
        from backend.registry import discover

        args.methods = discover().names()
    rows = []
    print("\t".join(COLUMNS), flush=True)
    for method in args.methods:
        for index, label in enumerate(_examples(method)):
            row = _row(method, label, measure(method, index, args.timeout))
            rows.append(row)
            print("\t".join(_fmt(row[column]) for column in COLUMNS), flush=True)
    if args.csv is not None:
        with args.csv.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
