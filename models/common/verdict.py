"""The verdict: structured data derived from the judged claims and the standing (`models.common.standing`)
by one rule. `claims_verdict` counts the headline claims and names who beats the method; it writes no sentence: the page
kit words the verdict from these fields. A core demo's answer ("Proved") is an `Answer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from models.common.claims import ClaimResult
from models.common.standing import Standing

__all__ = ["Answer", "Tone", "Verdict", "VerdictKind", "claims_verdict"]

Tone = Literal["success", "info", "warning", "error"]
VerdictKind = Literal["reproduced", "partly", "beaten", "not_reproduced", "not_tested", "answer"]


@dataclass(frozen=True)
class Answer:
    """A core demo's answer to the user's question ("Proved", "Refuted", "OK") in its banner tone."""

    label: str
    tone: Tone = "info"
    detail: str = ""


@dataclass(frozen=True)
class Verdict:
    """The method's verdict as data: what kind, how many headline claims held of those tested and declared,
    over how many seeds, and who beats the method on `metric`. `label` is an answer's word (kind "answer")."""

    kind: VerdictKind
    tone: Tone
    held: int = 0
    tested: int = 0
    headline: int = 0
    seeds: int = 0
    beaten_by: tuple[str, ...] = field(default_factory=tuple)
    metric: str = ""
    label: str = ""
    detail: str = ""


def _detail(claims: Sequence[ClaimResult]) -> str:
    return "; ".join(f"{c.id} {c.holds.replace('_', ' ')}: {c.ours.text}" for c in claims)


def claims_verdict(claims: Sequence[ClaimResult], standing: Standing | None = None,
                   answer: Answer | None = None) -> Verdict:
    """The verdict by the one rule: `reproduced` only when every headline claim is held and no competitor
    beats the method; `beaten` when they all hold but one does; `partly` when some headline claim holds at
    least in part; `not_reproduced` when none does; `not_tested` when the settings test none. With an
    `answer` (a core demo's "Proved") the kind is `answer`, and a green answer turns amber while a
    headline claim does not hold."""
    headline = [c for c in claims if c.headline]
    beaten = tuple(standing.beaten_by()) if standing is not None else ()
    held = sum(1 for c in headline if c.holds == "held")
    base = Verdict("not_tested", "info", held=held, tested=sum(1 for c in headline if c.holds != "not_tested"),
                   headline=len(headline), seeds=max((len(c.seeds) for c in claims), default=0), beaten_by=beaten,
                   metric=standing.metric if standing is not None else "", detail=_detail(claims))
    all_held = bool(headline) and held == len(headline)
    if answer is not None:
        green_blocked = answer.tone == "success" and bool(headline) and not (all_held and not beaten)
        return replace(base, kind="answer", tone="warning" if green_blocked else answer.tone, label=answer.label,
                       detail=answer.detail or base.detail)
    if not claims or all(c.holds == "not_tested" for c in claims):
        return base
    if all_held:
        return replace(base, kind="beaten", tone="warning") if beaten else replace(base, kind="reproduced", tone="success")
    if any(c.holds in ("held", "partial") for c in headline):
        return replace(base, kind="partly", tone="warning")
    return replace(base, kind="not_reproduced", tone="error")
