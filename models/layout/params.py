"""Parameters of the layout method (bounded so any job stays small on a shared server)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from models.layout.examples import load_scene
from models.layout.scene import Scene

__all__ = ["ABLATIONS", "Ablation", "MILP_MAX_OBJECTS", "MilpMode", "Params", "RandomSpec"]

Ablation = Literal["no_decomposition", "no_imagination", "no_reparameterisation"]
MilpMode = Literal["auto", "first", "off"]
MILP_MAX_OBJECTS = 25  # the MILP grows with the square of the objects; past this it is not tried


class RandomSpec(BaseModel):
    """A generated feasible scene (random_scene) instead of `scene`."""

    model_config = ConfigDict(extra="forbid")
    seed: int = Field(0, ge=0, le=10**6, description="Seed of the scene generator")
    objects: int = Field(15, ge=2, le=40, description="Number of objects")
    relations_per_object: float = Field(3.0, ge=0.0, le=6.0, description="Relations per object, kept only where the witness layout satisfies them")
ABLATIONS: tuple[str, ...] = Ablation.__args__  # type: ignore[attr-defined]


class Params(BaseModel):
    """Scene (JSON), optional sentences and LLM description, ablations and optimiser budget."""

    model_config = ConfigDict(extra="forbid")
    scene: Scene = Field(
        default_factory=lambda: load_scene("studio"),
        description="Room {width, depth, height}, objects [{name, width, depth, height}] and relations [{type, a, b} or {type, a, wall}]",
    )
    statements: list[Annotated[str, Field(max_length=300)]] | None = Field(
        None, max_length=200,
        description="Plain sentences, one relation each ('the lamp is on top of nightstand a'); added to scene.relations",
    )
    description: str = Field("", max_length=2000, description="Free description of the room, for the LLM proposer")
    use_llm: bool = Field(False, description="Ask the LLM at LLM_BASE_URL (server setting) to propose relations from the description")
    revise: bool = Field(False, description="On a contradiction, drop the fewest relations that restore consistency and lay out the rest")
    ablations: list[Ablation] = Field(
        default_factory=list, max_length=3,
        description="Variants to run on the same scene for comparison: no_decomposition, no_imagination, no_reparameterisation",
    )
    stage1_iterations: int = Field(80, ge=0, le=1000, description="Optimiser steps on the relations alone")
    stage2_iterations: int = Field(200, ge=10, le=2000, description="Optimiser steps with collision, wall and support penalties")
    repair_rounds: int = Field(3, ge=0, le=10, description="Rounds of re-imagining the clusters that still violate something")
    seed: int = Field(0, ge=0, le=2**31 - 1, description="Seed of the first optimiser start (start s uses seed + s)")
    starts: int = Field(3, ge=1, le=12, description="Optimiser starts tried until one gives a clean layout")
    milp: MilpMode = Field(
        "auto", description=(f"Complete MILP solver (HiGHS), scenes of at most {MILP_MAX_OBJECTS} objects: 'auto' when the "
                             "optimiser fails, 'first' before it (a proof either way), 'off' never"))
    milp_seconds: float = Field(20.0, ge=1.0, le=120.0, description="Time limit of the MILP solver, s")
    random: RandomSpec | None = Field(None, description="Generate a feasible scene instead of using `scene`")
