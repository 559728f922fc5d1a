"""Check that the model server's job path uses CUDA where torch sees a GPU.

Each torch-using method runs as a job through the server's own machinery, only without HTTP: a
temporary SQLite database migrated to head, `start_jobs` (lease recovery, the embedded executor with
its forkserver pool and supervisor, the dispatcher, the heartbeat) and `JobService.submit` (validate,
store queued, wake the dispatcher), under the limits the settings give (JOB_TIMEOUT_S, JOB_MEMORY_MB,
MAX_WORKERS, JOB_THREADS from the environment) and with `gpu_available` set as backend/main.py sets it
(torch_device() == "cuda"). The job's row is read back as the API would serve it.

How we know a job used the GPU: this module is added to the forkserver's preload list, and when
GPU_CHECK_PROBE=1 (set by main()) importing it wraps `backend.jobs.outcome.execute` so that, after the
method has run in the job process, the job's stored metrics carry `gpu_check_probe`: torch_device() as
the job process saw it, whether that process created a CUDA context, and its peak CUDA memory. The
method's run itself is untouched. Results that record their own `device` (lmnet, skill_moe,
shapley_graph) are reported too.

With --compare-cpu the same jobs also run in a child copy of this script with CUDA_VISIBLE_DEVICES=""
(at the same time, on other cores), and the table says whether the verdict and each claim's `holds`
agree between the two.

Usage (from the repository root):
    python scripts/gpu_check.py                                # every torch method, default params
    python scripts/gpu_check.py --methods hedp,stein_guidance  # a quick try
    python scripts/gpu_check.py --params smoke --compare-cpu
Writes gpu_check.json and gpu_check.md to --out (default: $OUT, else out/gpu_check). Exit status 0 when
every method that ran succeeded on the device torch offers (CUDA: a CUDA context and CUDA memory were
used in the job process), 1 otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PROBE_MODULE = "scripts.gpu_check_probe"
REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: the forkserver and this file import scripts.* modules
    sys.path.insert(0, str(REPO_ROOT))

from scripts.gpu_check_probe import PROBE_ENV  # noqa: E402 - after the path
from scripts.gpu_check_report import compare_with_cpu, job_record, markdown, used_expected_device  # noqa: E402

# The methods whose run.py picks its device with torch_device(), in page order.
TORCH_METHODS = ("shapley_graph", "hedp", "lmnet", "skill_moe", "rc_fcl", "diffusion_resampling", "lift_offline_rl",
                 "moe_upcycling", "stein_guidance", "apt_operator", "robust_satisficing")
# Imports a method makes only when it runs (so its SPEC loads without them): checked before submitting.
LAZY_IMPORTS = {"shapley_graph": ("rdkit", "shapiq")}


# --- the check ------------------------------------------------------------------------------------------

def _torch_facts() -> dict[str, Any]:
    import torch

    from models.common import torch_device

    facts: dict[str, Any] = {"python": sys.version.split()[0], "torch": torch.__version__,
                             "cuda_available": torch.cuda.is_available(), "torch_device": torch_device(),
                             "torch_cuda_build": torch.version.cuda, "cpus": os.cpu_count()}
    if facts["cuda_available"]:
        facts["device_name"] = torch.cuda.get_device_name(0)  # a CUDA context here; job processes come
        facts["device_count"] = torch.cuda.device_count()     # from the forkserver, which has none
    return facts


def _age_s(moment: datetime) -> float:
    """Seconds since `moment` (SQLite hands back naive datetimes; the store writes UTC)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return (datetime.now(UTC) - aware).total_seconds()


