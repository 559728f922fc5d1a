"""Parameters of the layout method (bounded so any job stays small on a shared server)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from models.common.seeds import seeds_field
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
_ABLATION_LABELS: dict[str, JsonValue] = {"no_decomposition": "no decomposition", "no_imagination": "no imagination (random start)",
                    "no_reparameterisation": "no reparameterisation"}
_MILP_LABELS: dict[str, JsonValue] = {"auto": "when the optimiser fails (small scenes)", "first": "first, for a proof either way",
                "off": "never"}


class Params(BaseModel):
    """Scene (JSON), optional sentences and LLM description, ablations and optimiser budget."""

    model_config = ConfigDict(extra="forbid")
    scene: Scene = Field(
        default_factory=lambda: load_scene("studio"),
        description="Room {width, depth, height}, objects [{name, width, depth, height}] and relations [{type, a, b} or {type, a, wall}]",
    )
    statements: list[Annotated[str, Field(max_length=300)]] | None = Field(
        None, max_length=200, title="More relations as sentences (one a line)",
        description="Plain sentences, one relation each ('the lamp is on top of nightstand a'); added to scene.relations",
    )
    description: str = Field("", max_length=2000, title="Room description (for the LLM)",
                             description="Free description of the room, for the LLM proposer")
    use_llm: bool = Field(False, title="Ask the LLM for relations from a description",
                          description="Ask the LLM at LLM_BASE_URL (server setting) to propose relations from the description")
    revise: bool = Field(False, title="Revise contradictions (drop the fewest relations)",
                         description="On a contradiction, drop the fewest relations that restore consistency and lay out the rest")
    ablations: list[Ablation] = Field(
        default_factory=list, max_length=3, title="Compare with ablations",
        json_schema_extra={"choices": _ABLATION_LABELS},
        description="Variants to run on the same scene for comparison: no_decomposition, no_imagination, no_reparameterisation",
    )
    stage1_iterations: int = Field(80, ge=0, le=1000, title="Stage 1 iterations",
                                   description="Optimiser steps on the relations alone")
    stage2_iterations: int = Field(200, ge=10, le=2000, title="Stage 2 iterations",
                                   description="Optimiser steps with collision, wall and support penalties")
    repair_rounds: int = Field(3, ge=0, le=10, title="Repair rounds",
                               description="Rounds of re-imagining the clusters that still violate something")
    seed: int = Field(0, ge=0, le=2**31 - 1, title="Seed of the first start",
                      description="Seed of the first optimiser start (start s uses seed + s)")
    seeds: int = seeds_field(default=1, maximum=5)
    starts: int = Field(3, ge=1, le=12, title="Optimiser starts",
                        description="Optimiser starts tried until one gives a clean layout")
    milp: MilpMode = Field(
        "auto", title="Complete MILP solver (HiGHS)", json_schema_extra={"choices": _MILP_LABELS},
        description=(f"Complete MILP solver (HiGHS), scenes of at most {MILP_MAX_OBJECTS} objects: 'auto' when the "
                     "optimiser fails, 'first' before it (a proof either way), 'off' never"))
    milp_seconds: float = Field(20.0, ge=1.0, le=120.0, title="MILP time limit", json_schema_extra={"unit": "s"},
                                description="Time limit of the MILP solver, s")
    random: RandomSpec | None = Field(None, description="Generate a feasible scene instead of using `scene`")
