"""Parameters of a selective-upcycling run: the task stream, training budget and the search's penalties."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from models.common.seeds import seeds_field

__all__ = ["Params"]


class Params(BaseModel):
    """Inputs of one run; the defaults train five learners on five digit tasks in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=1, maximum=5)
    tasks: int = Field(default=5, ge=2, le=10, title="Tasks",
                       description="Class-incremental tasks the ten digits are split into (2 to 10).")
    epochs_per_task: int = Field(default=6, ge=1, le=40, title="Epochs per task",
                                 description="Training passes over each task's data (at task 2 the selective "
                                             "learner's passes are its search's inner steps).")
    experts: int = Field(default=4, ge=2, le=8, title="Experts per upcycled layer E",
                         description="The original FFN plus E - 1 copies.")
    layers: int = Field(default=3, ge=1, le=4, title="FFN blocks", description="Residual FFN blocks of the backbone.")
    width: int = Field(default=64, ge=16, le=128, title="Hidden width d",
                       description="Hidden width of the backbone (FFN inner width 2d).")
    buffer_size: int = Field(default=200, ge=10, le=1000, title="Replay buffer", json_schema_extra={"unit": "examples"},
                             description="Replay buffer capacity (reservoir sampling).")
    cka_weight: float = Field(default=1.0, ge=0.0, le=10.0, title="CKA penalty weight (inner loop)",
                              description="Weight of 1 - CKA(old, new) on replay samples (selective only).")
    param_penalty: float = Field(default=1.0, ge=0.0, le=10.0, title="Parameter penalty λ (outer loop)",
                                 description="Weight of the expected added parameters, as a fraction of full "
                                             "upcycling's, in the outer objective.")
    learning_rate: float = Field(default=0.003, ge=1e-4, le=0.05, title="Learning rate",
                                 description="Adam learning rate of the weights.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed (task split, initialisation, batches); seed k of a run is seed + k.")
