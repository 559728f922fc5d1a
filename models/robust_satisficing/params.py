"""Parameters of the robust-satisficing comparison: data set, target factor, sweep, training length."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["DATASETS", "Params"]

DATASETS = ("spurious", "long_tail", "diabetes")
TauFactor = Annotated[float, Field(ge=1.0, le=3.0)]


def _default_sweep() -> list[float]:
    return [1.02, 1.05, 1.1, 1.2, 1.35, 1.6, 2.0]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    dataset: Literal["spurious", "long_tail", "diabetes"] = Field(
        default="spurious",
        description="spurious: 4 groups (label x spurious attribute), the attribute agrees with the label 90% of the "
        "time; long_tail: scikit-learn digits with class c kept at imbalance^(c/9), balanced test set, groups = "
        "classes; diabetes: regression, the sex = higher group kept at 25% in training.",
    )
    tau_factor: float = Field(
        default=1.1, ge=1.0, le=3.0,
        description="Target tau as a multiple of ERM's final training loss (the headline IRS run).",
    )
    tau_sweep: list[TauFactor] = Field(
        default_factory=_default_sweep, min_length=1, max_length=10,
        description="Extra target factors for the sweep figures (each in [1, 3]).",
    )
    epochs: int = Field(default=300, ge=10, le=3000, description="Full-batch gradient steps per method (one epoch each).")
    learning_rate: float = Field(default=0.05, ge=1e-4, le=1.0, description="Adam learning rate of every method.")
    hidden: int = Field(default=0, ge=0, le=128, description="Hidden units of the model (0 = a linear model).")
    train_size: int = Field(
        default=2000, ge=200, le=20000,
        description="Training rows of the synthetic spurious data set (the others use their bundled rows).",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Seed of the data, the split and the initialisation.")

    @field_validator("tau_sweep")
    @classmethod
    def _sorted(cls, value: list[float]) -> list[float]:
        return sorted(set(value))
