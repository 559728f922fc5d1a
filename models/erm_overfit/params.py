"""Parameters of the best-case-ERM illustration: samples, code dimension, strong convexity, the GD grid."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["Params"]


def _default_etas() -> list[float]:
    return [0.01, 0.03, 0.1, 0.3]


def _default_horizons() -> list[int]:
    return [10, 30, 100, 300]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    samples: int = Field(
        default=8, ge=1, le=24,
        description="m: training samples (each a random half of the code); an unseen code vector is likely "
        "only while 2^m is below the code size.",
    )
    dimension: Literal[31, 127, 511] = Field(
        default=127,
        description="d = 2^n - 1 for a Gold code: 31 (1,023 vectors, coherence 9/31), 127 (16,383 vectors, "
        "17/127) or 511 (16,352 of them, 33/511).",
    )
    strong_convexity: float = Field(
        default=0.04, ge=0.0, le=1.0,
        description="lambda of the lambda/2 ||x||^2 term (the paper's scale is m^-1.5, 0.044 at m = 8).",
    )
    etas: list[Annotated[float, Field(gt=0, le=10)]] = Field(
        default_factory=_default_etas, min_length=1, max_length=8,
        description="GD learning rates eta, each in (0, 10].",
    )
    horizons: list[Annotated[int, Field(ge=1, le=2000)]] = Field(
        default_factory=_default_horizons, min_length=1, max_length=8,
        description="GD horizons T (steps), each in [1, 2000].",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed of the samples.")

    @field_validator("etas")
    @classmethod
    def _etas(cls, value: list[float]) -> list[float]:
        for eta in value:
            if not 0.0 < eta <= 10.0:
                raise ValueError(f"etas: {eta} is outside (0, 10]")
        return sorted(set(value))

    @field_validator("horizons")
    @classmethod
    def _horizons(cls, value: list[int]) -> list[int]:
        for horizon in value:
            if not 1 <= horizon <= 2000:
                raise ValueError(f"horizons: {horizon} is outside [1, 2000]")
        return sorted(set(value))
