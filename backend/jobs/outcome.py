"""A job's typed ending (`Outcome`) and `execute`: run one method and package what the job stores."""

from __future__ import annotations

import json
import logging
import os
import re
import traceback
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import TypeAdapter, ValidationError

from backend.jobs.limits import tree_rss_mb
from backend.jobs.run import is_out_of_memory, out_of_memory_message, run_method
from db.jobs import JobStatus
from models.common import Cancelled, MethodInputError, MethodSpec, Progress
from models.common.contract import MethodResult, Table
from models.common.verdict import Verdict

__all__ = ["Ending", "Outcome", "execute", "stored_tables", "stored_verdict", "unlinked", "warm_up_figures"]

log = logging.getLogger(__name__)

INTERRUPTED_BY_SHUTDOWN = "interrupted by a server shutdown"


class Ending(StrEnum):
    """How a job ended; each maps to one stored JobStatus (the wire values the API and app know)."""

    SUCCEEDED = "succeeded"
    FAILED = "failed"  # the method's own message, or a crash, exit code or signal
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"
    OUT_OF_MEMORY = "out_of_memory"
    INTERRUPTED = "interrupted"  # server shutdown or restart

    @property
    def status(self) -> JobStatus:
        if self in (Ending.SUCCEEDED, Ending.TIMED_OUT, Ending.CANCELLED):
            return JobStatus(self.value)
        return JobStatus.FAILED


@dataclass
class Outcome:
    """The end of one run: how it ended plus either the stored payload or a user-facing error."""

    ending: Ending
    error: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    tables: list[dict[str, Any]] = field(default_factory=list)  # MethodResult.tables() as JSON (stored_tables)
    artifacts: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    verdict: dict[str, Any] = field(default_factory=dict)  # the structured verdict of a succeeded run (stored_verdict)

    @property
    def status(self) -> JobStatus:
        return self.ending.status

    def size_bytes(self) -> int:
        return (sum(len(content) for _, content in self.artifacts.values()) + len(json.dumps(self.figures))
                + len(json.dumps(self.tables)))

    # the endings, by name
    @classmethod
    def failed(cls, error: str) -> Outcome:
        return cls(Ending.FAILED, error=_printable(error)[:500] or "the job failed")

    @classmethod
    def cancelled(cls) -> Outcome:
        return cls(Ending.CANCELLED, error="cancelled by the user")

    @classmethod
    def timed_out(cls, limit_s: float) -> Outcome:
        return cls(Ending.TIMED_OUT, error=f"the job ran past its time limit of {limit_s:g} s and was stopped")

    @classmethod
    def out_of_memory(cls, used_mb: float | None, limit_mb: float | None) -> Outcome:
        return cls(Ending.OUT_OF_MEMORY, error=out_of_memory_message(used_mb, limit_mb))

    @classmethod
    def interrupted(cls, reason: str = INTERRUPTED_BY_SHUTDOWN) -> Outcome:
        return cls(Ending.INTERRUPTED, error=reason)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def stored_verdict(verdict: Verdict) -> dict[str, Any]:
    """The verdict's fields as the store keeps them (texts printable; an answer's label is a short word, and
    the store's 64 characters only ever cut a method's own overlong answer)."""
    return {"kind": verdict.kind, "tone": verdict.tone, "label": _printable(verdict.label)[:64],
            "held": verdict.held, "tested": verdict.tested, "headline": verdict.headline, "seeds": verdict.seeds,
            "beaten_by": [_printable(name)[:200] for name in verdict.beaten_by],
            "metric": _printable(verdict.metric)[:200], "detail": _printable(verdict.detail)[:500]}


def stored_tables(result: MethodResult) -> list[dict[str, Any]]:
    """The result's tables as the store keeps them: JSON, a non-finite number as null (PostgreSQL's JSON
    has no NaN), control characters in text replaced (as in the verdict)."""
    tables = TypeAdapter(list[Table]).validate_python(result.tables())  # a method that returns dicts is checked
    titles = [table.title for table in tables]
    if len(set(titles)) != len(titles):
        raise ValueError(f"{type(result).__name__}.tables(): titles must be unique, got {titles}")
    return [_printable_json(json.loads(table.model_dump_json())) for table in tables]


def _printable_json(value: Any) -> Any:
    if isinstance(value, str):
        return _printable(value)
    if isinstance(value, dict):
        return {_printable(str(key)): _printable_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_printable_json(item) for item in value]
    return value


