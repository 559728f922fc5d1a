"""`run_method`: validate, run, draw and package one method run (the CLI and every job worker call it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from models.common import Artifact, MethodResult, MethodSpec, Progress, Verdict

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["MethodRun", "is_out_of_memory", "out_of_memory_message", "run_method"]


@dataclass
class MethodRun:
    """What one run produced: the typed result, its figures, its files and its verdict."""

    result: MethodResult
    figures: dict[str, go.Figure]
    artifacts: dict[str, Artifact]
    verdict: Verdict


def run_method(spec: MethodSpec[Any, Any], params: Mapping[str, Any] | BaseModel, progress: Progress) -> MethodRun:
    """Validate `params` against the method's model, run it, draw its figures, collect its files.

    Raises what the method raises: pydantic's ValidationError, MethodInputError, Cancelled (from
    `progress`), MemoryError and any bug; the callers (CLI, job worker) turn those into their own
    endings, so the run itself happens the same way everywhere."""
    model = params if isinstance(params, spec.params_model) else spec.params_model.model_validate(
        params.model_dump() if isinstance(params, BaseModel) else dict(params))
    if spec.check is not None:
        spec.check(model)
    result = spec.run(model, progress)
    progress(0.99, "drawing figures")
    figures = dict(spec.figures(result))
    return MethodRun(result=result, figures=figures, artifacts=result.all_artifacts(), verdict=result.verdict())


def out_of_memory_message(used_mb: float | None, limit_mb: float | None = None) -> str:
    """The one wording of every out-of-memory ending: the supervisor's limit, MemoryError, torch's CPU
    and CUDA allocator errors, the kernel's and Ray's OOM kills."""
    used = f"{used_mb:.0f} MB" if used_mb is not None else "the node's memory was full"
    limit = f"; the limit is {limit_mb:.0f} MB" if limit_mb else ""
    return f"ran out of memory ({used}){limit}; try smaller settings"


def is_out_of_memory(exc: BaseException) -> bool:
    """True for MemoryError and for torch's CPU and CUDA allocator failures (RuntimeErrors by text)."""
    if isinstance(exc, MemoryError) or type(exc).__name__ == "OutOfMemoryError":  # torch.OutOfMemoryError
        return True
    text = str(exc)
    return isinstance(exc, RuntimeError) and ("can't allocate memory" in text or "CUDA out of memory" in text)
