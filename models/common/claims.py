"""Claims as data: a method declares its paper's claims once, measures them per seed, and the verdict follows.

How a method uses it (see `tests/models/common/test_claims.py` and any method's `claims.py`):

1. Declare the claims once, at module level::

       CLAIMS = (
           Claim("params", "Selective upcycling adds at most half of full upcycling's parameters",
                 paper="qualitative", quantity="added parameters, selective / full", op="<=", target=0.5,
                 floor="at least one expert kept"),
           Claim("accuracy", "Average accuracy within 1 point of full upcycling",
                 paper="+0.4 points (Table 2)", quantity="accuracy, selective - full (points)",
                 op=">=", target=-1.0),
       )

   `paper` is the paper's own figure where its abstract gives one, else `QUALITATIVE`; never invented.
   `op` is one of `<=`, `>=`, `<`, `>` against `target`, or `within` (|value - target| <= tolerance).
   `tolerance` widens `<=`/`>=` in the lenient direction (it is the slack the claim allows). `floor`
   names the sanity condition that refuses a degenerate pass (measured per seed as `floor_ok`).
   `headline=False` marks a secondary claim: it is reported but does not decide the green banner.

2. Run `params.seeds` independent seeds (`seed_values`, `run_seeds`, in `models.common.seeds`) and measure each claim on each seed
   as a `Measurement(value, floor_ok)`; `value=None` means the run's settings do not test it.

3. `evaluate_claims(CLAIMS, {claim_id: [Measurement per seed]}, seeds)` gives the `ClaimResult`s the
   result carries as `claims`; optionally a `Standing` (every competitor's score on the headline metric).

The verdict is derived from these, nowhere else (`claims_verdict`, used by `MethodResult.verdict`):
green only when every headline claim is `held` on every seed run and no competitor in the standing beats
the paper's method; amber when some claim holds at least in part; red when none does.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from models.common.seeds import run_seeds, seed_values, seeds_field

__all__ = [
    "QUALITATIVE",
    "Claim",
    "ClaimResult",
    "Holds",
    "LABEL_LIMIT",
    "Measurement",
    "SeedOutcome",
    "Spread",
    "Standing",
    "Verdict",
    "claims_verdict",
    "evaluate_claims",
    "format_value",
    "run_seeds",
    "seed_values",
    "seeds_field",
]

QUALITATIVE = "qualitative"
LABEL_LIMIT = 64  # the store's verdict column: a label is built to fit it, never cut mid-word
Holds = Literal["held", "partial", "not_held", "not_tested"]
Op = Literal["<=", ">=", "<", ">", "within"]


@dataclass(frozen=True)
class Verdict:
    """The method's answer in one word, shown first on the page and as a history column.

    `tone` picks the banner colour: "success" (proved, ok, the claim holds), "error" (refuted,
    contradiction, infeasible), "warning" (not proved, unsolved, partial), "info" (a neutral report).
    """

    label: str
    tone: Literal["success", "info", "warning", "error"] = "info"
    detail: str = ""


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

    def __post_init__(self) -> None:
        if not self.statement or not self.paper or not self.quantity:
            raise ValueError(f"claim {self.id!r} needs a statement, the paper's figure (or 'qualitative') and a quantity")
        if self.tolerance < 0 or (self.op == "within" and self.tolerance == 0):
            raise ValueError(f"claim {self.id!r}: tolerance must be >= 0 (and > 0 for 'within')")

    def passes(self, value: float) -> bool:
        """Whether one measured value satisfies the comparison (NaN never does)."""
        if math.isnan(value):
            return False
        if self.op == "within":
            return abs(value - self.target) <= self.tolerance
        if self.op == "<=":
            return value <= self.target + self.tolerance
        if self.op == "<":
            return value < self.target + self.tolerance
        if self.op == ">=":
            return value >= self.target - self.tolerance
        return value > self.target - self.tolerance

    def criterion(self) -> str:
        """The comparison as a person reads it: "<= 0.5", "within 1 ± 0.15"."""
        if self.op == "within":
            return f"within {format_value(self.target)} ± {format_value(self.tolerance)}"
        slack = f" (tolerance {format_value(self.tolerance)})" if self.tolerance else ""
        return f"{self.op} {format_value(self.target)}{slack}"


@dataclass(frozen=True)
class Measurement:
    """A claim's quantity on one seed; `floor_ok=False` refuses the pass (a degenerate run)."""

    value: float | None
    floor_ok: bool = True
    note: str = ""


