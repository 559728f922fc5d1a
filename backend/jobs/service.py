"""The job service: validates a request, stores the job (queued in the database) and wakes the dispatcher."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session, sessionmaker

from backend.jobs.executors import Executor
from backend.registry import Registry
from db.jobs import JobRepository
from db.session import begin_exclusive
from models.common import MethodInputError, MethodSpec
from models.common.numbers import words

__all__ = ["InvalidParams", "JobService", "UnknownMethod", "bounded_check", "describe_validation_error"]


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


def _differences(spec: MethodSpec, model: BaseModel) -> str:
    """The parameters that differ from the method's defaults, as `name=value` (short values only)."""
    try:
        defaults = spec.params_model().model_dump(mode="json")
    except Exception:  # noqa: BLE001 - a params model without complete defaults: no comparison
        return ""
    parts = []
    for name, value in model.model_dump(mode="json").items():
        if defaults.get(name) != value:
            text = json.dumps(value, default=str)
            parts.append(f"{name}={text if len(text) <= 24 else text[:23] + '…'}")
    return ", ".join(parts) if parts else "defaults"


_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # "two_markets" in a method's summary reads "two markets"


def _summary(spec: MethodSpec, model: BaseModel) -> str:
    """The method's own input summary and the parameters that differ from its defaults (two different runs
    never read the same in the history)."""
    own = ""
    try:
        if spec.input_summary is not None:
            own = _IDENTIFIER.sub(lambda m: words(m.group(0)), " ".join(str(spec.input_summary(model)).split()))
    except Exception:  # noqa: BLE001 - a summary is decoration; never refuse a job for it
        own = ""
    text = " · ".join(part for part in (own, _differences(spec, model)) if part)
    return text if len(text) <= 200 else text[:199] + "…"


class _OverBudget(BaseException):
    """Raised inside a submit-time check that used up its CPU budget (a BaseException, so a method's
    own `except Exception` cannot swallow it)."""


def bounded_check(check: Callable[[Any], None], model: BaseModel, budget_s: float) -> bool:
    """Run `check(model)` for at most `budget_s` of this thread's CPU time; False when it was stopped
    (the job runs the check again, in its own process, under its own limits).

    A trace function that sees only calls (no line events) compares the thread's CPU clock with the
    budget; a pure-Python parser makes calls all the time, so it is stopped within microseconds."""
    if budget_s <= 0:
        return False
    deadline = time.thread_time() + budget_s
    previous = sys.gettrace()

    def tracer(_frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and time.thread_time() > deadline:
            raise _OverBudget
        return None

    sys.settrace(tracer)
    try:
        check(model)
    except _OverBudget:
        return False
    finally:
        sys.settrace(previous)
    return True


class JobService:
    """Create, cancel and look up jobs."""

    def __init__(self, registry: Registry, executor: Executor, sessions: sessionmaker[Session],
                 wake: Callable[[], None], check_budget_s: float = 0.1) -> None:
        self.registry = registry
        self.executor = executor
        self.sessions = sessions
        self.wake = wake
        self.check_budget_s = check_budget_s

    def validate(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Return the params with defaults filled in, or raise UnknownMethod / InvalidParams."""
        return self._validated(method, params)[0]

    def _validated(self, method: str, params: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """(params with defaults, input summary); runs the method's `check` too, within its CPU budget."""
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
                bounded_check(spec.check, model, self.check_budget_s)
        except MethodInputError as exc:
            raise InvalidParams(str(exc) or "the input could not be processed") from None
        return model.model_dump(mode="json"), _summary(spec, model)

    def submit(self, method: str, params: dict[str, Any], owner: str = "",
               admit: Callable[[Session], None] | None = None, example: str | None = None) -> str:
        """Validate and store the job (queued), then wake this server's dispatcher, which hands it to an
        executor with a free worker (this server's, or another's on the same database).

        `admit(session)` (quotas, queue cap) runs twice: before any parse (a refused caller costs one
        read, not a parse of its body), and again inside the one transaction that stores the job, as
        its only writer (`begin_exclusive`), so parallel submits cannot pass a limit together.

        `example`: the label of the method's example these params are (InvalidParams when the method has
        no example of that label, or when the params differ from it: the label says "unchanged")."""
        if admit is not None:
            with self.sessions() as session:
                admit(session)
        clean, summary = self._validated(method, params)
        if example is not None:
            self._check_example(method, example, clean)
        with self.sessions.begin() as session:
            begin_exclusive(session)
            if admit is not None:
                admit(session)
            job_id = JobRepository(session).create(method, clean, owner, summary=summary, example=example).id
        self.wake()
        return job_id

    def _check_example(self, method: str, example: str, clean: dict[str, Any]) -> None:
        """InvalidParams unless `example` is one of the method's example labels and `clean` are its params."""
        registered = self.registry.get(method)
        named = dict(registered.spec.examples()) if registered is not None and registered.spec.examples else {}
        if example not in named:
            known = ", ".join(repr(label) for label in named) or "none"
            raise InvalidParams(f"example: {example[:80]!r} is not an example of {method} (its examples: {known})")
        expected = self._validated(method, dict(named[example]))[0]
        differ = sorted(key for key in expected.keys() | clean.keys() if expected.get(key) != clean.get(key))
        if differ:
            raise InvalidParams(f"example: the params differ from example {example!r} in {', '.join(differ)}; "
                                "send no example for changed inputs")

    def cancel(self, job_id: str) -> str | None:
        """Flag the job; the executor holding it stops it (here at once, on another server at its next
        look at the flag)."""
        with self.sessions.begin() as session:
            status = JobRepository(session).request_cancel(job_id)
        if status is not None:
            self.executor.cancel(job_id)
        return status
