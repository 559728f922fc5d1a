"""Typed errors of the Python client: each carries the server's own message (`detail`)."""

from __future__ import annotations

import re

__all__ = ["InvalidRequest", "NotFound", "PlaygroundError", "RateLimited", "ServerUnavailable", "Unauthorized",
           "error_for"]

# The server names the offending field first: "steps: Input should be less than or equal to 1000".
_FIELD = re.compile(r"^([A-Za-z0-9_.\[\] ›-]+?):\s")


class PlaygroundError(RuntimeError):
    """The server answered an error; `status_code` and `detail` are its status and its sentence."""

    def __init__(self, status_code: int, detail: str) -> None:
        super().__init__(f"{status_code}: {detail}")
        self.status_code = status_code
        self.detail = detail


class InvalidRequest(PlaygroundError):
    """422: the method or its parameters were refused; `field` names the first offending field (or None)."""

    def __init__(self, status_code: int, detail: str) -> None:
        super().__init__(status_code, detail)
        match = _FIELD.match(detail)
        self.field: str | None = match.group(1).strip() if match else None


class RateLimited(PlaygroundError):
    """429: over a quota or a rate limit; wait `retry_after` seconds (the server's Retry-After) and retry."""

    def __init__(self, status_code: int, detail: str, retry_after: float | None) -> None:
        super().__init__(status_code, detail)
        self.retry_after = retry_after


class NotFound(PlaygroundError):
    """404: no such job, sweep, method or artifact (a run of another owner answers the same)."""


class Unauthorized(PlaygroundError):
    """401: a shared instance needs a token (`Client.session()` opens an anonymous one)."""


class ServerUnavailable(PlaygroundError):
    """The server could not be reached (status 0), or answered 503 (busy; see `retry_after`)."""

    def __init__(self, status_code: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(status_code, detail)
        self.retry_after = retry_after


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def error_for(status_code: int, detail: str, retry_after: str | None = None) -> PlaygroundError:
    """The typed error of one error answer."""
    if status_code == 422:
        return InvalidRequest(status_code, detail)
    if status_code == 429:
        return RateLimited(status_code, detail, _seconds(retry_after))
    if status_code == 404:
        return NotFound(status_code, detail)
    if status_code == 401:
        return Unauthorized(status_code, detail)
    if status_code == 503:
        return ServerUnavailable(status_code, detail, _seconds(retry_after))
    return PlaygroundError(status_code, detail)
