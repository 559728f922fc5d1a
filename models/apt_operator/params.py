"""Parameters of an APT-operator run: the evaluation mesh, the test draw, and (optionally) retraining."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Params"]


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mesh: Literal["regular", "adaptive"] = Field(
        default="adaptive",
        description="Mesh the headline relative L2 errors are measured on: the regular 32 x 32 grid, or the "
        "adaptively refined point set (16 x 16 base, 64 cells near wells and steep gradients split in four: 448 points).",
    )
    test_samples: int = Field(default=24, ge=4, le=64, description="Test media drawn (and solved) for this run.")
    seed: int = Field(default=0, ge=0, le=100_000, description="Seed of the test draw (and of training when retraining).")
    retrain: bool = Field(
        default=False,
        description="Train all four models from scratch in this job (minutes); off: use the shipped checkpoint.",
    )
    train_samples: int = Field(
        default=64, ge=8, le=160, description="Training media (each on both meshes) when retraining."
    )
    epochs: int = Field(default=8, ge=1, le=20, description="Training epochs per model when retraining.")
