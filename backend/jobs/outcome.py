"""Runs one method on validated params and packages what the job stores (shared by all executors)."""

from __future__ import annotations

import json
import logging
import traceback
from dataclasses import dataclass, field
from typing import Any

from models.common import Cancelled, MethodInputError, MethodSpec, Progress

__all__ = ["Outcome", "execute"]

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    """The end of one run: status plus either the stored payload or a user-facing error."""

    status: str  # "succeeded" | "failed" | "cancelled"
    error: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    artifacts: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    verdict: dict[str, str] = field(default_factory=dict)  # {label, tone, detail} of a succeeded run

    def size_bytes(self) -> int:
        return sum(len(content) for _, content in self.artifacts.values()) + len(json.dumps(self.figures))


def execute(spec: MethodSpec, params: dict[str, Any], progress: Progress, memory_mb: int | None = None,
            max_result_mb: int = 64) -> Outcome:
    """Validate `params`, run the method, build figures and artifacts; never raises."""
    try:
        model = spec.params_model.model_validate(params)
        result = spec.run(model, progress)
        progress(0.99, "drawing figures")
        figures = {name: json.loads(fig.to_json()) for name, fig in spec.figures(result).items()}
        artifacts = {name: (a.media_type, a.content) for name, a in result.all_artifacts().items()}
        verdict = result.verdict()
        outcome = Outcome("succeeded", result=result.model_dump(mode="json"), metrics=dict(result.metrics()),
                          figures=figures, artifacts=artifacts,
                          verdict={"label": verdict.label[:64], "tone": verdict.tone, "detail": verdict.detail[:500]})
    except Cancelled:
        return Outcome("cancelled", error="cancelled by the user")
    except MethodInputError as exc:
        return Outcome("failed", error=str(exc) or "the input could not be processed")
    except MemoryError:
        limit = f" of {memory_mb} MB" if memory_mb else ""
        return Outcome("failed", error=f"the job ran out of memory (limit{limit}); try smaller settings")
    except Exception as exc:  # noqa: BLE001 - any bug in a method becomes a failed job, never a dead server
        log.error("method %s crashed:\n%s", spec.name, traceback.format_exc())
        return Outcome("failed", error=f"internal error in {spec.name}: {type(exc).__name__}: {exc}"[:500])
    if outcome.size_bytes() > max_result_mb * 2**20:
        return Outcome("failed", error=f"the result is larger than the {max_result_mb} MB a job may store")
    return outcome
