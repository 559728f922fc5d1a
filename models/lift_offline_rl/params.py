"""Parameters of the LIFT comparison: task, logged trajectories, augmentation switches, learner budget."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from models.common.seeds import seeds_field

__all__ = ["Params"]

TrajectoryCount = Annotated[int, Field(ge=2, le=200)]


def _default_sweep() -> list[int]:
    return []  # each extra count costs two trainings: the curve is offered as a named example


class Params(BaseModel):
    """Inputs of one run; the defaults (partial observation, 10 logs, 3 seeds: one seed is not the paper's effect)
    take about 25 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dimension: Literal[2, 4, 8] = Field(default=4, title="Dimension D",
                                        json_schema_extra={"choices": {"2": "2-D", "4": "4-D", "8": "8-D"}},
                                        description="D: dimensions of the positioning task.")
    trajectories: int = Field(default=10, ge=2, le=200, title="Logged trajectories (budget)",
                              description="Trajectory budget of every data set: LIFT logs half with the walk, trains "
                              "its augmentor on them, and collects the other half with the augmentor taking over.")
    partial_observation: bool = Field(
        default=True, title="Partial observation (saturating sensor)",
        description="Observe a saturating sensor clip((x - target) / 0.2, -1, 1) instead of the displacement: far "
        "from the target only the sign of each coordinate is seen.",
    )
    ablations: bool = Field(
        default=False, title="Ablations (3 more learners per seed)",
        description="Also train on the raw logs plus shortcuts (no augmentor), on the augmented collection without "
        "shortcuts, and behaviour cloning on the LIFT-SC data.",
    )
    trajectory_sweep: list[TrajectoryCount] = Field(
        default_factory=_default_sweep, max_length=6, title="Other numbers of logs (success curve, first seed)",
        description="Extra numbers of logged trajectories for the success-rate curve (each in [2, 200]; two "
        "trainings each, first seed only).",
    )
    train_steps: int = Field(default=1200, ge=50, le=20000, title="TD3+BC steps per learner",
                             description="TD3+BC gradient steps (batch 256) per learner.")
    alpha: float = Field(default=2.5, ge=0.0, le=10.0, title="TD3+BC alpha (Q weight)",
                         description="alpha of TD3+BC's actor loss -alpha Q / mean|Q| + (a - pi(s))^2; 2.5 is the "
                         "paper's and d3rlpy's default, 0 is behaviour cloning.")
    evaluations: int = Field(default=6, ge=1, le=20, title="Checkpoints (validation evaluations)",
                             description="Validation evaluations per learner (100 seeded episodes apart from the test "
                             "ones); the best checkpoint is kept. Also the learning-curve points (first seed).")
    eval_episodes: int = Field(default=200, ge=10, le=2000, title="Evaluation episodes",
                               description="Evaluation episodes (seeded starts and targets).")
    seeds: int = seeds_field(default=3, maximum=5)
    seed: int = Field(default=0, ge=0, le=2**31 - 1, title="Seed",
                      description="Base seed of the logs, the learners and the evaluation.")

    @field_validator("trajectory_sweep")
    @classmethod
    def _sorted(cls, value: list[int]) -> list[int]:
        return sorted(set(value))
