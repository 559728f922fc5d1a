"""The job service: validates a request, stores the job, hands it to the executor."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.executors import Executor
from backend.registry import Registry
from db.jobs import JobRepository

__all__ = ["InvalidParams", "JobService", "UnknownMethod", "describe_validation_error"]


class UnknownMethod(LookupError):
    """The requested method is not offered by this server."""


class InvalidParams(ValueError):
    """Parameters that fail the method's bounds or types; the message says which and why."""


def describe_validation_error(error: ValidationError) -> str:
    """One readable line per problem: `field.path: what is wrong`."""
    parts = []
    for item in error.errors(include_url=False):
        location = ".".join(str(part) for part in item["loc"]) or "params"
        parts.append(f"{location}: {item['msg']}")
    return "; ".join(parts)


class JobService:
    """Create, cancel and look up jobs."""

    def __init__(self, registry: Registry, executor: Executor, sessions: sessionmaker[Session]) -> None:
        self.registry = registry
        self.executor = executor
        self.sessions = sessions

    def validate(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Return the params with defaults filled in, or raise UnknownMethod / InvalidParams."""
        registered = self.registry.get(method)
        if registered is None:
            known = ", ".join(self.registry.names()) or "none"
            raise UnknownMethod(f"unknown method {method!r}; available methods: {known}")
        try:
            model = registered.spec.params_model.model_validate(params)
        except ValidationError as exc:
            raise InvalidParams(describe_validation_error(exc)) from None
        return model.model_dump(mode="json")

    def submit(self, method: str, params: dict[str, Any], owner: str = "") -> str:
        clean = self.validate(method, params)
        with self.sessions.begin() as session:
            job_id = JobRepository(session).create(method, clean, owner).id
        registered = self.registry.get(method)
        assert registered is not None
        self.executor.submit(job_id, registered.module, clean)
        return job_id

    def cancel(self, job_id: str) -> str | None:
        with self.sessions.begin() as session:
            status = JobRepository(session).request_cancel(job_id)
        if status is not None:
            self.executor.cancel(job_id)
        return status
