"""The gpu_check report: one record per job as the store read it back, and the markdown table of them."""

from __future__ import annotations

import time
from typing import Any

from scripts.gpu_check_probe import PROBE_KEY

__all__ = ["compare_with_cpu", "job_claims", "job_record", "markdown", "used_expected_device"]


def job_claims(result: dict[str, Any] | None) -> dict[str, str]:
    return {c["id"]: c["holds"] for c in (result or {}).get("claims", [])}


def job_record(job: Any, submitted: float, probe_expected: bool) -> dict[str, Any]:
    result = job.result or {}
    metrics = dict(job.metrics or {})
    probe = metrics.pop(PROBE_KEY, None)
    wall = (job.finished_at - job.started_at).total_seconds() if job.started_at and job.finished_at else None
    record: dict[str, Any] = {
        "job_id": job.id, "status": job.status, "error": job.error, "wall_s": None if wall is None else round(wall, 2),
        "since_submit_s": round(time.monotonic() - submitted, 2), "verdict": job.verdict, "verdict_tone": job.verdict_tone,
        "claims": job_claims(result), "result_device": result.get("device"), "probe": probe,
    }
    if probe is None and job.status == "succeeded" and probe_expected:
        record["probe"] = {"error": "no probe in the stored metrics (START_METHOD=spawn?)"}
    return record


def used_expected_device(record: dict[str, Any], expected_device: str) -> bool:
    """True when the job ran on the device torch offers: for CUDA, a context and CUDA memory in the job."""
    probe = record.get("probe") or {}
    if record["status"] != "succeeded" or probe.get("torch_device") != expected_device:
        return False
    if record.get("result_device") not in (None, expected_device):
        return False
    if expected_device == "cuda":
        return bool(probe.get("cuda_initialized")) and float(probe.get("cuda_max_allocated_mb", 0)) > 0
    return True


def _holds_text(claims: dict[str, str]) -> str:
    return ", ".join(f"{cid}: {holds}" for cid, holds in claims.items()) or "-"


def compare_with_cpu(main: dict[str, Any], cpu: dict[str, Any] | None) -> dict[str, Any]:
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
