"""Request and response schemas, named by role."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from db.jobs import JobStatus
from models.common.contract import Table

__all__ = ["ERROR_RESPONSES", "ErrorPublic", "Health", "JobCreate", "JobCreated", "JobListItem", "JobPublic", "JobsPublic",
           "MePublic", "MethodPublic", "MethodsPublic", "PaperPublic", "SessionCreated", "ShareCreated", "VerdictKind",
           "VerdictPublic"]


class ErrorPublic(BaseModel):
    """Every error answer (4xx and 5xx): one readable sentence."""

    detail: str


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorPublic, "description": text}
    for code, text in ((400, "Malformed request (body or Host header)"), (401, "Missing, unknown or expired token (shared mode)"), (404, "Not found"),
                       (409, "The job is still queued or running"),
                       (413, "Request body too large"), (422, "Invalid request or parameters"),
                       (429, "Over a rate limit or quota (see Retry-After)"), (503, "Database busy (see Retry-After)"))
}


def _utc(moment: datetime | None) -> datetime | None:
    """Every stored time is UTC; SQLite hands it back without a zone, so answers say so explicitly."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


class PaperPublic(BaseModel):
    title: str
    authors: str
    venue: str
    year: int
    url: str
    code_url: str
    citation: str


class MethodPublic(BaseModel):
    name: str
    title: str
    nav_title: str
    section: str
    order: int
    summary: str
    about: str
    paper: PaperPublic
    params_schema: dict[str, Any]
    has_examples: bool
    resources: list[str] = Field(default_factory=list, description="Keys of GET /api/methods/{name}/resources/{key}.")


class MethodsPublic(BaseModel):
    data: list[MethodPublic]
    count: int


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, newline and carriage return are text


def _control_character_at(value: Any, path: str) -> str | None:
    """The path of the first string (or key) holding a control character, NUL first, else None.
    Iterative, so a deeply nested body cannot exhaust the stack; bounded by the 2 MB body."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if _CONTROL.search(item):
                return where
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and _CONTROL.search(key):
                    return f"{where} (a key)"
                stack.append((f"{where}.{key}", child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", child) for index, child in enumerate(item))
    return None


class JobCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    method: str = Field(min_length=1, max_length=64, description="Method name, as listed by GET /api/methods.")
    params: dict[str, Any] = Field(default_factory=dict, description="Parameters; see the method's params_schema.")
    owner: str = Field("", max_length=64, description="Opaque id of the submitting user (history filter).")
    example: str | None = Field(None, min_length=1, max_length=200,
                                description="The label of the method's example these params are, unchanged "
                                "(GET /api/methods/{name}/examples); omit it for any other inputs.")

    @model_validator(mode="after")
    def _no_control_characters(self) -> JobCreate:
        """NUL and other control characters are refused in every string (PostgreSQL text cannot hold
        NUL; none has a meaning in a parameter): a 422 on both stores, before anything is stored."""
        where = _control_character_at({"method": self.method, "params": self.params, "owner": self.owner,
                                        "example": self.example}, "body")
        if where is not None:
            raise ValueError(f"{where.removeprefix('body.')}: control characters (such as NUL) are not allowed")
        return self


class JobCreated(BaseModel):
    id: str
    status: JobStatus


VerdictKind = Literal["reproduced", "partly", "beaten", "not_reproduced", "not_tested", "answer"]


class VerdictPublic(BaseModel):
    """A succeeded run's verdict as data (models/common/verdict.py); the page words it from these fields."""

    kind: VerdictKind = Field(description="reproduced | partly | beaten | not_reproduced | not_tested | answer")
    tone: Literal["success", "info", "warning", "error"]
    label: str = Field("", description="a core demo's answer ('Proved', 'OK'); empty for claim pages")
    held: int = Field(0, description="headline claims held")
    tested: int = Field(0, description="headline claims these settings test")
    headline: int = Field(0, description="headline claims declared")
    seeds: int = Field(0, description="seeds the claims were measured on")
    beaten_by: list[str] = Field(default_factory=list, description="competitors better by a paired interval excluding 0")
    metric: str = Field("", description="the metric of the standing")
    detail: str = ""


class JobPublic(BaseModel):
    """One job; `result`, `metrics`, `tables` and `figures` only in the full view."""

    id: str
    method: str
    status: JobStatus
    progress: float
    message: str
    owner: str
    params: dict[str, Any]
    summary: str = Field("", description="A short summary of the inputs (the history table's Input column).")
    example: str | None = Field(None, description="The example the run was started from unchanged (None: own inputs).")
    verdict: VerdictPublic | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    error: str | None = None
    result: dict[str, Any] | None = None
    metrics: dict[str, Any] | None = None
    tables: list[Table] | None = Field(None, description="The method's result tables: title, typed columns, rows.")
    figures: dict[str, Any] | None = None
    artifacts: list[str] = Field(default_factory=list)
    queue_position: int | None = Field(None, description="queued jobs submitted before this one (queued runs only)")
    queue_wait_s: float | None = Field(None, description="a rough wait: recent jobs' median time x (position + 1) / workers")

    _zoned = field_validator("created_at", "started_at", "finished_at")(_utc)


class JobListItem(BaseModel):
    """One row of the history: no params, result or figures (a list stays small)."""

    id: str
    method: str
    status: JobStatus
    progress: float
    message: str
    owner: str
    summary: str = ""
    example: str | None = Field(None, description="The example the run was started from unchanged (None: own inputs).")
    verdict: VerdictPublic | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    error: str | None = None

    _zoned = field_validator("created_at", "started_at", "finished_at")(_utc)


class JobsPublic(BaseModel):
    data: list[JobListItem]
    count: int


class Health(BaseModel):
    ok: bool
    version: str
    database: bool
    executor: str = Field(description="embedded | ray | inline")
    workers: int = Field(description="Jobs that run at once (embedded) or CPUs of the Ray cluster (ray).")
    torch_device: str
    methods: int
    instance: str = Field("", description="An opaque tag of this server instance (no host name, no pid).")
    disk_ok: bool = Field(True, description="False while the disk is (nearly) full: free space below MIN_FREE_DISK_MB "
                          "or the database refused a write for lack of space in the last 30 s.")
    pending_results: int = Field(0, description="Finished jobs whose record waits for the database (kept in memory).")
    resources: dict[str, float] = Field(default_factory=dict, description="CPU, GPU, memory... the executor offers.")
    executor_detail: dict[str, Any] = Field(default_factory=dict,
                                            description="Ray: address and live nodes; embedded: start method, warm processes.")


class ShareCreated(BaseModel):
    link: str = Field(description="The read-only link token (GET /api/shared/{link}).")
    url: str = Field(description="The page URL that shows the shared result (`?share=`).")


class SessionCreated(BaseModel):
    token: str = Field(description="A bearer token for this browser session; shown once.")
    expires_at: datetime

    _zoned = field_validator("expires_at")(_utc)


class MePublic(BaseModel):
    name: str
    admin: bool
    access_mode: str
