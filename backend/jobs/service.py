"""The job service: validates a request, stores the job (queued in the database) and wakes the dispatcher."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.executors import Executor
from backend.registry import Registry
from db.jobs import JobRepository
from models.common import MethodInputError, MethodSpec

__all__ = ["InvalidParams", "JobService", "UnknownMethod", "describe_validation_error"]


class UnknownMethod(LookupError):
    """The requested method is not offered by this server."""


class InvalidParams(ValueError):
    """Parameters that fail the method's bounds or types; the message says which and why."""


def _location(loc: tuple[Any, ...]) -> str:
    """`('distribution', 'rectangles', 1, 'b', 1)` -> `distribution › rectangles row 2 › b item 2`.

    Positions are counted from 1, as a person counts the rows of a table: a position followed by a
    field name is a row (of a table of records), a last position is an item (of a list of values)."""
    words: list[str] = []
    for index, part in enumerate(loc):
        if isinstance(part, int):
            noun = "row" if index + 1 < len(loc) else "item"
            label = f"{noun} {part + 1}"
            words[-1:] = [f"{words[-1]} {label}"] if words else [label]
        else:
            words.append(str(part))
    return " › ".join(words) or "params"


def describe_validation_error(error: ValidationError) -> str:
    """One readable line per problem: `field › row 2: what is wrong` (rows counted from 1)."""
    parts = []
    for item in error.errors(include_url=False):
        message = str(item["msg"]).replace("Value error, ", "")
        parts.append(f"{_location(tuple(item['loc']))}: {message}")
    return "; ".join(parts)


def _summary(spec: MethodSpec, model: BaseModel) -> str:
    """The method's own input summary, or the first few parameters as `name=value`."""
    try:
        if spec.input_summary is not None:
            return " ".join(str(spec.input_summary(model)).split())[:200]
    except Exception:  # noqa: BLE001 - a summary is decoration; never refuse a job for it
        pass
    parts = [f"{name}={json.dumps(value, default=str)}" for name, value in model.model_dump(mode="json").items()]
    text = ", ".join(parts)
    return text if len(text) <= 120 else text[:119] + "…"


class JobService:
    """Create, cancel and look up jobs."""

    def __init__(self, registry: Registry, executor: Executor, sessions: sessionmaker[Session],
                 wake: Callable[[], None]) -> None:
        self.registry = registry
        self.executor = executor
        self.sessions = sessions
        self.wake = wake

    def validate(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Return the params with defaults filled in, or raise UnknownMethod / InvalidParams."""
        return self._validated(method, params)[0]

    def _validated(self, method: str, params: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """(params with defaults, input summary); runs the method's cheap `check` too."""
        registered = self.registry.get(method)
        if registered is None:
            known = ", ".join(self.registry.names()) or "none"
            raise UnknownMethod(f"unknown method {method!r}; available methods: {known}")
        spec = registered.spec
        try:
            model = spec.params_model.model_validate(params)
        except ValidationError as exc:
            raise InvalidParams(describe_validation_error(exc)) from None
        try:
            if spec.check is not None:
                spec.check(model)
        except MethodInputError as exc:
            raise InvalidParams(str(exc) or "the input could not be processed") from None
        return model.model_dump(mode="json"), _summary(spec, model)

    def submit(self, method: str, params: dict[str, Any], owner: str = "",
               admit: Callable[[Session], None] | None = None) -> str:
        """Validate and store the job (queued), then wake this server's dispatcher, which hands it to an
        executor with a free worker (this server's, or another's on the same database); `admit(session)`
        (quotas) may refuse it inside the same transaction that stores it."""
        clean, summary = self._validated(method, params)
        with self.sessions.begin() as session:
            if admit is not None:
                admit(session)
            job_id = JobRepository(session).create(method, clean, owner, summary=summary).id
        self.wake()
        return job_id

    def cancel(self, job_id: str) -> str | None:
        """Flag the job; the executor holding it stops it (here at once, on another server at its next
        look at the flag)."""
        with self.sessions.begin() as session:
            status = JobRepository(session).request_cancel(job_id)
        if status is not None:
            self.executor.cancel(job_id)
        return status
