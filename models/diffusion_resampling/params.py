"""Parameters of a diffusion-resampling run: particle counts, resamplers, ODE steps, filter sizes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field
from models.diffusion_resampling.resamplers import RESAMPLER_LABELS, ResamplerName

__all__ = ["MAX_GRAPH_ENTRIES", "MAX_MOMENT_WORK", "Params"]

# repeats x N^2 bounds the (repeats, N, N) score and Sinkhorn matrices of experiment 1 (~64 MB each)
MAX_MOMENT_WORK = 1 << 23
# N^2 x graph length bounds the memory of one set's autograd graph (~0.8 GB at the limit)
MAX_GRAPH_ENTRIES = 1 << 26


def _default_particles() -> list[int]:
    return [32, 128, 512]


def _all_resamplers() -> list[ResamplerName]:
    return ["multinomial", "systematic", "soft", "gumbel", "ot", "diffusion"]


class Params(BaseModel):
    """Inputs of one run; the defaults take about 20-25 s on one core."""

    model_config = ConfigDict(extra="forbid")

    particles: list[Annotated[int, Field(ge=8, le=1024)]] = Field(
        default_factory=_default_particles, min_length=1, max_length=6,
        title="Particle counts N (moment experiment)",
        description="Particle counts N of the moment experiment (each 8 to 1024).",
    )
    resamplers: list[ResamplerName] = Field(
        default_factory=_all_resamplers, min_length=1, max_length=6,
        title="Resamplers",
        json_schema_extra={"choices": dict(RESAMPLER_LABELS)},
        description="Resamplers to compare: " + ", ".join(RESAMPLER_LABELS) + ".",
    )
    ode_steps: int = Field(
        default=32, ge=2, le=128, title="Diffusion (moment experiment): Euler steps",
        description="Euler steps of the diffusion resampler's probability-flow ODE in the moment experiment (the "
        "paper uses 4 to 128; 8 steps leave the moment error twice the weighted set's). The filter benchmark "
        "tunes T and the steps on the reference's grid.",
    )
    diffusion_time: float = Field(
        default=3.0, ge=0.5, le=8.0, title="Diffusion (moment experiment): horizon T",
        description="Horizon T of the OU noising process in the moment experiment (rate a = -1; the reference is "
        "reached up to e^-T).",
    )
    observations: int = Field(
        default=32, ge=8, le=256, title="Benchmark: observations per series",
        description="Length of each simulated series in the paper's LGSSM benchmark (the paper: 128).",
    )
    data_sets: int = Field(
        default=8, ge=2, le=64, title="Benchmark: data sets per seed",
        description="Simulated series per seed, each filtered by every tuned resampler with the same random numbers "
        "(the unit of the paired comparison; the paper: 100 Monte Carlo runs).",
    )
    tuning_data_sets: int = Field(
        default=4, ge=1, le=32, title="Benchmark: tuning data sets",
        description="Series of their own on which each resampler's knob is chosen on its grid (lowest mean "
        "landscape error); never reused for evaluation.",
    )
    grid_points: int = Field(
        default=9, ge=3, le=33, title="Benchmark: theta grid points",
        description="Points of the theta grid on [0.4, 0.6] (odd: the middle one is the true 0.5) over which the "
        "log-likelihood landscape is compared with the Kalman filter (the paper: 128 x 128 over two parameters).",
    )
    sinkhorn_iterations: int = Field(default=30, ge=5, le=200, title="Sinkhorn iterations", description="Sinkhorn iterations per OT resampling.")
    moment_repeats: int = Field(
        default=8, ge=2, le=64, title="Weighted sets per N", description="Independent weighted sets per N in the moment experiment."
    )
    filter_steps: int = Field(
        default=25, ge=5, le=200, title="Filter time steps K", description="Time steps K of the linear-Gaussian state-space model."
    )
    filter_particles: int = Field(default=32, ge=8, le=256, title="Filter particles", description="Particles of the bootstrap filter.")
    gradient_repeats: int = Field(
        default=64, ge=2, le=512, title="Filters per resampler (gradient)",
        description="Independent filters per resampler for the gradient error; the claims need at least 64. "
        "Filter b of every resampler sees the same propagation noise (paired comparison).",
    )
    theta_eval: float = Field(
        default=0.5, ge=-0.9, le=0.9, title="theta where dl/dtheta is estimated", description="Transition coefficient theta at which dl/dtheta is estimated."
    )
    estimation_iterations: int = Field(
        default=0, ge=0, le=200, title="Adam steps (estimation)",
        description="Adam steps of parameter estimation through the filter (0 = skip; an example runs 10).",
    )
    estimation_repeats: int = Field(default=2, ge=1, le=16, title="Filters optimised per resampler", description="Independent filters optimised per resampler.")
    learning_rate: float = Field(default=0.05, ge=0.001, le=0.5, title="Adam learning rate", description="Adam learning rate for theta.")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Base seed",
                      description="Base seed (data, particles, resampling); seed k of a run uses seed + k.")
    seeds: int = seeds_field(default=1, maximum=5)

    @field_validator("particles")
    @classmethod
    def _particle_counts(cls, value: list[int]) -> list[int]:
        for n in value:
            if not 8 <= n <= 1024:
                raise ValueError(f"particles: N = {n} is outside [8, 1024]")
        if len(set(value)) != len(value):
            raise ValueError("particles: each N may appear only once")
        return sorted(value)

    @field_validator("grid_points")
    @classmethod
    def _odd_grid(cls, value: int) -> int:
        if value % 2 == 0:
            raise ValueError(f"grid_points: {value} is even; an odd count puts the true theta 0.5 in the middle")
        return value

    @field_validator("resamplers")
    @classmethod
    def _unique_resamplers(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("resamplers: each resampler may appear only once")
        return value
