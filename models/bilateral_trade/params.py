"""Parameters of a bilateral trade run: the valuation distribution, horizon, seeds and learners."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.bilateral_trade.learners import LearnerName
from models.common.seeds import seeds_field

LONG_HORIZON = 1 << 20  # above it only the streamed learners run
STREAMED = ("fixed_price", "gbb_one_bit_paper")
STREAMED_WORK = 3 << 25  # seeds x T above 2^20: about 3 minutes on one core
__all__ = ["KIND_LABELS", "LEARNER_NAMES", "LONG_HORIZON", "STREAMED", "AdvancedSettings", "DistributionParams", "Params", "RectangleParams"]

LEARNER_NAMES: tuple[str, ...] = get_args(LearnerName)
DistributionKind = Literal[
    "uniform", "factor_two", "two_markets", "two_squares", "gaussian_copula", "rectangles"
]
# The distributions' names as a reader sees them (the page's picker reads them from the schema's `choices`).
KIND_LABELS: dict[str, str] = {
    "two_markets": "Two separated markets (density bounded: 16.7)",
    "two_squares": "Two small squares, factor two (density bounded: 1 / (2 side^2))",
    "factor_two": "Factor-two atoms (density unbounded)",
    "uniform": "Independent uniform (density bounded: 1)",
    "gaussian_copula": "Gaussian copula (density unbounded unless rho = 0)",
    "rectangles": "Your own mixture of uniform rectangles",
}
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class RectangleParams(BaseModel):
    """One uniform rectangle of the user-drawn mixture: s in [lo, hi], b in [lo, hi], weight mass."""

    model_config = ConfigDict(extra="forbid")

    s: tuple[Unit, Unit] = Field(
        default=(0.0, 0.5), description="Seller value range [lo, hi] inside [0, 1] (lo = hi is an atom)."
    )
    b: tuple[Unit, Unit] = Field(
        default=(0.5, 1.0), description="Buyer value range [lo, hi] inside [0, 1] (lo = hi is an atom)."
    )
    mass: float = Field(
        default=1.0,
        ge=0.0,
        le=1000.0,
        description="Relative weight of this rectangle (normalised over all rectangles).",
    )


class DistributionParams(BaseModel):
    """Which joint distribution D of (s, b) the valuations are drawn from."""

    model_config = ConfigDict(extra="forbid")

    kind: DistributionKind = Field(
        default="two_markets", title="Valuation distribution D of (seller value s, buyer value b)",
        json_schema_extra={"choices": dict(KIND_LABELS)},
        description="uniform, factor_two, two_markets, two_squares, gaussian_copula or rectangles.",
    )
    eta: float = Field(
        default=0.01,
        ge=0.0,
        le=0.2,
        description="Gap eta of the factor-two atoms (0, 1/2-eta) and (1/2+eta, 1); also used by two_squares.",
    )
    width: float = Field(
        default=0.05,
        ge=0.005,
        le=0.2,
        description="Side of each small square in two_squares (density bound = 1 / (2 width^2)).",
    )
    rho: float = Field(default=0.5, ge=-0.95, le=0.95, description="Correlation of the Gaussian copula.")
    rectangles: list[RectangleParams] = Field(
        default_factory=lambda: [
            RectangleParams(s=(0.0, 0.2), b=(0.3, 0.5), mass=1.0),
            RectangleParams(s=(0.5, 0.7), b=(0.8, 1.0), mass=1.0),
        ],
        max_length=12,
        description="Mixture of uniform rectangles (kind = rectangles), at most 12.",
    )


class AdvancedSettings(BaseModel):
    """Constants of the practical learners (the paper's rates K ~ T^1/4, 2Kn ~ T^3/4 with tuned
    constants); `gbb_one_bit_paper` ignores them except the slope-fit horizon."""

    model_config = ConfigDict(extra="forbid")

    grid_points: int = Field(default=0, ge=0, le=64, description="Learner price grid K (0 = ceil(T^(1/4))).")
    explore_scale: float = Field(
        default=0.5,
        ge=0.05,
        le=4.0,
        description="Exploration rounds per grid row/column: n = scale * sqrt(T).",
    )
    beta_scale: float = Field(
        default=0.1,
        ge=0.0,
        le=2.0,
        description="Budget target beta as a fraction of the exploration length 2Kn.",
    )
    confidence_scale: float = Field(
        default=0.25,
        ge=0.0,
        le=4.0,
        description="Multiplier of the confidence radii of the optimistic phase (1 = the textbook constants).",
    )
    batch_growth: float = Field(
        default=0.05,
        ge=0.001,
        le=1.0,
        description="LP re-solve batch = max(64, growth x rounds so far in the phase).",
    )
    min_horizon_exponent: int = Field(
        default=10,
        ge=8,
        le=16,
        description="Smallest horizon 2^m of the doubling grid used for the slope fit.",
    )


def _default_distribution() -> DistributionParams:
    return DistributionParams()


def _all_learners() -> list[LearnerName]:
    return list(get_args(LearnerName))


def _default_advanced() -> AdvancedSettings:
    return AdvancedSettings()


class Params(BaseModel):
    """Inputs of one run; the defaults (T = 2^20, 5 seeds, all learners) take about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    distribution: DistributionParams = Field(
        default_factory=_default_distribution, description="Joint distribution of seller and buyer values."
    )
    horizon: int = Field(
        default=1 << 20, ge=1024, le=1 << 26, title="Horizon T", json_schema_extra={"unit": "rounds"},
        description="Number of rounds T, at most 2^26 = 67,108,864. Above 2^20 only the paper's learner and the "
        "fixed price run (streamed), with seeds x T at most 3 x 2^25: 2^25 with 3 seeds or 2^26 with 1 seed take "
        "about 3 minutes on one core, within the server's job time limit (JOB_TIMEOUT_S, 300 s by default).",
    )
    seeds: int = seeds_field(default=5, maximum=10)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Base random seed.")
    learners: list[LearnerName] = Field(
        default_factory=_all_learners,
        min_length=1,
        max_length=len(LEARNER_NAMES),
        description="Learners to run: " + ", ".join(LEARNER_NAMES) + ".",
    )
    grid_size: int = Field(
        default=101, ge=3, le=201, description="K of the benchmark LP grid (K x K price couples)."
    )
    advanced: AdvancedSettings = Field(
        default_factory=_default_advanced, description="Learner constants (phase lengths, grid)."
    )

    @field_validator("learners")
    @classmethod
    def _unique_learners(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("learners: each learner may appear only once")
        return value

    @model_validator(mode="after")
    def _long_horizons_stream(self) -> Params:
        if self.horizon > LONG_HORIZON:
            others = [n for n in self.learners if n not in STREAMED]
            if others:
                raise ValueError(f"horizon above 2^20 runs only {' and '.join(STREAMED)} (streamed); remove "
                                 + ", ".join(others))
            if self.seeds * self.horizon > STREAMED_WORK:
                raise ValueError(f"seeds: {self.seeds} seeds x T = {self.horizon:,} is above 3 x 2^25 rounds (about 3 "
                                 "minutes on one core, the job's time limit); use fewer seeds or a smaller T")
        return self
