"""Parameters of PINE pruning: data set, ensemble family and size, the alpha sweep, the oracle's bounds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field

__all__ = ["DATASETS", "Params"]

DATASETS = ("breast_cancer", "wine", "digits", "synthetic")
Alpha = Annotated[float, Field(ge=0.01, le=0.9)]


def _default_alphas() -> list[float]:
    return [0.1, 0.4, 0.8]


class Params(BaseModel):
    """Inputs of one run; the defaults (1 seed) finish in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    seeds: int = seeds_field(default=1, maximum=5)
    dataset: Literal["breast_cancer", "wine", "digits", "synthetic"] = Field(
        default="breast_cancer", title="Data set",
        description="breast_cancer (569 x 30, 2 classes), wine (178 x 13, 3), digits (1,797 x 64, 10) from "
        "scikit-learn, or synthetic (3 Gaussian classes over 8 chain-correlated features).",
        json_schema_extra={"choices": {"synthetic": "synthetic (8 chain-correlated features, 3 classes)",
                                      "breast_cancer": "breast cancer (569 x 30, 2 classes)",
                                      "wine": "wine (178 x 13, 3 classes)", "digits": "digits (1,797 x 64, 10 classes)"}},
    )
    ensemble: Literal["gradient_boosting", "random_forest"] = Field(
        default="gradient_boosting", title="Ensemble",
        description="gradient_boosting: scikit-learn GradientBoostingClassifier (K regression trees a stage when K > 2, "
        "each pruned on its own); random_forest: RandomForestClassifier (soft vote).",
        json_schema_extra={"choices": {"gradient_boosting": "gradient boosting (scikit-learn)",
                                      "random_forest": "random forest (scikit-learn)"}},
    )
    trees: int = Field(default=30, ge=2, le=100, title="Stages / trees",
                       description="Boosting stages (K trees each for K > 2 classes) or forest trees.")
    max_depth: int = Field(default=2, ge=1, le=4, title="Maximum tree depth",
                           description="Depth bound of every tree (it bounds the oracle MILP's size).")
    alphas: list[Alpha] = Field(
        default_factory=_default_alphas, min_length=1, max_length=6, title="Conformal levels α",
        description="Conformal levels alpha in [0.01, 0.9]: the region holds a new in-distribution point with "
        "probability >= 1 - alpha.",
    )
    bins: int = Field(default=4, ge=2, le=8, title="Chow-Liu bins per feature",
                      description="Quantile bins per feature of the Chow-Liu density (the region's cells).")
    bin_edges: Literal["snapped", "quantile"] = Field(
        default="snapped", title="Chow-Liu bin edges",
        description="snapped (the paper's code): quantile edges moved to the ensemble's nearest split threshold, "
        "score log P(bins); quantile: quantile edges of the training data, a piecewise-constant density.",
        json_schema_extra={"choices": {"snapped": "snapped to the split thresholds (the paper's code)",
                                      "quantile": "training quantiles (density)"}},
    )
    solver: Literal["lp", "milp"] = Field(
        default="lp", title="Pruning program",
        description="lp: iteratively reweighted L1 (fast); milp: the exact L0 program on HiGHS within the time "
        "limit, else the lp answer.",
        json_schema_extra={"choices": {"lp": "reweighted L1 (LP, fast)", "milp": "exact L0 (MILP, time-limited)"}},
    )
    oracle_rounds: int = Field(default=40, ge=1, le=60, title="Oracle rounds (most)",
                               description="Most solve-then-check rounds per pruning; without a proof by then the "
                               "full ensemble is returned.")
    search_size: int = Field(default=1000, ge=100, le=10000, title="Points searched per round",
                             description="Points the sampling search tries before the MILP is asked.")
    add_per_round: int = Field(default=100, ge=10, le=500, title="Disagreements added per round (most)",
                               description="Most disagreeing points the search adds to the program per round.")
    oracle_time_limit: float = Field(default=10.0, ge=1.0, le=60.0, title="Oracle MILP time limit",
                                     json_schema_extra={"unit": "s"},
                                     description="HiGHS time limit of each oracle MILP (one per class pair).")
    check_size: int = Field(default=5000, ge=100, le=20000, title="Fresh points of the re-check",
                            description="Fresh region points drawn after pruning to re-check the proof by sampling.")
    time_limit: float = Field(default=5.0, ge=0.5, le=30.0, title="Weight solve time limit",
                              json_schema_extra={"unit": "s"}, description="HiGHS time limit per weight solve.")
    samples: int = Field(default=900, ge=200, le=3000, title="Synthetic rows",
                         description="Rows drawn for the synthetic data set.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed (split, ensemble, oracle search); seed k of a run is seed + k.")

    @field_validator("alphas")
    @classmethod
    def _sorted(cls, value: list[float]) -> list[float]:
        return sorted(set(value))
