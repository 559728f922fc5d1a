"""Parameters of an Extra-Merge run: the training run, the checkpoints, the merge window and the betas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["Params"]


def _default_betas() -> list[float]:
    return [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]


class Params(BaseModel):
    """Inputs of one run; the defaults train for a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    learning_rate: float = Field(
        default=0.003, gt=0.0, le=0.1, description="Peak learning rate of the optimiser (constant after warm-up)."
    )
    steps: int = Field(default=1200, ge=100, le=20000, description="Training steps (mini-batches of next-token pairs).")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed (corpus, initialisation, batches).")
    checkpoint_every: int = Field(default=20, ge=1, le=1000, description="Save a checkpoint every k steps.")
    merge_window: int = Field(
        default=8, ge=2, le=64, description="Consecutive checkpoints averaged into one merged checkpoint (disjoint blocks)."
    )
    betas: list[Annotated[float, Field(ge=-2, le=10)]] = Field(
        default_factory=_default_betas,
        min_length=1,
        max_length=24,
        description="Extrapolation coefficients beta, in units of the mean merged step along the "
        "top direction; beta = 0 is the plain merge. Each in [-2, 10].",
    )
    optimizer: Literal["adam", "muon"] = Field(
        default="adam",
        description="adam, or muon (torch.optim.Muon on the weight matrices, Adam on embeddings and biases).",
    )
    batch_size: int = Field(default=32, ge=4, le=1024, description="Next-token examples per training step.")
    hidden: int = Field(default=128, ge=16, le=512, description="Width of the MLP's hidden layer.")

    @field_validator("betas")
    @classmethod
    def _beta_range(cls, value: list[float]) -> list[float]:
        for beta in value:
            if not -2.0 <= beta <= 10.0:
                raise ValueError(f"betas: {beta} is outside [-2, 10]")
        return sorted(set(value))

    @model_validator(mode="after")
    def _enough_checkpoints(self) -> Params:
        checkpoints = self.steps // self.checkpoint_every
        if checkpoints < 3 * self.merge_window:
            raise ValueError(
                f"checkpoint_every: {self.steps} steps / {self.checkpoint_every} = {checkpoints} checkpoints; "
                f"merge_window {self.merge_window} needs at least {3 * self.merge_window} (three merges)"
            )
        if checkpoints > 2000:
            raise ValueError(f"checkpoint_every: {checkpoints} checkpoints is above the maximum of 2000")
        return self
