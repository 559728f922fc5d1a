"""Parameters of a Stein-guidance run: dimension, particles, steps, methods, SDG's alpha and Stein step."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field
from models.stein_guidance.guidance import METHOD_LABELS, MethodName

__all__ = ["Params"]


def _all_methods() -> list[MethodName]:
    return ["dps", "lgd", "mpgd", "ugd", "sdg", "sdg_no_stein", "sdg_alpha0", "sdg_langevin"]


class Params(BaseModel):
    """Inputs of one run; the defaults take about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dimension: Literal[2, 8] = Field(
        default=2, title="Prior dimension",
        description="Dimension of the Gaussian-mixture prior (2 or 8; the reward sees the first two).")
    particles: int = Field(
        default=600, ge=16, le=1024, title="Particles (evaluation)",
        description="Particles each method is evaluated on (strengths are tuned on half as many, other noise).")
    steps: int = Field(default=60, ge=10, le=300, title="Reverse-diffusion steps",
                       description="Euler-Maruyama steps of the reverse diffusion from t = 1 to t = 0.001.")
    methods: list[MethodName] = Field(
        default_factory=_all_methods, min_length=1, max_length=8, title="Methods",
        json_schema_extra={"choices": dict(METHOD_LABELS)},
        description="Methods: " + ", ".join(METHOD_LABELS) + ". SDG is always run (the ablations use its tuned beta).")
    alpha: float = Field(
        default=0.1, ge=0.0, le=0.9, title="SDG annealing alpha (unitless)",
        description="SDG's running-cost weight alpha: its target is p^(1 - alpha) exp(beta r) (0 = no annealing).")
    stein_step: float = Field(
        default=4.0, ge=0.0, le=16.0, title="Stein step eps (x local posterior variance)",
        description="SDG's Stein step on the Tweedie estimates, in units of the local posterior variance of x0 "
        "given x_t (the component variance at large t).")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Base seed; seed k of a run uses seed + k.")
    seeds: int = seeds_field(default=1, maximum=5)

    @field_validator("methods")
    @classmethod
    def _methods(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("methods: each method may appear only once")
        return value if "sdg" in value else ["sdg", *value]
