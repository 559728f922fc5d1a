"""Parameters of an LMNet run: the label counts, the training steps, the mark probability, seeds."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults train four variants at two label counts in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    labels: list[Annotated[int, Field(ge=10, le=1000)]] = Field(
        default_factory=lambda: [50, 200], min_length=1, max_length=6, title="Label counts",
        description="Labelled training words of the composed task, one training per count (10 to 1000 each; a "
                    "fifth of them, at least 5, is held out for early stopping). Every count takes the first n "
                    "words of one pool per seed, so a count's words do not depend on the other counts.")
    steps: int = Field(default=300, ge=10, le=2000, title="Training steps",
                       description="Optimiser steps (batches of 32) of every variant at every label count; the "
                                   "best held-out checkpoint, step 0 included, is kept.")
    mark_probability: float = Field(
        default=0.2, ge=0.0, le=0.5, title="Mark probability",
        description="Probability that a letter is marked. A's text drops the marks, so a text interface can only "
                    "be right on unmarked words; at 0 the text loses nothing.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Random seed (labelled and test words, initialisations, batch order).")
    seeds: int = seeds_field(default=1, maximum=5)

    @field_validator("labels", mode="before")
    @classmethod
    def _one_count(cls, value: Any) -> Any:
        return [value] if isinstance(value, int) and not isinstance(value, bool) else value