class SeedOutcome(BaseModel):
    """One seed's measurement of a claim."""

    seed: int
    value: float | None
    holds: bool | None = Field(description="None: the seed's run does not test the claim.")
    floor_ok: bool = True
    note: str = ""


class Spread(BaseModel):
    """Mean and sample standard deviation of a claim's quantity over the seeds that measured it."""

    mean: float | None
    sd: float | None
    n: int
    text: str = Field(description="'0.312 ± 0.041 (3 seeds)', or '—' when nothing was measured.")


class ClaimResult(BaseModel):
    """A claim with what we measured, seed by seed, and whether it holds."""

    id: str
    statement: str
    paper: str
    quantity: str
    criterion: str
    floor: str = ""
    headline: bool = True
    ours: Spread
    seeds: list[SeedOutcome]
    holds: Holds
    detail: str


class Standing(BaseModel):
    """Every competitor's score on the headline metric (mean over seeds); the paper's method is `method`."""

    metric: str
    lower_is_better: bool
    method: str
    scores: dict[str, float]
    labels: dict[str, str] = Field(default_factory=dict, description="display names of the competitors (key: name)")

    def beaten_by(self) -> list[str]:
        """Competitors whose score is strictly better than the paper's method (their display names)."""
        ours = self.scores[self.method]
        better = (lambda s: s < ours) if self.lower_is_better else (lambda s: s > ours)
        return [self.labels.get(name, name) for name, score in self.scores.items()
                if name != self.method and better(score)]


