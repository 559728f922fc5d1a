"""How long after a job ends does its page show the result? (issue 29, item 7: "within 2 s").

Starts the real stack (`backend.serve` with the embedded executor and `streamlit run app/main.py`) on
loopback, opens each page in headless Chromium (Debian's chromium), presses Run with the page's defaults,
and measures, for every run, two moments on this machine's monotonic clock:

  * the baseline: when the model server itself first answers that the job ended (GET /api/jobs/{id}
    ?view=status, polled every 20 ms by a thread of this script: the earliest any client could know);
  * when the page shows "Finished: run ...", the caption drawn with the verdict and the results.

The lag is the second minus the first. With `--background N` the model server also runs N other jobs
(the same page's defaults, submitted through the API) while each measured run goes on, so the page is
measured under load. Nothing is asserted: the figures are printed.

    python benchmarks/bench_result_latency.py [--methods erm_overfit,inequality] [--runs 3] [--background 0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.devstack import BROWSER_FLAGS, chromium_path, running_stack, wait_for_app  # noqa: E402

DEFAULT_METHODS = "erm_overfit,inequality,precision_scaling,stein_guidance,layout"
ENDED = {"succeeded", "failed", "cancelled", "timed_out"}


def _job_of(page: Any, before: set[str], timeout_s: float = 60) -> str:
    """The id of the job the page just submitted (its URL follows the run it shows)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        url = page.url
        if "job=" in url:
            job_id = url.split("job=")[1].split("&")[0]
            if job_id not in before:
                return job_id
        page.wait_for_timeout(10)
    raise SystemExit("error: Run submitted no job")


def _watch(api: str, job_id: str, ended: dict[str, float], stop: threading.Event) -> None:
    """Record the moment the model server first answers that `job_id` has ended."""
    with httpx.Client(timeout=10) as http:
        while not stop.is_set():
            status = http.get(f"{api}/api/jobs/{job_id}", params={"view": "status"}).json().get("status")
            if status in ENDED:
                ended[job_id] = time.monotonic()
                return
            time.sleep(0.02)


def _background(api: str, method: str, count: int) -> list[str]:
    """`count` runs of the method's defaults submitted through the API (cancelled after the measured run)."""
    ids = []
    for _ in range(count):
        answer = httpx.post(f"{api}/api/jobs", json={"method": method, "params": {}}, timeout=30)
        if answer.status_code == 202:
            ids.append(str(answer.json()["id"]))
    return ids


def measure(stack: Any, browser: Any, method: str, runs: int, background: int) -> list[dict[str, float]]:
    """`runs` measured runs of `method`'s defaults; one row per run (seconds)."""
    rows = []
    for _ in range(runs):
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.goto(f"{stack.frontend}/{method}")
        wait_for_app(page)
        before = {page.url.split("job=")[1].split("&")[0]} if "job=" in page.url else set()
        loaders = _background(stack.backend, method, background)
        clicked = time.monotonic()
        page.get_by_role("button", name="Run", exact=True).first.click()
        job_id = _job_of(page, before)
        ended: dict[str, float] = {}
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(stack.backend, job_id, ended, stop), daemon=True)
        watcher.start()
        page.get_by_text("Finished: run", exact=False).first.wait_for(timeout=600_000)
        shown = time.monotonic()
        watcher.join(timeout=30)
        stop.set()
        for other in loaders:
            httpx.delete(f"{stack.backend}/api/jobs/{other}", timeout=30)
        if job_id not in ended:
            raise SystemExit(f"error: the model server never reported the end of job {job_id}")
        rows.append({"job_s": ended[job_id] - clicked, "lag_s": shown - ended[job_id]})
        page.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--methods", default=DEFAULT_METHODS, help="comma-separated page names")
    parser.add_argument("--runs", type=int, default=3, help="measured runs per page")
    parser.add_argument("--background", type=int, default=0, help="other jobs running on the server meanwhile")
    args = parser.parse_args()
    browser_path = chromium_path()
    if browser_path is None:
        raise SystemExit("error: Chromium not found (set CHROMIUM or apt-get install chromium)")
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    print(f"{'page':22} {'runs':>4} {'job s (median)':>15} {'lag s (median)':>15} {'lag s (max)':>12}")
    lags: list[float] = []
    with tempfile.TemporaryDirectory() as data_dir, running_stack(Path(data_dir)) as stack, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=BROWSER_FLAGS)
        for method in methods:
            rows = measure(stack, browser, method, args.runs, args.background)
            lag = [r["lag_s"] for r in rows]
            lags.extend(lag)
            print(f"{method:22} {len(rows):>4} {statistics.median(r['job_s'] for r in rows):>15.2f} "
                  f"{statistics.median(lag):>15.2f} {max(lag):>12.2f}", flush=True)
        browser.close()
    within = sum(1 for x in lags if x <= 2.0)
    print(f"all pages: lag median {statistics.median(lags):.2f} s, max {max(lags):.2f} s; "
          f"{within} of {len(lags)} runs shown within 2 s of the server's answer "
          f"(background jobs: {args.background})")


if __name__ == "__main__":
    main()
