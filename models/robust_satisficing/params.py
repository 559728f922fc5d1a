"""Parameters of the robust-satisficing comparison: data set, target rule, training, seeds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field

__all__ = ["DATASETS", "Params"]

DATASETS = ("waterbirds", "spurious", "long_tail", "diabetes")
TauMultiplier = Annotated[float, Field(ge=1.0, le=3.0)]


class Params(BaseModel):
    """Inputs of one run; the defaults (Waterbirds-like data, a 32-unit network, 1,500 epochs, 3 seeds: one seed
    is not the paper's effect) take about 30 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dataset: Literal["waterbirds", "spurious", "long_tail", "diabetes"] = Field(
        default="waterbirds", title="Data set",
        json_schema_extra={"choices": {"waterbirds": "Waterbirds-like: ring core, spurious cue (4 groups)",
                                       "spurious": "Linear spurious correlations (4 groups)",
                                       "long_tail": "Long-tailed digits (10 classes)",
                                       "diabetes": "Diabetes regression (sex groups)"}},
        description="waterbirds: the label is the ring a 2-D core point lies on, a linear spurious cue agrees with it "
        "95% of the time in training (minority groups 5%); spurious: linear core and cue, 90%; long_tail: digits "
        "with class c kept at 0.05^(c/9); diabetes: regression, the sex = higher group kept at 25% in training.",
    )
    tau_multiplier: float = Field(
        default=1.01, ge=1.0, le=3.0, title="Target tau (x current loss)",
        description="IRS's active target each step: tau = max(multiplier x the prior-weighted group loss of the step, "
        "0.1), the official code's rule (multiplier 1.01).",
    )
    tau_sweep: list[TauMultiplier] = Field(
        default_factory=list, max_length=8, title="Sweep of tau multipliers (first seed)",
        description="Extra target multipliers for the sweep figures (each in [1, 3]; one IRS training each).",
    )
    epochs: int = Field(default=1500, ge=10, le=3000, title="Epochs (full-batch steps)",
                        description="Full-batch gradient steps per training (one epoch each; cosine-annealed "
                        "learning rate); long enough that the training loss falls below the 0.1 floor of tau.")
    learning_rate: float = Field(default=0.01, ge=1e-4, le=1.0, title="Learning rate (Adam)",
                                 description="Adam learning rate of every method.")
    hidden: int = Field(default=32, ge=0, le=128, title="Hidden units (0 = linear)",
                        description="Hidden ReLU units of the model (0 = a linear model).")
    train_size: int = Field(
        default=1000, ge=200, le=20000, title="Training rows (synthetic sets)",
        description="Training rows of the synthetic sets (validation: half as many; the others use bundled rows).",
    )
    seeds: int = seeds_field(default=3, maximum=5)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed of the data, the split and the initialisation.")

    @field_validator("tau_sweep")
    @classmethod
    def _sorted(cls, value: list[float]) -> list[float]:
        return sorted(set(value))
