"""Parameters of an Extra-Merge run: the training run, the checkpoints, the merge window, the betas, the seeds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.common.seeds import seeds_field

__all__ = ["MAX_WORK", "Params"]

MAX_WORK = 2e9  # the defaults are 5.2e7 (about 12 s on one core)


def _default_betas() -> list[float]:
    return [-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0]


class Params(BaseModel):
    """Inputs of one run; the defaults train one seed in about 15 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=1, maximum=5)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base random seed (corpus, initialisation, batches); seeds run seed, seed + 1, ...")
    learning_rate: float = Field(default=0.01, gt=0.0, le=0.1, title="Peak learning rate",
                                 description="Learning rate reached at the end of the linear warm-up.")
    schedule: Literal["cosine", "wsd"] = Field(
        default="wsd", title="Learning-rate schedule",
        description="After a linear warm-up over 5% of the steps: cosine decay to 0, or warm-up-stable-decay (constant, "
                    "then linear decay to 0 over the last 20% of the steps).",
        json_schema_extra={"choices": {"cosine": "Cosine decay to 0", "wsd": "Warm-up, stable, decay (last 20%)"}},
    )
    steps: int = Field(default=1600, ge=200, le=20000, title="Training steps",
                       description="Training steps (mini-batches of token sequences).")
    batch_size: int = Field(default=16, ge=4, le=256, title="Batch size", json_schema_extra={"unit": "sequences"},
                            description="Sequences of 16 next-token predictions per step.")
    width: Literal[16, 32, 48, 64] = Field(default=32, title="Model width",
                                           description="Width of the transformer (heads of 16 dimensions).")
    layers: int = Field(default=2, ge=1, le=4, title="Transformer layers", description="Number of transformer blocks.")
    optimizer: Literal["adam", "muon"] = Field(
        default="adam", title="Optimiser",
        description="AdamW, or Muon (torch.optim.Muon, 5x the learning rate) on the blocks' weight matrices with "
                    "AdamW on the rest.",
        json_schema_extra={"choices": {"adam": "AdamW", "muon": "Muon (block matrices) + AdamW (the rest)"}},
    )
    checkpoint_every: int = Field(default=5, ge=1, le=1000, title="Checkpoint every",
                                  json_schema_extra={"unit": "steps"}, description="Save a checkpoint every k steps.")
    merge_window: int = Field(default=16, ge=2, le=64, title="Checkpoints per merge",
                              description="Consecutive checkpoints averaged into one merged checkpoint (disjoint "
                                          "blocks).")
    falling_cut: float = Field(default=0.75, ge=0.2, le=0.9, title="Late-stage analysis point",
                               json_schema_extra={"unit": "share of training"},
                               description="Where the late-stage analysis stops (with warm-up-stable-decay, 0.75 is the "
                                           "end of the stable phase, learning rate at peak); the plateau analysis "
                                           "uses every checkpoint up to the end.")
    betas: list[Annotated[float, Field(ge=-2, le=10)]] = Field(
        default_factory=_default_betas, min_length=1, max_length=24, title="Extrapolation coefficients beta",
        description="In units of the mean merged step along the top direction; beta = 0 is the plain merge. "
                    "Each in [-2, 10]; the one with the lowest validation loss is reported on test. The same grid "
                    "tunes the lag shift's gamma (in last merged steps).",
    )

    @field_validator("betas")
    @classmethod
    def _beta_range(cls, value: list[float]) -> list[float]:
        return sorted(set(value))

    @model_validator(mode="after")
    def _enough_checkpoints(self) -> Params:
        at_cut = int(self.steps * self.falling_cut) // self.checkpoint_every
        if at_cut < 3 * self.merge_window:
            raise ValueError(
                f"checkpoint_every: {int(self.steps * self.falling_cut)} steps before the falling-phase analysis / "
                f"{self.checkpoint_every} = {at_cut} checkpoints; merge_window {self.merge_window} needs at least "
                f"{3 * self.merge_window} (three merges)")
        if self.steps // self.checkpoint_every > 2000:
            raise ValueError(f"checkpoint_every: {self.steps // self.checkpoint_every} checkpoints is above the "
                             "maximum of 2000")
        work = self.seeds * self.steps * self.batch_size * self.width**2 * self.layers
        if work > MAX_WORK:
            raise ValueError(f"steps: seeds x steps x batch size x width^2 x layers = {work:.2e} is above the limit of "
                             f"{MAX_WORK:.0e} (about 10 minutes on one core)")
        return self
