"""Parameters of the best-case-ERM construction: samples (d = 6m), code size, threshold, noise, lambda, seeds."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from models.common.claims import seeds_field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults take a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=3, maximum=10)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed of the training samples (the code is a fixed instance per m).")
    samples: int = Field(default=8, ge=3, le=10, title="Samples m",
                         description="m: training samples, each a random half of the code; the dimension is d = 6m.")
    extra_bits: int = Field(default=3, ge=1, le=4, title="Code bits beyond m",
                            description="The code has 2^(m + extra) codewords: about 2^extra of them are in no sample.")
    threshold_margin: float = Field(
        default=0.5, gt=0.0, lt=1.0, title="Threshold position",
        description="theta = coherence + margin x (1 - coherence): 0 puts the Feldman threshold at the code's "
                    "coherence, 1 at 1. A codeword in no sample overfits by at least (1 - theta) / 2.")
    noise_scale: float = Field(default=0.5, ge=0.0, le=4.0, title="Noise scale alpha",
                               description="Weight of the zero-mean linear term alpha <xi_V, x> of every sample.")
    lambda_scale: float = Field(default=1.0, ge=0.0, le=100.0, title="Regularisation lambda / m^-1.5",
                                description="lambda = scale x m^-1.5 (the paper's order) in lambda/2 ||x||^2.")
