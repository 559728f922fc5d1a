"""Parameters of an HEDP run: prompt training, the energy band and the fusion of the two cues."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults train 2 x 4 prompts and score five domains in a few seconds."""

    model_config = ConfigDict(extra="forbid")

    epochs: int = Field(default=30, ge=1, le=200, description="Training passes over each domain's data per prompt.")
    energy_weight: float = Field(
        default=0.1, ge=0.0, le=5.0, description="Weight of the energy-band regulariser in each prompt's loss (0 = off)."
    )
    band_low: float = Field(default=-10.0, ge=-50.0, le=0.0, description="Lower edge of the in-domain energy band (energy units, E = -logsumexp(logits)).")
    band_high: float = Field(default=-6.0, ge=-50.0, le=0.0, description="Upper edge of the in-domain energy band (energy units).")
    fusion_weight: float = Field(
        default=0.5, ge=0.0, le=1.0, description="Hybrid selector: weight of the energy cue (1 - weight goes to the distance cue)."
    )
    temperature: float = Field(
        default=1.0, ge=0.05, le=10.0, description="Softmax temperature turning the fused cue into prompt weights."
    )
    features: int = Field(default=256, ge=32, le=1024, description="Width of the frozen random-feature backbone.")
    centroids: int = Field(default=5, ge=1, le=20, description="k-means centroids per domain of the nearest-centroid (S-Prompts) selector.")
    learning_rate: float = Field(default=0.01, ge=1e-4, le=0.1, description="Adam learning rate of prompts and heads.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed (split, backbone, initialisation, batches).")

    @model_validator(mode="after")
    def _band_is_ordered(self) -> Params:
        if self.band_low >= self.band_high:
            raise ValueError(f"band_low ({self.band_low}) must be below band_high ({self.band_high})")
        return self