class _OneLineImportErrors(logging.Filter):
    """A method package that cannot import here (a dependency not installed) is one line, not a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "backend.registry" and record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {exc}"
            record.args = None
            record.exc_info = None
        return True


def _params_for(spec: Any, which: str) -> dict[str, Any]:
    return dict(spec.smoke_params or {}) if which == "smoke" else {}


def _submit_all(service: Any, registry: Any, methods: list[str], which: str, tag: str,
                records: dict[str, dict[str, Any]]) -> dict[str, tuple[str, float]]:
    """Submit every method that can run here; a skipped or refused one gets its record at once."""
    waiting: dict[str, tuple[str, float]] = {}
    for name in methods:
        registered = registry.get(name)
        missing = [m for m in LAZY_IMPORTS.get(name, ()) if importlib.util.find_spec(m) is None]
        if registered is None or missing:
            why = f"missing: {', '.join(missing)}" if missing else "not offered (its package did not import)"
            records[name] = {"status": "skipped", "error": why}
            print(f"[{tag}] {name}: skipped ({why})", flush=True)
            continue
        try:
            job_id = service.submit(name, _params_for(registered.spec, which))
        except Exception as exc:  # noqa: BLE001 - one method's refusal must not stop the others
            records[name] = {"status": "not submitted", "error": f"{type(exc).__name__}: {exc}"}
            continue
        waiting[name] = (job_id, time.monotonic())
    return waiting


class _Watch:
    """Polls the submitted jobs until each has ended (or is cancelled past this script's limits)."""

    def __init__(self, sessions: Any, service: Any, tag: str, device: str, probed: bool, started: float) -> None:
        self.sessions, self.service, self.tag, self.device = sessions, service, tag, device
        self.probed, self.started = probed, started
        self.cancelled: dict[str, float] = {}

    def until_done(self, waiting: dict[str, tuple[str, float]], records: dict[str, dict[str, Any]],
                   per_method_s: float, budget_s: float) -> None:
        while waiting:
            time.sleep(0.25)
            for name, (job_id, submitted) in list(waiting.items()):
                running_for = self._poll(name, job_id, submitted, records)
                if running_for is None:
                    del waiting[name]
                elif self._over_limit(name, job_id, running_for, per_method_s, budget_s, records):
                    del waiting[name]

    def _poll(self, name: str, job_id: str, submitted: float, records: dict[str, dict[str, Any]]) -> float | None:
        """Seconds the job has run, or None once it ended (its record written)."""
        from db.jobs import JobRepository
        from db.status import TERMINAL

        with self.sessions() as session:
            job = JobRepository(session).get(job_id)
            assert job is not None
            if job.status not in TERMINAL:
                return 0.0 if job.started_at is None else _age_s(job.started_at)
            rec = records[name] = job_record(job, submitted, self.probed)
            rec["used_expected_device"] = used_expected_device(rec, self.device)
        probe = rec.get("probe") or {}
        print(f"[{self.tag}] {name}: {rec['status']} in {rec['wall_s']} s; job saw "
              f"{probe.get('torch_device')}, cuda context {probe.get('cuda_initialized')}, "
              f"peak {probe.get('cuda_max_allocated_mb', 0)} MB; {rec['verdict'] or rec['error']}", flush=True)
        return None

    def _over_limit(self, name: str, job_id: str, running_for: float, per_method_s: float, budget_s: float,
                    records: dict[str, dict[str, Any]]) -> bool:
        """Cancel a job past a limit; True when it is given up on (the cancel did not land in 15 s)."""
        now = time.monotonic()
        if running_for <= per_method_s and now - self.started <= budget_s:
            return False
        why = "per-method limit" if running_for > per_method_s else "overall budget"
        if name not in self.cancelled:
            self.cancelled[name] = now
            print(f"[{self.tag}] {name}: cancelling ({why} of this script)", flush=True)
            self.service.cancel(job_id)
            return False
        if now - self.cancelled[name] > 15:
            records[name] = {"job_id": job_id, "status": "abandoned", "error": why}
            return True
        return False


def run_jobs(methods: list[str], which: str, per_method_s: float, budget_s: float, tag: str = "") -> dict[str, Any]:
    """Run `methods` as jobs through the server's job machinery; one record per method."""
    os.environ[PROBE_ENV] = "1"  # before the forkserver starts: it inherits it and installs the probe
    from backend.jobs.runtime import start_jobs
    from backend.registry import discover
    from backend.settings import Settings
    from db.session import make_engine, make_session_factory, upgrade_to_head
    from models.common import torch_device

    started = time.monotonic()
    records: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="gpu_check_") as tmp:
        settings = Settings(data_dir=Path(tmp), database_url=f"sqlite:///{tmp}/gpu_check.db")
        url = settings.resolved_database_url
        upgrade_to_head(url)
        engine = make_engine(url, pool_size=settings.db_pool_size, pool_timeout_s=settings.db_pool_timeout_s)
        sessions = make_session_factory(engine)
        registry = discover(settings.extra_method_modules())
        preload = [method.module for method in registry.ordered()] if settings.preload_methods else []
        device = torch_device()
        tag = tag or device
        jobs = start_jobs(settings, sessions, registry, [*preload, PROBE_MODULE], gpu_available=device == "cuda")
        info = {"torch_device": device, "gpu_available": device == "cuda", "executor": jobs.executor.name,
                "start_method": settings.start_method, "max_workers": settings.max_workers,
                "job_threads": settings.job_threads, "job_timeout_s": settings.job_timeout_s,
                "job_memory_mb": settings.job_memory_mb, "params": which,
                "offered": registry.names()}
        print(f"[{tag}] executor={info['executor']} start_method={settings.start_method} "
              f"max_workers={settings.max_workers} job_threads={settings.job_threads} "
              f"JOB_TIMEOUT_S={settings.job_timeout_s:g} JOB_MEMORY_MB={settings.job_memory_mb}", flush=True)
        try:
            waiting = _submit_all(jobs.service, registry, methods, which, tag, records)
            watch = _Watch(sessions, jobs.service, tag, device, settings.start_method == "forkserver", started)
            watch.until_done(waiting, records, per_method_s, budget_s)
        finally:
            jobs.shutdown()
            engine.dispose()
    ordered = {name: records[name] for name in methods if name in records}
    return {"info": info, "methods": ordered, "total_s": round(time.monotonic() - started, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--methods", default=",".join(TORCH_METHODS), help="comma-separated method names")
    parser.add_argument("--params", choices=("default", "smoke"), default="default",
                        help="each method's defaults, or its SPEC.smoke_params")
    parser.add_argument("--per-method-s", type=float, default=150.0,
                        help="cancel a job running longer than this (the server's JOB_TIMEOUT_S still applies)")
    parser.add_argument("--budget-s", type=float, default=300.0, help="cancel whatever still runs after this")
    parser.add_argument("--compare-cpu", action="store_true",
                        help="also run the jobs with CUDA_VISIBLE_DEVICES='' in a child process and compare")
    parser.add_argument("--out", default=os.environ.get("OUT") or str(REPO_ROOT / "out" / "gpu_check"),
                        help="folder for the JSON and markdown (default: $OUT, else out/gpu_check, which git ignores)")
    parser.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)  # the --compare-cpu child
    args = parser.parse_args()
    if str(REPO_ROOT) not in sys.path:  # the forkserver imports PROBE_MODULE from the repository root
        sys.path.insert(0, str(REPO_ROOT))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(_OneLineImportErrors())
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # On SIGTERM (`timeout`, a closing session) unwind, so running jobs and the CPU child are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    child = _start_cpu_child(args, methods, out) if args.compare_cpu else None
    try:
        return _check(args, methods, out, child)
    finally:
        if child is not None and child.poll() is None:
            child.terminate()
            child.wait(15)


def _start_cpu_child(args: argparse.Namespace, methods: list[str], out: Path) -> subprocess.Popen[bytes]:
    """This script again, with CUDA hidden, writing its JSON to out/cpu (runs beside the main pass)."""
    return subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--methods", ",".join(methods),
                             "--params", args.params, "--per-method-s", str(args.per_method_s),
                             "--budget-s", str(args.budget_s), "--out", str(out / "cpu"), "--json-only"],
                            env={**os.environ, "CUDA_VISIBLE_DEVICES": ""}, cwd=REPO_ROOT)


