"""Parameters of the layout method (bounded so any job stays small on a shared server)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from models.layout.examples import load_scene
from models.layout.scene import Scene

__all__ = ["ABLATIONS", "Ablation", "Params"]

Ablation = Literal["no_decomposition", "no_imagination", "no_reparameterisation"]
ABLATIONS: tuple[str, ...] = Ablation.__args__  # type: ignore[attr-defined]


class Params(BaseModel):
    """Scene (JSON), optional sentences and LLM description, ablations and optimiser budget."""

    model_config = ConfigDict(extra="forbid")
    scene: Scene = Field(
        default_factory=lambda: load_scene("bedroom"),
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
    seed: int = Field(0, ge=0, le=2**31 - 1, description="Random seed (random starts of the no-imagination ablation)")