def _printable(text: str) -> str:
    """Control characters (NUL first: PostgreSQL text refuses it) replaced by U+FFFD."""
    return _CONTROL.sub("\ufffd", text)


# Plotly renders a small HTML subset in figure text. The allow-list: tags without attributes that
# only format (line break, bold, italics, sub/superscript, plotly's hover <extra>). Everything else
# that reads as a tag (<a href>, <span style>, <img>...) is dropped; any other `<` or `>` becomes a
# fullwidth sign and `&` an entity, so no character sequence in the output can form a tag or an entity
# that decodes to one, however plotly orders its tag split and its entity decoding.
_ALLOWED_TAGS = frozenset({"br", "b", "i", "em", "sup", "sub", "extra"})


def _tag_at(text: str, start: int) -> tuple[int, str | None] | None:
    """The tag beginning at text[start] == '<' as (end, kept form or None to drop); None: not a tag."""
    end = text.find(">", start + 1)
    if end < 0 or "<" in text[start + 1:end]:
        return None
    inner = text[start + 1:end]
    closing = inner.startswith("/")
    body = inner[1:] if closing else inner
    name_end = 0
    while name_end < len(body) and body[name_end].isascii() and body[name_end].isalpha():
        name_end += 1
    rest = body[name_end:]
    if name_end == 0 or (rest and not (rest[0].isspace() or rest[0] == "/")):
        return None  # "<w, x>", "< b", "<1>" are text
    name = body[:name_end].lower()
    bare = rest.strip() in ("", "/")
    if name in _ALLOWED_TAGS and bare:
        return end + 1, f"<{'/' if closing else ''}{name}>"
    return end + 1, None


def figure_text(text: str) -> str:
    """`text` with only allow-listed formatting tags left (see _ALLOWED_TAGS); the rest reads as typed."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "<":
            tag = _tag_at(text, i)
            if tag is not None:
                i, kept = tag
                out.append(kept or "")
                continue
            out.append("\uff1c")
        elif char == ">":
            out.append("\uff1e")
        elif char == "&":
            out.append("&amp;")
        else:
            out.append(char)
        i += 1
    return "".join(out)


def unlinked(value: Any) -> Any:
    """A figure's JSON with every string passed through `figure_text`: plotly renders `<a href>` as a
    link, and titles and hover texts may carry user input (a stranger's link must not reach a share page)."""
    if isinstance(value, str):
        return figure_text(value) if ("<" in value or ">" in value or "&" in value) else value
    if isinstance(value, dict):
        return {key: unlinked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unlinked(item) for item in value]
    return value


def execute(spec: MethodSpec[Any, Any], params: dict[str, Any], progress: Progress, memory_mb: int | None = None,
            max_result_mb: int = 64) -> Outcome:
    """Run the method through `run_method` and package the outcome; never raises."""
    try:
        run = run_method(spec, params, progress)
        figures = {name: unlinked(json.loads(fig.to_json())) for name, fig in run.figures.items()}
        artifacts = {name: (a.media_type, a.content) for name, a in run.artifacts.items()}
        outcome = Outcome(Ending.SUCCEEDED, result=run.result.model_dump(mode="json"),
                          metrics=dict(run.result.metrics()), figures=figures, artifacts=artifacts,
                          tables=stored_tables(run.result), verdict=stored_verdict(run.verdict))
    except Cancelled:
        return Outcome.cancelled()
    except MethodInputError as exc:
        return Outcome.failed(str(exc) or "the input could not be processed")
    except ValidationError as exc:
        return Outcome.failed(f"invalid params: {exc.errors(include_url=False)[0]['msg']}")
    except Exception as exc:  # noqa: BLE001 - any bug in a method becomes a failed job, never a dead server
        if is_out_of_memory(exc):
            return Outcome.out_of_memory(tree_rss_mb(os.getpid()), memory_mb)
        log.error("method %s crashed:\n%s", spec.name, traceback.format_exc())
        return Outcome.failed(f"internal error in {spec.name}: {type(exc).__name__}: {exc}")
    if outcome.size_bytes() > max_result_mb * 2**20:
        return Outcome.failed(f"the result is larger than the {max_result_mb} MB a job may store")
    return outcome


def warm_up_figures() -> None:
    """Pay plotly's first-serialisation cost (validators, encoders) before a job arrives."""
    try:
        import plotly.graph_objects as go

        go.Figure(go.Scatter(x=[0.0], y=[0.0]), layout={"title": "warm"}).to_json()
    except Exception:  # noqa: BLE001 - only a speed-up
        pass
