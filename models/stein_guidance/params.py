"""Parameters of a Stein-guidance run: dimension, particles, steps, guidance scales, methods."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field
from models.stein_guidance.guidance import METHOD_LABELS, MethodName

__all__ = ["MAX_WORK", "Params"]

# scales x particles^2 x steps x methods bounds the Stein kernels computed in one run
MAX_WORK = 1 << 31


def _default_scales() -> list[float]:
    return [2.0, 4.0, 8.0, 16.0, 32.0]


def _all_methods() -> list[MethodName]:
    return ["dps", "sdg", "sdg_no_stein", "sdg_no_running_cost", "sdg_langevin", "sdg_clean_target"]


class Params(BaseModel):
    """Inputs of one run; the defaults take about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dimension: Literal[2, 8] = Field(
        default=2, title="Prior dimension", description="Dimension of the Gaussian-mixture prior (2 or 8; the reward sees the first two)."
    )
    particles: int = Field(default=200, ge=16, le=1024, title="Particles per guidance scale", description="Particles per guidance scale.")
    steps: int = Field(default=60, ge=10, le=500, title="Reverse-diffusion steps", description="Euler-Maruyama steps of the reverse diffusion.")
    guidance_scales: list[Annotated[float, Field(ge=0, le=500)]] = Field(
        default_factory=_default_scales, min_length=2, max_length=10, title="Guidance scales lambda",
        description="Guidance scales lambda (the reward is lambda r(x), r(x) = -|x_12 - c|^2 / 2), each 0 to 500.",
    )
    methods: list[MethodName] = Field(
        default_factory=_all_methods, min_length=1, max_length=6, title="Methods",
        json_schema_extra={"choices": dict(METHOD_LABELS)},
        description="Guidance methods: " + ", ".join(METHOD_LABELS) + ".",
    )
    matched_hit_rate: float = Field(
        default=0.5, ge=0.05, le=0.95, title="Compare at reward hit rate",
        description="Reward hit rate at which the methods are compared (lowered to the largest rate all reach).",
    )
    stein_step: float = Field(
        default=0.5, ge=0.0, le=2.0, title="Stein / Langevin step (x local posterior variance)",
        description="Stein / Langevin step on the Tweedie estimates, in units of the local posterior variance "
        "of x0 given x_t (the component variance at large t).",
    )
    running_cost_weight: float = Field(
        default=0.5, ge=0.0, le=2.0, title="Running-cost weight w", description="Weight w of SDG's running-cost term w lambda grad r(x0(x_t))."
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Base seed; seed k of a run uses seed + k.")
    seeds: int = seeds_field(default=1, maximum=5)

    @field_validator("guidance_scales")
    @classmethod
    def _scales(cls, value: list[float]) -> list[float]:
        for scale in value:
            if not 0.0 <= scale <= 500.0:
                raise ValueError(f"guidance_scales: {scale} is outside [0, 500]")
        if len(set(value)) != len(value):
            raise ValueError("guidance_scales: each scale may appear only once")
        return sorted(value)

    @field_validator("methods")
    @classmethod
    def _unique_methods(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("methods: each method may appear only once")
        return value
