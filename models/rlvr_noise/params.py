"""Parameters of a noisy-verifier RLVR run: the sweep of Youden's J, the verifier, the GRPO bandit, the seeds."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.common.seeds import seeds_field

__all__ = ["Params"]


def _default_j_values() -> list[float]:
    return [-0.3, -0.15, 0.0, 0.15, 0.3, 0.5, 0.7]


class Params(BaseModel):
    """Inputs of one run; the defaults take about 3 s per seed on one core."""

    model_config = ConfigDict(extra="forbid")

    j_values: list[Annotated[float, Field(ge=-1, le=1)]] = Field(
        default_factory=_default_j_values,
        min_length=1,
        max_length=12,
        title="Youden's J values (J = TPR - FPR)",
        description="Youden's J = TPR - FPR of the verifier, one simulation per value, each in [-1, 1]; "
        "with the chosen FPR the false-negative rate is FNR = 1 - FPR - J, which must lie in [0, 1].",
    )
    fpr: float = Field(
        default=0.3, ge=0.0, le=1.0, title="False-positive rate FPR",
        description="Probability that the verifier rewards a sample from an incorrect mode. The J = 0 "
        "diffusion check runs at TPR = FPR = this value.",
    )
    steps: int = Field(
        default=1000, ge=10, le=4000, title="GRPO steps", json_schema_extra={"unit": "updates"},
        description="GRPO updates (policy-gradient steps) of the J sweep; the phase diagram runs half as many.",
    )
    seeds: int = seeds_field(default=3, maximum=5)
    bandit_seeds: int = Field(
        default=32, ge=2, le=256, title="GRPO runs per J",
        description="Independent finite-sample GRPO runs per J value (simulated together); the bandit curve "
        "is their mean.",
    )
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed", description="Base random seed.")
    group_size: int = Field(
        default=64, ge=2, le=128, title="Group size G",
        description="G: samples per group; advantages are standardised inside a group. The mean field is the "
        "large-G limit.",
    )
    modes_per_class: int = Field(
        default=4, ge=1, le=32, title="Modes per class m",
        description="m: number of correct modes and of incorrect modes (2m arms).",
    )
    learning_rate: float = Field(
        default=0.25, gt=0.0, le=10.0, title="Learning rate",
        description="Step size of the policy-gradient update of the logits; the mean field is the small-step limit.",
    )
    initial_incorrect_mass: float = Field(
        default=0.5, ge=0.06, le=0.94, title="Initial incorrect mass",
        description="Probability mass on the incorrect modes at step 0 (spread evenly over them); above the "
        "0.05 threshold of the hitting times.",
    )
    phase_grid: int = Field(
        default=11, ge=5, le=21, title="Phase-diagram points per axis",
        description="Points per axis of the (FPR, FNR) grid on which the GRPO bandit runs (8 runs per cell); "
        "the grid's anti-diagonal FPR + FNR = 1 is the J = 0 line.",
    )

    favoured_share: float = Field(
        default=0.6, gt=0.0, lt=1.0, title="Favoured correct mode's share",
        description="Competition run: at step 0 the first correct mode holds this share of the correct class and "
        "the other m - 1 split the rest evenly (0.6 with m = 4: 0.6 / 0.13 / 0.13 / 0.13). Above 1/m.",
    )
    competition_j: float = Field(
        default=0.5, gt=0.0, le=1.0, title="J of the competition run",
        description="Youden's J of the verifier in the within-correct-mode competition run (J > 0; its false-"
        "negative rate is 1 - FPR - J). A J = 0 run from the same start is the reference.",
    )

    @model_validator(mode="after")
    def _competition_inputs(self) -> Params:
        if self.modes_per_class > 1 and self.favoured_share <= 1.0 / self.modes_per_class:
            raise ValueError(f"favoured_share: {self.favoured_share:g} is not above 1/m = "
                             f"{1 / self.modes_per_class:.3g}, so the first correct mode is not favoured")
        if self.fpr + self.competition_j > 1.0 + 1e-9:
            raise ValueError(f"competition_j: J = {self.competition_j} with FPR = {self.fpr} needs FNR = "
                             f"{1 - self.fpr - self.competition_j:.3f} < 0; J must be at most {1 - self.fpr:.3f}")
        return self

    @field_validator("j_values")
    @classmethod
    def _j_in_range(cls, value: list[float]) -> list[float]:
        for j in value:
            if not -1.0 <= j <= 1.0:
                raise ValueError(f"j_values: {j} is outside [-1, 1]")
        return value

    def correct_shares(self) -> list[float]:
        """The competition run's within-correct-class shares at step 0 (the first is the favoured mode)."""
        m = self.modes_per_class
        return [1.0] if m == 1 else [self.favoured_share] + [(1.0 - self.favoured_share) / (m - 1)] * (m - 1)
