"""The progress callback of a run (`Progress`, `Cancelled`) and helpers that map a stage's own [0, 1] into its
slice of the run, never going backwards. The bottom of the method contract: it imports nothing of ours."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Cancelled", "MonotoneProgress", "Progress", "no_progress", "sub_progress"]


class Cancelled(Exception):
    """Raised by a progress callback when the user cancelled the job; `run` lets it propagate."""


class Progress(Protocol):
    """Progress callback: `progress(fraction in [0, 1], message)`. May raise `Cancelled`."""

    def __call__(self, fraction: float, message: str = "") -> None: ...


def no_progress(fraction: float, message: str = "") -> None:
    """A progress callback that ignores its arguments (library and test use)."""


class MonotoneProgress:
    """Wraps a progress callback so the fraction it reports never decreases and stays in [0, 1].

    Stages of a run report their own fraction; `stage(start, end)` maps it into [start, end].
    Because the high-water mark is shared, a stage that reports a low value after a later stage
    reported a high one cannot move the bar back (the inequality page once went 0.35 -> 0.2).
    """

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self.last = 0.0

    def __call__(self, fraction: float, message: str = "") -> None:
        value = min(max(float(fraction), self.last, 0.0), 1.0)
        self.last = value
        self._progress(value, message)

    def stage(self, start: float, end: float) -> Progress:
        """A progress callback whose [0, 1] maps into [start, end] of this one."""
        if not 0.0 <= start <= end <= 1.0:
            raise ValueError(f"a progress stage needs 0 <= start <= end <= 1, got [{start}, {end}]")

        def report(fraction: float, message: str = "") -> None:
            clipped = min(max(float(fraction), 0.0), 1.0)
            self(start + (end - start) * clipped, message)

        return report


def sub_progress(progress: Progress, start: float, end: float) -> Progress:
    """`progress` restricted to [start, end]: the stage's fraction f is reported as start + f (end - start).

    Monotone by construction when `progress` is a `MonotoneProgress` (wrap the run's callback once
    with `MonotoneProgress(progress)` and hand out stages of it); a plain callback is wrapped here.
    """
    monotone = progress if isinstance(progress, MonotoneProgress) else MonotoneProgress(progress)
    return monotone.stage(start, end)
