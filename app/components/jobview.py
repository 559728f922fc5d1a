"""JobView: a job as the page sees it, with its figures decoded."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from app.components.status import TERMINAL, JobStatus

__all__ = ["TERMINAL", "JobView", "VerdictView"]


@dataclass(frozen=True)
class VerdictView:
    """The verdict the model server derived from the claims (its `VerdictPublic`): data, never parsed.
    `sentence()` (app/components/banner.py) words it."""

    kind: str = "answer"  # reproduced, partly, beaten, not_reproduced, not_tested or answer
    tone: str = "info"  # success, warning, error or info: the banner's colour
    label: str = ""  # a core demo's answer ("Proved"); empty for claim pages
    held: int = 0
    tested: int = 0
    headline: int = 0
    seeds: int = 0
    beaten_by: tuple[str, ...] = ()
    metric: str = ""
    detail: str = ""

    @classmethod
    def from_api(cls, payload: dict[str, Any] | None) -> VerdictView | None:
        if not payload:
            return None
        return cls(kind=str(payload.get("kind") or "answer"), tone=str(payload.get("tone") or "info"),
                   label=str(payload.get("label") or ""), held=int(payload.get("held") or 0),
                   tested=int(payload.get("tested") or 0), headline=int(payload.get("headline") or 0),
                   seeds=int(payload.get("seeds") or 0),
                   beaten_by=tuple(str(name) for name in payload.get("beaten_by") or ()),
                   metric=str(payload.get("metric") or ""), detail=str(payload.get("detail") or ""))


@dataclass
class JobView:
    id: str
    method: str
    status: JobStatus
    progress: float
    message: str
    params: dict[str, Any]
    result: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    tables: list[dict[str, Any]] = field(default_factory=list)  # the method's result tables (TablePublic)
    figure_json: dict[str, Any] = field(default_factory=dict)
    artifacts: list[str] = field(default_factory=list)
    error: str | None = None
    created_at: str = ""
    started_at: str = ""
    finished_at: str = ""
    summary: str = ""
    example: str | None = None  # the example the run was started from unchanged (None: own inputs)
    verdict: VerdictView | None = None
    share_link: str = ""  # set when the job was opened through a read-only share link
    queue_position: int | None = None  # queued runs: jobs submitted before this one, still waiting
    queue_wait_s: float | None = None  # a rough estimate from recent job times

    @classmethod
    def from_api(cls, payload: dict[str, Any]) -> JobView:
        return cls(
            id=payload["id"], method=payload["method"], status=JobStatus(payload["status"]),
            progress=float(payload.get("progress") or 0.0), message=payload.get("message") or "",
            params=payload.get("params") or {}, result=payload.get("result") or {},
            metrics=payload.get("metrics") or {}, tables=list(payload.get("tables") or []),
            figure_json=payload.get("figures") or {}, example=payload.get("example"),
            artifacts=list(payload.get("artifacts") or []), error=payload.get("error"),
            created_at=str(payload.get("created_at") or ""), started_at=str(payload.get("started_at") or ""),
            finished_at=str(payload.get("finished_at") or ""), summary=str(payload.get("summary") or ""),
            verdict=VerdictView.from_api(payload.get("verdict")),
            queue_position=payload.get("queue_position"), queue_wait_s=payload.get("queue_wait_s"),
        )

    def queued_text(self) -> str:
        """'Queued: 3 runs ahead of this one, about 40 s…' from the queue position and the wait estimate."""
        if self.queue_position is None:
            return "Queued, waiting for a worker…"
        n = self.queue_position
        ahead = "no run ahead of this one" if n == 0 else f"{n} run{'s' if n != 1 else ''} ahead of this one"
        wait = ""
        if self.queue_wait_s is not None:
            wait = (f", about {round(self.queue_wait_s)} s" if self.queue_wait_s < 120
                    else f", about {round(self.queue_wait_s / 60)} min")
        return f"Queued: {ahead}{wait}…"

    @property
    def seconds(self) -> float | None:
        """Wall time from start to finish, when both are known."""
        if not self.started_at or not self.finished_at:
            return None
        from datetime import datetime

        try:
            return (datetime.fromisoformat(self.finished_at) - datetime.fromisoformat(self.started_at)).total_seconds()
        except ValueError:
            return None

    @property
    def file_prefix(self) -> str:
        """`<method>-<short id>`: download names that keep the files of different runs apart."""
        return f"{self.method}-{self.id[:8]}"

    @property
    def done(self) -> bool:
        return self.status in TERMINAL

    @cached_property
    def figures(self) -> dict[str, go.Figure]:
        return {name: pio.from_json(json.dumps(spec)) for name, spec in self.figure_json.items()}
