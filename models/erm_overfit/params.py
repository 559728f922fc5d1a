"""Parameters of the derived construction: samples (d = 6m), code size, threshold, instances, seeds."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults take about 10 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=3, maximum=10)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed of the training samples (the code is a fixed instance per m).")
    samples: int = Field(default=6, ge=3, le=10, title="Samples m",
                         description="m: draws (j, s) per training set; the dimension is d = 6m.")
    instances: int = Field(default=60, ge=10, le=200, title="Training sets per seed",
                           json_schema_extra={"unit": "instances"},
                           description="Independent training sets per seed; the overfitting rate is over these.")
    extra_bits: int = Field(default=3, ge=1, le=4, title="Code bits beyond m",
                            description="The code has 2^(m + extra) codewords: about 2^extra agree with m sampled signs.")
    threshold_margin: float = Field(
        default=0.25, ge=0.0, lt=1.0, title="Threshold position",
        description="theta = (m - 2 + 2 margin) / sqrt(m d): 0 at the largest seen <w, h-hat>, 1 at the unseen "
                    "codewords' 1/sqrt(6). The guaranteed excess (1 - margin)/sqrt(m d) shrinks as the margin grows.")
    approx_scale: float = Field(default=1e-3, gt=0.0, le=1.0, title="Approximate ERM: epsilon / m^-1.5",
                                description="Every epsilon-approximate ERM with epsilon = scale x m^-1.5 is certified "
                                            "within sqrt(2 epsilon / lambda) of the unique ERM.")