def _check(args: argparse.Namespace, methods: list[str], out: Path, child: subprocess.Popen[bytes] | None) -> int:
    environment = _torch_facts()
    if not args.json_only:
        print(json.dumps(environment), flush=True)
    unknown = [m for m in methods if not (REPO_ROOT / "models" / m / "run.py").exists()]
    excluded = {m: "no such method" for m in unknown}
    excluded.update({m: "not asked for" for m in TORCH_METHODS if m not in methods})
    jobs = run_jobs([m for m in methods if m not in unknown], args.params, args.per_method_s, args.budget_s,
                    tag="cpu-compare" if args.json_only else "")
    report: dict[str, Any] = {"environment": environment, "jobs": jobs, "excluded": excluded}
    if args.json_only:
        (out / "gpu_check.json").write_text(json.dumps(report, indent=2, default=str))
        return 0

    if child is not None:
        try:
            child.wait(timeout=max(args.budget_s + 60 - jobs["total_s"], 30))
        except subprocess.TimeoutExpired:
            child.kill()
        try:
            report["cpu"] = json.loads((out / "cpu" / "gpu_check.json").read_text())["jobs"]
        except (OSError, ValueError, KeyError) as exc:
            report["cpu"] = {"error": f"no CPU report: {exc}", "methods": {}}
        for name, rec in jobs["methods"].items():
            rec["cpu_comparison"] = compare_with_cpu(rec, report["cpu"]["methods"].get(name))

    (out / "gpu_check.json").write_text(json.dumps(report, indent=2, default=str))
    table = markdown(report)
    (out / "gpu_check.md").write_text(table)
    print(table, flush=True)
    ran = [rec for rec in jobs["methods"].values() if rec["status"] != "skipped"]
    ok = bool(ran) and all(rec.get("used_expected_device") for rec in ran)
    print(f"gpu_check: {'OK' if ok else 'NOT OK'} ({sum(bool(r.get('used_expected_device')) for r in ran)} of "
          f"{len(ran)} ran on {environment['torch_device']}); wrote {out / 'gpu_check.json'} and {out / 'gpu_check.md'}",
          flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
