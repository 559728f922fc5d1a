"""Parameters of a Skill-MoE run: the test set size, k, the skill inference, seeds."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["Params"]

INFERENCE: dict[str, Any] = {
    "learned": "Learned tagger: one sigmoid per skill on the cue words and digits, fitted on the validation set",
    "form": "Form-only tagger: the same model fed only the surface form (at chance here: a stress test)",
}


class Params(BaseModel):
    """Inputs of one run; the defaults take about 10 s per seed on one core."""

    model_config = ConfigDict(extra="forbid")

    queries: int = Field(default=400, ge=20, le=3000, title="Test queries",
                         description="Test queries (each from one of 4 tasks; a quarter need two skills).")
    k: int = Field(default=3, ge=1, le=8, title="Experts per query (k)",
                   description="Experts per query (of the pool of 16) for the routed strategies.")
    skill_inference: Literal["learned", "form"] = Field(
        default="learned", title="Skill inference", json_schema_extra={"choices": INFERENCE},
        description="How Skill-MoE names each query's skills. learned: a tagger fitted on the validation "
        "queries' skill labels (it errs on cue words it has not seen); form: the same tagger fed only the surface "
        "form, which every skill shares, so it is at chance.")
    validation_per_skill: int = Field(default=60, ge=10, le=500, title="Validation queries per skill",
                                      description="Validation queries per skill (8 skills): the experts' skill "
                                                  "profiles, the tagger's and the router's training set. 60 per "
                                                  "skill is 480 in all, inside the paper's 249-504 validation "
                                                  "questions per benchmark.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Random seed (experts' training, validation and test sets, recruitment).")
    seeds: int = seeds_field(default=2, maximum=6)
