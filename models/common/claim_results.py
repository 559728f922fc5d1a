"""What a judged claim reports: each seed's outcome, the spread over seeds, its test and its null (pydantic
models stored in every result), and the one way a claim's numbers are written for people."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from models.common.numbers import number, plural
from models.common.stats import LEVEL

__all__ = ["ClaimResult", "ClaimTest", "Holds", "NullResult", "SeedOutcome", "Spread", "format_value", "spread"]

Holds = Literal["held", "partial", "not_held", "not_tested"]


class SeedOutcome(BaseModel):
    """One seed's measurement of a claim."""

    seed: int
    value: float | None
    holds: bool | None = Field(description="None: the seed's run does not test the claim.")
    floor_ok: bool = True
    note: str = ""
    units: int = Field(0, description="How many units the seed's value averages (0: no per-unit values).")


class Spread(BaseModel):
    """Mean and sample standard deviation of a claim's quantity over the seeds that measured it."""

    mean: float | None
    sd: float | None
    n: int
    text: str = Field(description="'0.312 ± 0.041 (3 seeds)', or '—' when nothing was measured.")


class ClaimTest(BaseModel):
    """The statistical test behind a claim's verdict: the 95% interval of the quantity's mean."""

    kind: str = Field(description="'t over 3 seeds', 'bootstrap over 400 units', 'exact' (no sampling noise)")
    interval: list[float] | None = Field(None, description="[lo, hi] of the mean; None for an exact claim")
    level: float = LEVEL
    units: str = ""
    resamples: int = 0
    p_value: float | None = Field(None, description="exact sign test of per-unit wins against losses (binary claims)")


class NullResult(BaseModel):
    """The trivial reference's value of the claim's quantity (mean over seeds) and whether it passes too."""

    name: str
    value: float | None
    passes: bool


class ClaimResult(BaseModel):
    """A claim with what we measured, seed by seed, its test, its null, and whether it holds."""

    id: str
    statement: str
    paper: str
    quantity: str
    criterion: str
    floor: str = ""
    headline: bool = True
    why: str = ""
    units: str = ""
    ours: Spread
    seeds: list[SeedOutcome]
    test: ClaimTest | None = None
    null: NullResult | None = None
    holds: Holds
    detail: str


def format_value(value: float | None, digits: int = 3) -> str:
    """A number for people (`models.common.numbers.number`: the one set of rules shared with the kit)."""
    return number(value, digits)


def spread(values: Sequence[float]) -> Spread:
    """Mean ± sd over the seeds that measured a quantity, with its text."""
    if not values:
        return Spread(mean=None, sd=None, n=0, text="—")
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    spread = f" ± {format_value(sd)}" if len(values) > 1 else ""
    return Spread(mean=mean, sd=sd, n=len(values), text=f"{format_value(mean)}{spread} ({plural(len(values), 'seed')})")
