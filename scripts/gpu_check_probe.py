"""The gpu_check probe, inside the job process: imported by the forkserver (preload) of a gpu_check run, it
wraps `backend.jobs.outcome.execute` so that the job's stored metrics say which device the job process saw,
whether it created a CUDA context, and its peak CUDA memory. The method's run itself is untouched."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

__all__ = ["PROBE_ENV", "PROBE_KEY"]

PROBE_ENV = "GPU_CHECK_PROBE"
PROBE_KEY = "gpu_check_probe"


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
