"""What the server and a job process say to each other over their pipe: one typed message per kind.

Server -> job: `RunJob` (once), `Cancel` (any time after). Job -> server: `Ready` (once, when its
imports are done), `Progress` (throttled), `Finished` (once, the outcome). Anything else on the pipe
is a protocol error. Frozen dataclasses pickle by value across the pipe, and a reader matches on the
class, so a misspelt tag cannot go unnoticed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.jobs.limits import JobLimits
from backend.jobs.outcome import Outcome

__all__ = ["Cancel", "Finished", "Progress", "Ready", "RunJob", "ToJob", "ToServer"]


@dataclass(frozen=True)
class Ready:
    """The job process has imported the method packages and waits for its job."""


@dataclass(frozen=True)
class RunJob:
    module: str
    params: dict[str, Any]
    limits: JobLimits


@dataclass(frozen=True)
class Cancel:
    """Stop at the method's next progress call."""


@dataclass(frozen=True)
class Progress:
    fraction: float
    message: str


@dataclass(frozen=True)
class Finished:
    outcome: Outcome


ToJob = RunJob | Cancel
ToServer = Ready | Progress | Finished
