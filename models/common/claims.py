"""Claims as data: a method declares its paper's claims once, measures them per seed, and one rule judges them.

How a method uses it (see `tests/models/common/test_claims.py` and any method's `claims.py`):

1. Declare the claims once, at module level::

       CLAIMS = (
           Claim("gain", "Instance-level routing beats the best baseline", paper="+8.15 points (abstract)",
                 quantity="accuracy, ours - best baseline (points)", op=">", target=2.0,
                 why="a quarter of the paper's +8.15 points, above the 1-query resolution", null="majority router",
                 units="queries", binary=True),
       )

   `paper` is the paper's own figure where it gives one, else `QUALITATIVE`; never invented. `op` is one of
   `<=`, `>=`, `<`, `>` against `target`, or `within` (|value - target| <= tolerance). `why` says in one
   sentence why `target` is the smallest effect we call a reproduction at our scale. `null` names the trivial
   reference measured in the same run. `exact` marks a deterministic quantity (judged on its value, no
   interval); `resolution` is the numerical floor under which a difference is a tie; `binary` says the
   per-unit values are win/tie/loss, so the exact sign test decides too. `floor` names the sanity condition
   that refuses a degenerate pass. `headline=False` marks a check (true by construction of our code, or a
   stress test of ours): it is reported but does not count.

2. Run `params.seeds` seeds and measure each claim on each as a `Measurement(value, floor_ok, units=...,
   null=...)`; `value=None` means the run's settings do not test it.

3. `evaluate_claims(CLAIMS, {claim_id: [Measurement per seed]}, seeds)` gives the `ClaimResult`s.

The rule (`_judge`): a 95% interval of the quantity's mean (`models.common.stats.mean_interval`); `held`
only when the whole interval lies on the claim's side, every seed met the floor and the null does not pass;
`partial` when the mean is on the claim's side but the interval reaches the target ("tie: ..."), or with one
seed and no units (no interval can be formed); `not_held` otherwise ("vacuous: ..." when the null passes).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from models.common.claim_results import (
    ClaimResult,
    ClaimTest,
    Holds,
    NullResult,
    SeedOutcome,
    Spread,
    format_value,
    spread,
)
from models.common.standing import Standing  # re-exported: methods import it from here
from models.common.stats import LEVEL, Interval, mean_interval, sign_test

__all__ = [
    "QUALITATIVE",
    "Claim",
    "ClaimResult",
    "ClaimTest",
    "Holds",
    "Measurement",
    "NullResult",
    "SeedOutcome",
    "Spread",
    "Standing",
    "evaluate_claims",
    "format_value",
]

QUALITATIVE = "qualitative"
Op = Literal["<=", ">=", "<", ">", "within"]


@dataclass(frozen=True)
class Claim:
    """One claim of the paper, as the method tests it."""

    id: str
    statement: str
    paper: str
    quantity: str
    op: Op
    target: float
    tolerance: float = 0.0
    floor: str = ""
    headline: bool = True
    why: str = ""
    null: str = ""
    units: str = ""
    exact: bool = False
    resolution: float = 0.0
    binary: bool = False

    def __post_init__(self) -> None:
        if not self.statement or not self.paper or not self.quantity:
            raise ValueError(f"claim {self.id!r} needs a statement, the paper's figure (or 'qualitative') and a quantity")
        if self.tolerance < 0 or (self.op == "within" and self.tolerance == 0):
            raise ValueError(f"claim {self.id!r}: tolerance must be >= 0 (and > 0 for 'within')")
        if self.resolution < 0:
            raise ValueError(f"claim {self.id!r}: resolution must be >= 0")
        if self.binary and self.op not in (">", ">=", "<", "<="):
            raise ValueError(f"claim {self.id!r}: a binary claim compares against a target, not a band")

    def passes(self, value: float) -> bool:
        """Whether one value satisfies the comparison (NaN never does; a tie within `resolution` never does
        unless the bound is inclusive and the tie is exact)."""
        if math.isnan(value):
            return False
        if self.op == "within":
            return abs(value - self.target) <= self.tolerance
        if self.op in ("<", ">") and abs(value - self.target) <= self.resolution:
            return False
        if self.op == "<=":
            return value <= self.target + self.tolerance
        if self.op == "<":
            return value < self.target + self.tolerance
        if self.op == ">=":
            return value >= self.target - self.tolerance
        return value > self.target - self.tolerance

    def interval_passes(self, lo: float, hi: float) -> bool:
        """Whether every value of [lo, hi] satisfies the comparison (the interval lies on the claim's side)."""
        if self.op == "within":
            return self.passes(lo) and self.passes(hi)
        return self.passes(lo) if self.op in (">", ">=") else self.passes(hi)

    def criterion(self) -> str:
        """The comparison as a person reads it: "<= 0.5", "within 1 ± 0.15"."""
        if self.op == "within":
            return f"within {format_value(self.target)} ± {format_value(self.tolerance)}"
        slack = f" (tolerance {format_value(self.tolerance)})" if self.tolerance else ""
        return f"{self.op} {format_value(self.target)}{slack}"


@dataclass(frozen=True)
class Measurement:
    """A claim's quantity on one seed; `floor_ok=False` refuses the pass (a degenerate run).

    `units`: the seed's per-unit values of the quantity (for a comparison, the per-unit paired differences);
    their mean is `value`. `null`: the trivial reference's value of the same quantity on this seed."""

    value: float | None
    floor_ok: bool = True
    note: str = ""
    units: Sequence[float] | None = None
    null: float | None = None

    def __post_init__(self) -> None:
        if self.units is not None and self.value is not None:
            if len(self.units) == 0:
                raise ValueError("units must not be empty")
            mean = math.fsum(self.units) / len(self.units)
            if not math.isclose(mean, self.value, rel_tol=1e-6, abs_tol=1e-9):
                raise ValueError(f"the units' mean {mean!r} is not the measured value {self.value!r}")


def _sign_p(measured: Sequence[Measurement]) -> float:
    wins = losses = 0
    for m in measured:
        for u in m.units or ():
            wins, losses = wins + (u > 0), losses + (u < 0)
    return sign_test(wins, losses)


def _test(claim: Claim, measured: Sequence[Measurement]) -> tuple[ClaimTest, Interval | None]:
    if claim.exact:
        return ClaimTest(kind="exact", units=claim.units), None
    per_seed = [list(m.units) if m.units is not None else [m.value] for m in measured if m.value is not None]
    interval = mean_interval(per_seed)
    p_value = _sign_p(measured) if claim.binary else None  # two-sided: the interval says which side
    test = ClaimTest(kind=interval.kind if interval else "none: one seed and no units",
                     interval=[interval.lo, interval.hi] if interval else None, units=claim.units,
                     resamples=interval.resamples if interval and len(per_seed) == 1 else 0, p_value=p_value)
    return test, interval


def _null(claim: Claim, measured: Sequence[Measurement]) -> NullResult | None:
    values = [m.null for m in measured if m.null is not None and m.value is not None]
    if not claim.null or not values:
        return None
    mean = statistics.fmean(values)
    return NullResult(name=claim.null, value=mean, passes=claim.passes(mean))


def _judge(claim: Claim, outcomes: Sequence[SeedOutcome], interval: Interval | None, test: ClaimTest,
           null: NullResult | None) -> tuple[Holds, str]:
    """`holds` and the detail's opening by the one rule (see the module docstring)."""
    tested = [o for o in outcomes if o.holds is not None]
    if not tested:
        return "not_tested", "not tested by these settings"
    values = [o.value for o in tested if o.value is not None]
    mean = statistics.fmean(values)
    floors = sum(1 for o in tested if not o.floor_ok)
    every_seed = len(tested) == len(outcomes)
    if claim.exact:
        passed = sum(1 for o in tested if o.holds)
        verdict: Holds = "held" if passed == len(outcomes) else ("partial" if passed else "not_held")
        text = f"exact: {claim.criterion()} on {passed} of {len(outcomes)} seeds"
    elif interval is None:
        verdict = "partial" if claim.passes(mean) else "not_held"
        text = f"one seed and no units, no interval: {format_value(mean)} {claim.criterion()}" + (
            "" if claim.passes(mean) else " fails")
    else:
        span = f"[{format_value(interval.lo)}, {format_value(interval.hi)}]"
        significant = test.p_value is None or test.p_value < 1 - LEVEL
        p_text = f", sign test p = {format_value(test.p_value)}" if test.p_value is not None else ""
        if claim.interval_passes(interval.lo, interval.hi) and significant:
            verdict, text = "held", f"95% interval {span} {claim.criterion()}{p_text}"
        elif claim.passes(mean):
            verdict, text = "partial", f"tie: the 95% interval {span} reaches {claim.criterion()}{p_text}"
        else:
            verdict = "not_held"
            text = (f"tie: the mean {format_value(mean)} fails {claim.criterion()}; 95% interval {span}{p_text}"
                    if claim.interval_passes(interval.lo, interval.lo) or claim.interval_passes(interval.hi, interval.hi)
                    else f"95% interval {span} fails {claim.criterion()}{p_text}")
    if floors and floors == len(tested):  # a degenerate run on every seed: nothing to credit
        verdict = "not_held"
    elif verdict == "held" and (floors or not every_seed):
        verdict = "partial"
    if floors:
        text += f"; sanity floor not met on {floors} seed{'s' if floors > 1 else ''}: not {claim.floor}"
    if not every_seed:
        text += f"; measured on {len(tested)} of {len(outcomes)} seeds"
    if null is not None and null.passes and verdict != "not_held":
        verdict, text = "not_held", f"vacuous: the {null.name} passes too ({format_value(null.value)}); {text}"
    return verdict, text


def _evaluate(claim: Claim, measured: Sequence[Measurement], seeds: Sequence[int]) -> ClaimResult:
    if len(measured) != len(seeds):
        raise ValueError(f"claim {claim.id!r}: {len(measured)} measurements for {len(seeds)} seeds")
    outcomes = [
        SeedOutcome(seed=seed, value=m.value, floor_ok=m.floor_ok, note=m.note, units=len(m.units or ()),
                    holds=None if m.value is None else (claim.passes(m.value) and m.floor_ok))
        for seed, m in zip(seeds, measured, strict=True)
    ]
    tested = [m for m in measured if m.value is not None]
    test, interval = _test(claim, tested) if tested else (None, None)
    null = _null(claim, measured)
    holds, detail = _judge(claim, outcomes, interval, test or ClaimTest(kind="none"), null)
    ours = spread([o.value for o in outcomes if o.value is not None])
    return ClaimResult(id=claim.id, statement=claim.statement, paper=claim.paper, quantity=claim.quantity,
                       criterion=claim.criterion(), floor=claim.floor, headline=claim.headline, why=claim.why,
                       units=claim.units, ours=ours, seeds=outcomes, test=test, null=null, holds=holds, detail=detail)


def evaluate_claims(claims: Sequence[Claim], measured: Mapping[str, Sequence[Measurement]],
                    seeds: Sequence[int]) -> list[ClaimResult]:
    """Every declared claim judged on its per-seed measurements (a claim with none is `not_tested`)."""
    unknown = set(measured) - {c.id for c in claims}
    if unknown:
        raise ValueError(f"measurements for undeclared claims: {sorted(unknown)}")
    missing = [Measurement(None)] * len(seeds)
    return [_evaluate(c, measured.get(c.id, missing), seeds) for c in claims]