def format_value(value: float | None, digits: int = 3) -> str:
    """A number for people: `digits` significant digits, no exponent for ordinary sizes, '—' when missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e6:
        decimals = max(0, digits - 1 - math.floor(math.log10(magnitude)))
        text = f"{value:.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{value:.{digits - 1}e}"


def _spread(values: Sequence[float]) -> Spread:
    if not values:
        return Spread(mean=None, sd=None, n=0, text="—")
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    seeds = "seed" if len(values) == 1 else "seeds"
    spread = f" ± {format_value(sd)}" if len(values) > 1 else ""
    return Spread(mean=mean, sd=sd, n=len(values), text=f"{format_value(mean)}{spread} ({len(values)} {seeds})")


def _evaluate(claim: Claim, measured: Sequence[Measurement], seeds: Sequence[int]) -> ClaimResult:
    if len(measured) != len(seeds):
        raise ValueError(f"claim {claim.id!r}: {len(measured)} measurements for {len(seeds)} seeds")
    outcomes = [
        SeedOutcome(seed=seed, value=m.value, floor_ok=m.floor_ok, note=m.note,
                    holds=None if m.value is None else (claim.passes(m.value) and m.floor_ok))
        for seed, m in zip(seeds, measured, strict=True)
    ]
    tested = [o for o in outcomes if o.holds is not None]
    passed = sum(1 for o in tested if o.holds)
    holds: Holds
    if not tested:
        holds = "not_tested"
    elif passed == len(tested) == len(outcomes):
        holds = "held"
    elif passed:
        holds = "partial"
    else:
        holds = "not_held"
    ours = _spread([o.value for o in tested if o.value is not None])
    floors = sum(1 for o in tested if not o.floor_ok)
    detail = f"{claim.criterion()} on {passed} of {len(outcomes)} seeds" if tested else "not tested by these settings"
    if floors:
        detail += f"; refused on {floors} seed{'s' if floors > 1 else ''}: not {claim.floor}"
    return ClaimResult(id=claim.id, statement=claim.statement, paper=claim.paper, quantity=claim.quantity,
                       criterion=claim.criterion(), floor=claim.floor, headline=claim.headline, ours=ours,
                       seeds=outcomes, holds=holds, detail=detail)


def evaluate_claims(claims: Sequence[Claim], measured: Mapping[str, Sequence[Measurement]],
                    seeds: Sequence[int]) -> list[ClaimResult]:
    """Every declared claim judged on its per-seed measurements (a claim with none is `not_tested`)."""
    unknown = set(measured) - {c.id for c in claims}
    if unknown:
        raise ValueError(f"measurements for undeclared claims: {sorted(unknown)}")
    missing = [Measurement(None)] * len(seeds)
    return [_evaluate(c, measured.get(c.id, missing), seeds) for c in claims]


def claims_verdict(claims: Sequence[ClaimResult], standing: Standing | None = None,
                   answer: Verdict | None = None) -> Verdict:
    """The verdict by the one rule. With an `answer` (a core demo's "Proved"), its label and tone stand,
    except that a green answer turns amber while a headline claim does not hold."""
    headline = [c for c in claims if c.headline]
    beaten = standing.beaten_by() if standing is not None else []
    all_held = bool(headline) and all(c.holds == "held" for c in headline) and not beaten
    detail = "; ".join(f"{c.id} {c.holds.replace('_', ' ')}: {c.ours.text}" for c in claims)
    if beaten and standing is not None:  # first, so that a detail cut to the store's size keeps it
        detail = f"beaten on {standing.metric} by {', '.join(beaten)}; {detail}"
    if answer is not None:
        if answer.tone == "success" and not all_held and headline:
            return Verdict(answer.label, "warning", "; ".join(p for p in (answer.detail, detail) if p))
        return Verdict(answer.label, answer.tone, answer.detail or detail)
    if not claims or all(c.holds == "not_tested" for c in claims):
        return Verdict("Claims not tested by these settings", "info", detail)
    if all_held:
        n = max(len(c.seeds) for c in headline)
        if n == 1:  # one seed is evidence, not the paper's check over seeds: the label says which
            return Verdict(f"All {len(headline)} headline claims hold on this one seed; run 3+ to check",
                           "success", detail)
        return Verdict(f"Reproduced: all {len(headline)} headline claims hold on each of {n} seeds", "success", detail)
    if beaten and standing is not None and bool(headline) and all(c.holds == "held" for c in headline):
        head = f"All {len(headline)} headline claims hold, but "
        return Verdict(head + _beaten_phrase(beaten, standing.metric, LABEL_LIMIT - len(head)), "warning", detail)
    some = sum(1 for c in claims if c.holds in ("held", "partial"))
    if some:
        held = sum(1 for c in headline if c.holds == "held")
        head = f"Partly reproduced: {held} of {len(headline)} headline claims hold"
        if beaten and standing is not None:
            head += "; " + _beaten_phrase(beaten, standing.metric, LABEL_LIMIT - len(head) - 2)
        return Verdict(head, "warning", detail)
    return Verdict("Not reproduced: no claim holds here", "error", detail)


def _beaten_phrase(beaten: Sequence[str], metric: str, room: int) -> str:
    """Who beats the paper's method, as fully as `room` characters allow (the detail always names them)."""
    names = ", ".join(beaten)
    verb = "scores" if len(beaten) == 1 else "score"
    for phrase in (f"{names} {verb} better on {metric}", f"{names} {verb} better"):
        if len(phrase) <= room:
            return phrase
    for phrase in (("a baseline scores better", "a baseline wins") if len(beaten) == 1 else
                   (f"{len(beaten)} baselines score better", f"{len(beaten)} baselines win")):
        if len(phrase) <= room:
            return phrase
    return "beaten"
