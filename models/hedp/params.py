"""Parameters of an HEDP run: pre-training, prompt training, the energy regulariser and the keys."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from models.common.seeds import seeds_field

__all__ = ["LAMBDAS", "Params"]

LAMBDAS = (0.1, 0.3, 1.0, 3.0)  # the regulariser weights searched when tune_energy_weight is on


class Params(BaseModel):
    """Inputs of one run; the defaults (3 seeds, 5 prompt sets each) take about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=3, maximum=5)
    epochs: int = Field(default=30, ge=1, le=200, title="Epochs per prompt",
                        description="Training passes over each seen domain's images per prompt.")
    pretrain_epochs: int = Field(default=30, ge=1, le=200, title="Pre-training epochs",
                                 description="Passes of the feature extractor over the clean training images.")
    tune_energy_weight: bool = Field(
        default=True, title="Choose λ on held-out images",
        description="Train one prompt set per λ in 0.1, 0.3, 1, 3 (and 0) and let every selector pick its λ on "
                    "held-out seen-domain images (the official trainer's value is not published); off: use λ below.")
    energy_weight: float = Field(default=0.3, ge=0.0, le=5.0, title="Energy regulariser weight λ",
                                 description="λ of λ(|mean E - midline| + mean (E - border)+) in each prompt's loss "
                                             "when λ is not chosen on held-out images (0 = off).")
    energy_midline: float = Field(default=-14.0, ge=-40.0, le=0.0, title="Energy midline",
                                  json_schema_extra={"unit": "energy"},
                                  description="Where the regulariser pulls the mean own-domain energy E = -logsumexp(logits).")
    energy_border: float = Field(default=-12.0, ge=-40.0, le=0.0, title="Energy border",
                                 json_schema_extra={"unit": "energy"},
                                 description="Own-domain energies above this are pushed back down.")
    keys: int = Field(default=5, ge=1, le=20, title="k-means keys per domain",
                      description="Keys per seen domain: the distance cue is the distance to the nearest one.")
    learning_rate: float = Field(default=0.01, ge=1e-4, le=0.1, title="Learning rate",
                                 description="Adam learning rate of the prompts.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed (split, pre-training, prompts, batches); seed k of a run is seed + k.")

    @model_validator(mode="after")
    def _midline_below_border(self) -> Params:
        if self.energy_midline >= self.energy_border:
            raise ValueError(f"energy_midline ({self.energy_midline:g}) must be below energy_border "
                             f"({self.energy_border:g})")
        return self

    def weights(self) -> tuple[float, ...]:
        """The regulariser weights a prompt set is trained with (0 always: the unregularised reference)."""
        return (0.0, *LAMBDAS) if self.tune_energy_weight else tuple(sorted({0.0, self.energy_weight}))
