"""Parameters of a Skill-MoE run: the test set size, k, the skill inference, seeds."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["Params"]

INFERENCE: dict[str, Any] = {
    "symbolic": "Symbolic rules on the query's form (exact on this suite)",
    "tagger": "Imperfect tagger at a set accuracy (confuses skills of the same task)",
    "embedding": "Sentence embeddings (all-MiniLM-L6-v2, ~1 min to load)",
}


class Params(BaseModel):
    """Inputs of one run; the defaults take about 10 s per seed on one core."""

    model_config = ConfigDict(extra="forbid")

    queries: int = Field(default=400, ge=20, le=3000, title="Test queries",
                         description="Test queries in the skill-mixed set (each from one of 4 tasks, 8 skills).")
    k: int = Field(default=3, ge=1, le=8, title="Experts per query (k)",
                   description="Experts per query (of the pool of 16) for the routed strategies.")
    skill_inference: Literal["symbolic", "tagger", "embedding"] = Field(
        default="symbolic", title="Skill inference", json_schema_extra={"choices": INFERENCE},
        description="How Skill-MoE names each query's skill. symbolic: rules on the query's form (exact here, so "
        "Skill-MoE routes like the oracle); tagger: the true skill with probability 'tagger accuracy', otherwise "
        "another skill of the query's task; embedding: nearest skill centroid of all-MiniLM-L6-v2 sentence "
        "embeddings (shipped in a package; loading it takes about a minute here).")
    tagger_accuracy: float = Field(
        default=0.8, ge=0.3, le=1.0, title="Tagger accuracy",
        description="With the imperfect tagger: the share of queries whose skill it names correctly (the "
        "accuracy curve on the page sweeps it whatever the choice).")
    validation_per_skill: int = Field(default=60, ge=10, le=500, title="Validation queries per skill",
                                      description="Validation queries per skill: the experts' skill profiles, the "
                                                  "aggregator's choice and the trained router's training set. 60 "
                                                  "per skill is 480 in all, inside the paper's 249-504 validation "
                                                  "questions per benchmark.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Random seed (validation and test sets, tagger errors, router initialisation).")
    seeds: int = seeds_field(default=2, maximum=6)
