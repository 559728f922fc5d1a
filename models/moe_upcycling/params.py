"""Parameters of a selective-upcycling run: the task stream, training budget and the search's penalties."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults train four learners on five digit tasks in about 15 s on one core."""

    model_config = ConfigDict(extra="forbid")

    tasks: int = Field(
        default=5, ge=2, le=10, description="Class-incremental tasks the ten digits are split into (2 to 10)."
    )
    epochs_per_task: int = Field(
        default=6, ge=1, le=40, description="Training passes over each task's data (the search uses the first half of task 2's)."
    )
    experts: int = Field(
        default=4, ge=2, le=8, description="Experts per upcycled layer E (the original FFN plus E - 1 copies)."
    )
    layers: int = Field(default=3, ge=1, le=4, description="FFN blocks of the backbone (each one can be upcycled).")
    width: int = Field(default=64, ge=16, le=128, description="Hidden width d of the backbone (FFN inner width 2d).")
    buffer_size: int = Field(
        default=200, ge=10, le=1000, description="Replay buffer capacity in examples (reservoir sampling)."
    )
    cka_weight: float = Field(
        default=1.0, ge=0.0, le=10.0, description="Weight of the CKA penalty 1 - CKA(old, new) on replay samples (selective only)."
    )
    param_penalty: float = Field(
        default=1.0,
        ge=0.0,
        le=10.0,
        description="Outer-loop weight of the expected added parameters, as a fraction of full upcycling's.",
    )
    learning_rate: float = Field(default=0.003, ge=1e-4, le=0.05, description="Adam learning rate of the weights.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Random seed (task split, initialisation, batches).")
