"""A wall-clock budget for the certificate search, checked inside its hot loops."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["OutOfTime", "check_time", "time_budget"]

_deadline: ContextVar[float | None] = ContextVar("inequality_deadline", default=None)


class OutOfTime(Exception):
    """The search ran past its budget; the prover reports `not_proved` instead of running on."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Within this block, `check_time()` raises OutOfTime once `seconds` have passed."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def check_time() -> None:
    """Raise OutOfTime when the current budget is spent (no budget: never)."""
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime()
