#!/usr/bin/env python3
"""Re-run one Method Playground run through the library (no server) and check it against its result.json.

    python reproduce.py                       # result.json beside this script (as export.zip unpacks it)
    python reproduce.py --result path/to/result.json --rtol 1e-6 --atol 1e-9
    python reproduce.py --fetch http://127.0.0.1:8000   # read result.json from the server (token: PLAYGROUND_TOKEN)

It runs the run's method with the same parameters and seed, then compares every claim (holds, floor,
mean, sd and every seed's value), every metric and every other number and text of result.json with the
re-run: numbers agree when |a - b| <= atol + rtol * |b|, everything else exactly. Measured times are
excluded and listed (fields named like seconds/elapsed/wall/_ms/_s, metrics labelled "time (s)" or
"(ms ...)", and the values of claims whose quantity is a measured time: their verdicts may differ).
Exit 0 when everything agrees, 1 with the first difference, 2 on bad input, 3 when the library is missing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any

METHOD = "toy"
PARAMS: dict[str, Any] = {}
JOB_ID = ""

RTOL, ATOL = 1e-6, 1e-9
INSTALL = ("this script needs the Method Playground library: in a clone of its repository run `make install` "
           "(or `pip install -e .`), then run this script with that Python (.venv/bin/python reproduce.py)")
TIMING_KEY = re.compile(r"^(seconds|elapsed|wall|runtime)$|^seconds_|_(seconds|elapsed|ms|s)$")
TIMING_METRIC = re.compile(r"\btime \(|\bseconds\b|\(ms\b|\bruntime\b|\belapsed\b", re.IGNORECASE)
TIMED_CLAIM = re.compile(r"\bmeasured\b.*\btime\b|\bruntime\b|\bwall[- ]clock\b", re.IGNORECASE)
_MEASURED_PARTS = {"ours", "seeds", "holds", "detail", "test", "null"}  # of a timed claim: not compared


def rerun(method: str = METHOD, params: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """(the MethodRun, its result as JSON) of the method run here with `params`, one thread as the jobs run."""
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    try:
        from backend.jobs.limits import limit_threads
        from backend.jobs.run import run_method
        from backend.registry import load_spec
    except ImportError:
        print(f"error: {INSTALL}", file=sys.stderr)
        raise SystemExit(3) from None
    limit_threads(1)
    spec = None
    for module in [f"models.{method}", *filter(None, os.environ.get("EXTRA_METHODS", "").split(","))]:
        try:
            candidate = load_spec(module.strip())
        except (ImportError, TypeError):
            continue
        if candidate.name == method:
            spec = candidate
            break
    if spec is None:
        print(f"error: this library has no method {method!r} ({INSTALL})", file=sys.stderr)
        raise SystemExit(3)
    run = run_method(spec, dict(PARAMS if params is None else params), lambda f, m="": None)
    return run, json.loads(json.dumps(run.result.model_dump(mode="json")))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _close(a: float, b: float, rtol: float, atol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def _key(item: Any, index: int) -> str:
    return str(item["id"]) if isinstance(item, dict) and isinstance(item.get("id"), str) else str(index)


def differences(stored: Any, rerun_: Any, where: str, rtol: float, atol: float, skipped: list[str]) -> str | None:
    """The first difference between the stored and the re-run value, as `path: stored ... re-run ...`."""
    if isinstance(stored, dict) and isinstance(rerun_, dict):
        if set(stored) != set(rerun_):
            return f"{where}: fields differ ({sorted(set(stored) ^ set(rerun_))})"
        timed_claim = where.startswith("claims[") and TIMED_CLAIM.search(str(stored.get("quantity", "")))
        if timed_claim:
            skipped.append(f"{where} (a measured time: its values and verdict)")
        for name in stored:
            path = f"{where}.{name}" if where else name
            if timed_claim and name in _MEASURED_PARTS:
                continue
            if TIMING_KEY.search(name):
                skipped.append(path)
                continue
            found = differences(stored[name], rerun_[name], path, rtol, atol, skipped)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rerun_, list):
        if len(stored) != len(rerun_):
            return f"{where}: {len(stored)} items in result.json, {len(rerun_)} in the re-run"
        for index, (a, b) in enumerate(zip(stored, rerun_, strict=True)):
            found = differences(a, b, f"{where}[{_key(a, index)}]", rtol, atol, skipped)
            if found:
                return found
        return None
    if _number(stored) and _number(rerun_):
        if _close(float(stored), float(rerun_), rtol, atol):
            return None
        return f"{where}: result.json has {stored!r}, the re-run gives {rerun_!r} (rtol {rtol:g}, atol {atol:g})"
    if stored != rerun_:
        return f"{where}: result.json has {str(stored)[:80]!r}, the re-run gives {str(rerun_)[:80]!r}"
    return None


def metric_difference(stored: dict[str, Any], rerun_: dict[str, Any], rtol: float, atol: float,
                      skipped: list[str]) -> str | None:
    """The first metric (label -> value) that differs, measured times excluded."""
    if set(stored) != set(rerun_):
        return f"metrics: labels differ ({sorted(set(stored) ^ set(rerun_))})"
    for label, value in stored.items():
        if TIMING_METRIC.search(label):
            skipped.append(f"metric {label!r}")
            continue
        found = differences(value, rerun_[label], f"metric {label!r}", rtol, atol, skipped)
        if found:
            return found
    return None


def check(run: Any, stored_result: dict[str, Any], rtol: float = RTOL, atol: float = ATOL) -> tuple[str | None, list[str]]:
    """(first difference or None, what was skipped as a measured time) of a re-run against a stored result.json."""
    skipped: list[str] = []
    if stored_result.get("claims") and not run.result.claims:
        return "claims: result.json has claims, the re-run none", skipped
    found = differences(stored_result, json.loads(json.dumps(run.result.model_dump(mode="json"))), "", rtol, atol, skipped)
    if found is None:
        stored_metrics = type(run.result).model_validate(stored_result).metrics()
        found = metric_difference(json.loads(json.dumps(stored_metrics)), json.loads(json.dumps(run.result.metrics())),
                                  rtol, atol, skipped)
    return found, skipped


def _stored(args: argparse.Namespace) -> dict[str, Any]:
    if args.fetch:
        request = urllib.request.Request(f"{args.fetch.rstrip('/')}/api/jobs/{JOB_ID}/artifacts/result.json")
        if os.environ.get("PLAYGROUND_TOKEN"):
            request.add_header("Authorization", f"Bearer {os.environ['PLAYGROUND_TOKEN']}")
        with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 - the user's own server
            return dict(json.loads(answer.read()))
    path = Path(args.result)
    if not path.exists():
        print(f"error: {path} not found: unpack export.zip here, or pass --result or --fetch URL", file=sys.stderr)
        raise SystemExit(2)
    return dict(json.loads(path.read_text()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=f"Re-run {METHOD} run {JOB_ID[:8]} and check it against result.json.")
    parser.add_argument("--result", default=str(Path(__file__).with_name("result.json")))
    parser.add_argument("--fetch", default="", help="the server's URL: read result.json from it instead")
    parser.add_argument("--rtol", type=float, default=RTOL)
    parser.add_argument("--atol", type=float, default=ATOL)
    args = parser.parse_args(argv)
    stored = _stored(args)
    print(f"re-running {METHOD} with {json.dumps(PARAMS)[:200]} ...", flush=True)
    run, _ = rerun()
    found, skipped = check(run, stored, args.rtol, args.atol)
    if found is not None:
        print(f"DIFFERENT: {found}")
        return 1
    for claim in stored.get("claims") or []:
        ours = (claim.get("ours") or {}).get("text", "")
        timed = TIMED_CLAIM.search(str(claim.get("quantity", "")))
        print(f"  claim {claim['id']}: {claim['holds']} ({ours}) " + ("a measured time: not compared" if timed else "matches"))
    print(f"OK: {len(stored.get('claims') or [])} claims, every metric and every stored value agree with result.json "
          f"within rtol {args.rtol:g}, atol {args.atol:g}; measured times excluded ({len(skipped)}): "
          f"{', '.join(skipped[:8]) or 'none'}{' ...' if len(skipped) > 8 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
