"""Parameters of a Skill-MoE run: the test set size, k, the skill inference and the seed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults take a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    queries: int = Field(default=400, ge=20, le=3000,
                         description="Test queries in the skill-mixed set (each from one of 4 tasks, 8 skills).")
    k: int = Field(default=3, ge=1, le=8, description="Experts per query (of the pool of 16) for the routed strategies.")
    skill_inference: Literal["symbolic", "embedding"] = Field(
        default="symbolic",
        description="symbolic: rules on the query's form; embedding: nearest skill centroid of all-MiniLM-L6-v2 "
        "sentence embeddings (shipped in a package; loading it takes about a minute here).",
    )
    validation_per_skill: int = Field(default=60, ge=10, le=500,
                                      description="Validation queries per skill for the experts' skill profiles.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed (validation and test sets, random k).")
