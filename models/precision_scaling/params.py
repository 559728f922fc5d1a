"""Parameters of a low-precision scaling run: model sizes, data, bits, the spectrum and the seeds."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.common.seeds import seeds_field

__all__ = ["Params"]


def _default_sizes() -> list[int]:
    return [4, 8, 16, 32, 64, 128]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    model_sizes: list[Annotated[int, Field(ge=2, le=1024)]] = Field(
        default_factory=_default_sizes, min_length=2, max_length=10, title="Model sizes M",
        json_schema_extra={"unit": "sketch rows"},
        description="Sketch sizes M (model parameters), each in [2, 1024] and below the dimension.",
    )
    n_samples: int = Field(default=20000, ge=100, le=50000, title="Samples N (one pass)",
                           json_schema_extra={"unit": "samples"}, description="N: samples seen once by SGD.")
    multiplicative_bits: int = Field(
        default=1, ge=1, le=12, title="Multiplicative (float-like) mantissa bits", json_schema_extra={"unit": "bits"},
        description="b of the float-like quantiser: b mantissa bits, unbounded exponent (1 bit: the mantissa of FP4 E2M1).",
    )
    additive_bits: int = Field(
        default=0, ge=0, le=16, title="Additive (int-like) bits", json_schema_extra={"unit": "bits"},
        description="Bits of the integer grid on [-4, 4]. 0: matched, i.e. the width whose closed-form noise variance "
        "is closest to the multiplicative quantiser's (the run then measures both and reports their ratio).",
    )
    noise_level: float = Field(
        default=0.5, ge=0.0, le=4.0, title="Noise level of the paper's quantisation model",
        json_schema_extra={"unit": "relative variance"},
        description="0: b-bit stochastic rounding (the bit widths below). Above 0: the paper's two models as "
                    "unbiased noise, multiplicative with second moment level x x^2, additive with the constant "
                    "level x mean(spectrum) (the same mean variance: matched by construction).")
    spectrum_exponent: float = Field(default=2.0, ge=1.1, le=4.0, title="Spectrum exponent a",
                                     description="The data covariance has eigenvalues i^(-a), i = 1..d.")
    seeds: int = seeds_field(default=3, maximum=10)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Seed k of a run (problem, data and rounding) is seed + k.")
    dimension: int = Field(default=256, ge=64, le=4096, title="Dimension d", description="Ambient dimension of the features.")
    label_noise: float = Field(default=0.1, ge=0.0, le=1.0, title="Label noise σ",
                               description="Standard deviation of the label noise.")

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
