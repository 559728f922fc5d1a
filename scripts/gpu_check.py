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

PROBE_ENV = "GPU_CHECK_PROBE"
PROBE_KEY = "gpu_check_probe"
PROBE_MODULE = "scripts.gpu_check"
REPO_ROOT = Path(__file__).resolve().parent.parent

# The methods whose run.py picks its device with torch_device(), in page order.
TORCH_METHODS = ("shapley_graph", "hedp", "lmnet", "skill_moe", "rc_fcl", "diffusion_resampling", "lift_offline_rl",
                 "moe_upcycling", "stein_guidance", "apt_operator", "robust_satisficing")
# Imports a method makes only when it runs (so its SPEC loads without them): checked before submitting.
LAZY_IMPORTS = {"shapley_graph": ("rdkit", "shapiq")}


# --- inside the job process ---------------------------------------------------------------------------

def _probe_facts(execute_s: float) -> dict[str, Any]:
    """What the job process itself saw, read after the method has run."""
    from models.common import torch_device

    facts: dict[str, Any] = {"pid": os.getpid(), "execute_s": round(execute_s, 3), "torch_device": torch_device()}
    torch = sys.modules.get("torch")
    if torch is None:
        return facts
    initialized = bool(torch.cuda.is_initialized())
    facts["cuda_initialized"] = initialized
    if initialized:
        facts["cuda_device_name"] = torch.cuda.get_device_name()
        facts["cuda_max_allocated_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 2)
        facts["cuda_max_reserved_mb"] = round(torch.cuda.max_memory_reserved() / 2**20, 2)
    facts["torch_threads"] = torch.get_num_threads()
    return facts


def _install_probe() -> None:
    """Wrap `backend.jobs.outcome.execute` (imported by worker_main after the fork) to record `_probe_facts`."""
    from backend.jobs import outcome

    original = outcome.execute
    if getattr(original, "gpu_check_probe", False):
        return

    def probed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        ended = original(*args, **kwargs)
        try:
            ended.metrics[PROBE_KEY] = _probe_facts(time.perf_counter() - started)
        except Exception as exc:  # noqa: BLE001 - the probe must never change how a job ends
            ended.metrics[PROBE_KEY] = {"error": f"{type(exc).__name__}: {exc}"}
        return ended

    probed.gpu_check_probe = True  # type: ignore[attr-defined]
    outcome.execute = probed  # type: ignore[assignment]


if __name__ != "__main__" and os.environ.get(PROBE_ENV) == "1":
    _install_probe()  # imported by the forkserver (preload) of a gpu_check run


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


def _claims(result: dict[str, Any] | None) -> dict[str, str]:
    return {c["id"]: c["holds"] for c in (result or {}).get("claims", [])}


def _record(job: Any, submitted: float, probe_expected: bool) -> dict[str, Any]:
    result = job.result or {}
    metrics = dict(job.metrics or {})
    probe = metrics.pop(PROBE_KEY, None)
    wall = (job.finished_at - job.started_at).total_seconds() if job.started_at and job.finished_at else None
    record: dict[str, Any] = {
        "job_id": job.id, "status": job.status, "error": job.error, "wall_s": None if wall is None else round(wall, 2),
        "since_submit_s": round(time.monotonic() - submitted, 2), "verdict": job.verdict, "verdict_tone": job.verdict_tone,
        "claims": _claims(result), "result_device": result.get("device"), "probe": probe,
    }
    if probe is None and job.status == "succeeded" and probe_expected:
        record["probe"] = {"error": "no probe in the stored metrics (START_METHOD=spawn?)"}
    return record


def _used(record: dict[str, Any], expected_device: str) -> bool:
    """True when the job ran on the device torch offers: for CUDA, a context and CUDA memory in the job."""
    probe = record.get("probe") or {}
    if record["status"] != "succeeded" or probe.get("torch_device") != expected_device:
        return False
    if record.get("result_device") not in (None, expected_device):
        return False
    if expected_device == "cuda":
        return bool(probe.get("cuda_initialized")) and float(probe.get("cuda_max_allocated_mb", 0)) > 0
    return True


def run_jobs(methods: list[str], which: str, per_method_s: float, budget_s: float, tag: str = "") -> dict[str, Any]:
    """Run `methods` as jobs through the server's job machinery; one record per method."""
    os.environ[PROBE_ENV] = "1"  # before the forkserver starts: it inherits it and installs the probe
    from backend.jobs.runtime import start_jobs
    from backend.jobs.service import JobService
    from backend.registry import discover
    from backend.settings import Settings
    from db.jobs import JobRepository
    from db.session import make_engine, make_session_factory, upgrade_to_head
    from db.status import TERMINAL
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
        service = JobService(registry, jobs.executor, sessions, wake=jobs.dispatcher.wake,
                             check_budget_s=settings.check_budget_ms / 1000)
        info = {"torch_device": device, "gpu_available": device == "cuda", "executor": jobs.executor.name,
                "start_method": settings.start_method, "max_workers": settings.max_workers,
                "job_threads": settings.job_threads, "job_timeout_s": settings.job_timeout_s,
                "job_memory_mb": settings.job_memory_mb, "params": which,
                "offered": registry.names()}
        print(f"[{tag}] executor={info['executor']} start_method={settings.start_method} "
              f"max_workers={settings.max_workers} job_threads={settings.job_threads} "
              f"JOB_TIMEOUT_S={settings.job_timeout_s:g} JOB_MEMORY_MB={settings.job_memory_mb}", flush=True)
        waiting: dict[str, tuple[str, float]] = {}
        cancelled: dict[str, float] = {}
        try:
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
            while waiting:
                time.sleep(0.25)
                now = time.monotonic()
                for name, (job_id, submitted) in list(waiting.items()):
                    with sessions() as session:
                        job = JobRepository(session).get(job_id)
                        assert job is not None
                        running_for = 0.0 if job.started_at is None else _age_s(job.started_at)
                        if job.status in TERMINAL:
                            records[name] = _record(job, submitted, settings.start_method == "forkserver")
                            records[name]["used_expected_device"] = _used(records[name], device)
                            del waiting[name]
                            rec = records[name]
                            probe = rec.get("probe") or {}
                            print(f"[{tag}] {name}: {rec['status']} in {rec['wall_s']} s; job saw "
                                  f"{probe.get('torch_device')}, cuda context {probe.get('cuda_initialized')}, "
                                  f"peak {probe.get('cuda_max_allocated_mb', 0)} MB; {rec['verdict'] or rec['error']}",
                                  flush=True)
                            continue
                    if running_for > per_method_s or now - started > budget_s:
                        why = "per-method limit" if running_for > per_method_s else "overall budget"
                        if name not in cancelled:
                            cancelled[name] = now
                            print(f"[{tag}] {name}: cancelling ({why} of this script)", flush=True)
                            service.cancel(job_id)
                        elif now - cancelled[name] > 15:  # the cancel did not land: give up on it
                            records[name] = {"job_id": job_id, "status": "abandoned", "error": why}
                            del waiting[name]
        finally:
            jobs.shutdown()
            engine.dispose()
    ordered = {name: records[name] for name in methods if name in records}
    return {"info": info, "methods": ordered, "total_s": round(time.monotonic() - started, 1)}


# --- output -----------------------------------------------------------------------------------------------

def _holds_text(claims: dict[str, str]) -> str:
    return ", ".join(f"{cid}: {holds}" for cid, holds in claims.items()) or "-"


def _compare(main: dict[str, Any], cpu: dict[str, Any] | None) -> dict[str, Any]:
    if cpu is None or cpu.get("status") != "succeeded" or main.get("status") != "succeeded":
        return {}
    differing = sorted(c for c in set(main["claims"]) | set(cpu["claims"])
                       if main["claims"].get(c) != cpu["claims"].get(c))
    return {"same_verdict": main["verdict"] == cpu["verdict"], "claims_differing": differing}


def markdown(report: dict[str, Any]) -> str:
    env = report["environment"]
    lines = [f"# gpu_check: {env.get('device_name', 'no GPU')} ({env['torch_device']})", "",
             f"torch {env['torch']} (CUDA build {env['torch_cuda_build']}), Python {env['python']}, "
             f"{env['cpus']} CPUs; params: {report['jobs']['info']['params']}; "
             f"executor {report['jobs']['info']['executor']} ({report['jobs']['info']['start_method']}), "
             f"MAX_WORKERS={report['jobs']['info']['max_workers']}, JOB_THREADS={report['jobs']['info']['job_threads']}; "
             f"total {report['jobs']['total_s']} s.", "",
             "| method | status | wall s | job's torch_device | CUDA context | peak CUDA MB | result.device | "
             "on expected device | verdict | claims holds | CPU wall s | CPU verdict same | claims differing on CPU |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    cpu_methods = (report.get("cpu") or {}).get("methods", {})
    for name, rec in report["jobs"]["methods"].items():
        probe = rec.get("probe") or {}
        cpu = cpu_methods.get(name)
        cmp = rec.get("cpu_comparison") or {}
        lines.append("| " + " | ".join(str(x) for x in [
            name, rec["status"] + (f": {rec['error']}" if rec.get("error") else ""), rec.get("wall_s", "-"),
            probe.get("torch_device", "-"), probe.get("cuda_initialized", "-"), probe.get("cuda_max_allocated_mb", "-"),
            rec.get("result_device") or "-", rec.get("used_expected_device", "-"), rec.get("verdict") or "-",
            _holds_text(rec.get("claims", {})), (cpu or {}).get("wall_s", "-"), cmp.get("same_verdict", "-"),
            ", ".join(cmp.get("claims_differing", [])) if cmp else "-",
        ]).replace("\n", " ") + " |")
    if report.get("excluded"):
        lines += ["", "Not run: " + "; ".join(f"{k} ({v})" for k, v in report["excluded"].items())]
    return "\n".join(lines) + "\n"


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
            rec["cpu_comparison"] = _compare(rec, report["cpu"]["methods"].get(name))

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
