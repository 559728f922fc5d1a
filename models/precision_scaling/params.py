"""Parameters of a low-precision scaling run: model sizes, data, bits, the spectrum and the seeds."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["Params"]


def _default_sizes() -> list[int]:
    return [8, 16, 32, 64, 128, 256]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    model_sizes: list[Annotated[int, Field(ge=2, le=1024)]] = Field(
        default_factory=_default_sizes,
        min_length=2,
        max_length=10,
        description="Sketch sizes M (model parameters), each in [2, 1024] and below the dimension.",
    )
    n_samples: int = Field(default=4000, ge=100, le=50000, description="N: samples seen once by SGD (one pass).")
    bits: int = Field(
        default=6, ge=1, le=16,
        description="b: mantissa bits of the multiplicative (float-like) quantiser and integer bits of the "
        "additive (int-like) one.",
    )
    spectrum_exponent: float = Field(
        default=2.0, ge=1.1, le=4.0, description="a: the data covariance has eigenvalues i^(-a), i = 1..d."
    )
    seeds: int = Field(default=3, ge=1, le=10, description="Independent problems (sketch, target, data) averaged.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Base random seed.")
    dimension: int = Field(default=512, ge=64, le=4096, description="d: ambient dimension of the features.")
    label_noise: float = Field(default=0.1, ge=0.0, le=1.0, description="sigma: standard deviation of the label noise.")

    @field_validator("model_sizes")
    @classmethod
    def _sizes(cls, value: list[int]) -> list[int]:
        for m in value:
            if not 2 <= m <= 1024:
                raise ValueError(f"model_sizes: {m} is outside [2, 1024]")
        if len(set(value)) < 2:
            raise ValueError("model_sizes: give at least two different sizes")
        return sorted(set(value))

    @model_validator(mode="after")
    def _below_dimension(self) -> Params:
        if max(self.model_sizes) >= self.dimension:
            raise ValueError(
                f"model_sizes: the largest size {max(self.model_sizes)} must be below the dimension {self.dimension}"
            )
        return self
