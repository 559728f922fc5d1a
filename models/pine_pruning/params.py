"""Parameters of PINE pruning: data set, forest size, the alpha sweep, the oracle's search budget."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["DATASETS", "Params"]

DATASETS = ("breast_cancer", "wine", "digits", "synthetic")
Alpha = Annotated[float, Field(ge=0.01, le=0.9)]


def _default_alphas() -> list[float]:
    return [0.05, 0.1, 0.3, 0.5]


class Params(BaseModel):
    """Inputs of one run; the defaults finish in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dataset: Literal["breast_cancer", "wine", "digits", "synthetic"] = Field(
        default="synthetic",
        description="breast_cancer (569 x 30, 2 classes), wine (178 x 13, 3), digits (1,797 x 64, 10) from "
        "scikit-learn, or synthetic (3 Gaussian classes over 8 chain-correlated features).",
    )
    trees: int = Field(default=100, ge=10, le=200, description="Trees of the random forest.")
    max_depth: int = Field(default=3, ge=1, le=6, description="Maximum depth of each tree.")
    alphas: list[Alpha] = Field(
        default_factory=_default_alphas, min_length=1, max_length=8,
        description="Conformal levels alpha in [0.01, 0.9]: the region holds a new in-distribution point with "
        "probability >= 1 - alpha.",
    )
    bins: int = Field(default=5, ge=2, le=10, description="Quantile bins per feature of the Chow-Liu density.")
    solver: Literal["lp", "milp"] = Field(
        default="lp",
        description="lp: iteratively reweighted L1 (fast); milp: the exact L0 program on HiGHS within the time "
        "limit, else the lp answer.",
    )
    oracle_rounds: int = Field(default=6, ge=1, le=40, description="Most solve-then-search rounds per pruning.")
    search_size: int = Field(default=1000, ge=100, le=10000,
                             description="Points the oracle searches per round (from the region or the box).")
    add_per_round: int = Field(default=100, ge=10, le=500,
                               description="Most disagreeing points added to the program per round.")
    check_size: int = Field(default=5000, ge=100, le=20000,
                            description="Fresh points of the region used to re-check the final pruned forest.")
    time_limit: float = Field(default=5.0, ge=0.5, le=30.0, description="HiGHS time limit per solve, in seconds.")
    samples: int = Field(default=900, ge=200, le=3000, description="Rows drawn for the synthetic data set.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Seed of the split, the forest and the oracle.")

    @field_validator("alphas")
    @classmethod
    def _sorted(cls, value: list[float]) -> list[float]:
        return sorted(set(value))
