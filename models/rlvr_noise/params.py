"""Parameters of a noisy-verifier RLVR run: the sweep of Youden's J, the verifier and the GRPO bandit."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["Params"]


def _default_j_values() -> list[float]:
    return [-0.3, -0.15, 0.0, 0.15, 0.3, 0.5, 0.7]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in a few seconds on one core."""

    model_config = ConfigDict(extra="forbid")

    j_values: list[Annotated[float, Field(ge=-1, le=1)]] = Field(
        default_factory=_default_j_values,
        min_length=1,
        max_length=12,
        description="Youden's J = TPR - FPR of the verifier, one simulation per value, each in [-1, 1]; "
        "with the chosen FPR the false-negative rate is FNR = 1 - FPR - J, which must lie in [0, 1].",
    )
    fpr: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="False-positive rate: probability that the verifier rewards a sample from an incorrect mode.",
    )
    steps: int = Field(default=400, ge=10, le=3000, description="GRPO updates (policy-gradient steps).")
    seeds: int = Field(
        default=32, ge=1, le=128, description="Independent bandit runs per J (simulated together)."
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Base random seed.")
    group_size: int = Field(
        default=8, ge=2, le=64, description="G: samples per group; advantages are standardised inside a group."
    )
    modes_per_class: int = Field(
        default=4, ge=1, le=32, description="m: number of correct modes and of incorrect modes (2m arms)."
    )
    learning_rate: float = Field(
        default=1.0, gt=0.0, le=10.0, description="Step size of the policy-gradient update of the logits."
    )
    initial_incorrect_mass: float = Field(
        default=0.5,
        gt=0.0,
        lt=1.0,
        description="Probability mass on the incorrect modes at step 0 (spread evenly over them).",
    )
    phase_grid: int = Field(
        default=21,
        ge=5,
        le=41,
        description="Points per axis of the (FPR, FNR) phase diagram (mean-field, at the same steps).",
    )

    @field_validator("j_values")
    @classmethod
    def _j_in_range(cls, value: list[float]) -> list[float]:
        for j in value:
            if not -1.0 <= j <= 1.0:
                raise ValueError(f"j_values: {j} is outside [-1, 1]")
        return value
