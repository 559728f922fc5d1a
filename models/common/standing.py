"""Every competitor's score on the headline metric, per seed and per unit, and who beats the paper's method.

A competitor beats the method only when the paired 95% interval of its advantage (its score minus the
method's, signed so that > 0 is better; per unit within each seed where both give units, else per seed)
lies above 0 and the mean advantage exceeds the numerical `floor` (errors of 2e-14 against 6e-9 are both
exact: a tie). The interval is `models.common.stats.mean_interval`: one seed with no units gives none, so
no win can be shown from it.
"""

from __future__ import annotations

import statistics
from typing import Any

from pydantic import BaseModel, Field, model_validator

from models.common.stats import Interval, mean_interval

__all__ = ["Standing"]


class Standing(BaseModel):
    """Every competitor's score on the headline metric, per seed; the paper's method is `method`."""

    metric: str
    lower_is_better: bool
    method: str
    seed_scores: dict[str, list[float]] = Field(default_factory=dict, description="score of each competitor on each seed")
    unit_scores: dict[str, list[list[float]]] = Field(
        default_factory=dict, description="optional: each competitor's per-unit scores on each seed (paired units)")
    scores: dict[str, float] = Field(default_factory=dict, description="mean over seeds (derived)")
    labels: dict[str, str] = Field(default_factory=dict, description="display names of the competitors (key: name)")
    floor: float = Field(0.0, ge=0, description="numerical floor: a smaller mean difference is a tie")

    @model_validator(mode="before")
    @classmethod
    def _from_scores(cls, data: Any) -> Any:
        """A standing built from mean scores only is one 'seed' without units (it cannot show a win)."""
        if isinstance(data, dict) and not data.get("seed_scores") and data.get("scores"):
            data = {**data, "seed_scores": {name: [score] for name, score in data["scores"].items()}}
        return data

    @model_validator(mode="after")
    def _means(self) -> Standing:
        if self.method not in self.seed_scores:
            raise ValueError(f"the method {self.method!r} has no scores")
        if len({len(v) for v in self.seed_scores.values()}) != 1:
            raise ValueError("every competitor needs a score on every seed")
        self.scores = {name: statistics.fmean(values) for name, values in self.seed_scores.items()}
        return self

    def advantage(self, name: str) -> Interval | None:
        """The paired interval of how much better `name` scores than the method (> 0: better)."""
        sign = -1.0 if self.lower_is_better else 1.0
        ours, theirs = self.unit_scores.get(self.method), self.unit_scores.get(name)
        if ours is not None and theirs is not None:
            per_seed = [[sign * (t - o) for t, o in zip(ts, os, strict=True)] for ts, os in zip(theirs, ours, strict=True)]
        else:
            per_seed = [[sign * (t - o)] for t, o in zip(self.seed_scores[name], self.seed_scores[self.method], strict=True)]
        return mean_interval(per_seed)

    def beaten_by(self) -> list[str]:
        """Competitors better than the method by a paired interval excluding 0 and a mean above the floor."""
        out = []
        for name in self.seed_scores:
            if name == self.method:
                continue
            gap = self.advantage(name)
            if gap is not None and gap.lo > 0 and gap.mean > self.floor:
                out.append(self.labels.get(name, name))
        return out
