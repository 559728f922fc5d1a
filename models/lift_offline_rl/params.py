"""Parameters of the LIFT comparison: task, logged trajectories, augmentation switches, learner budget."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["Params"]

TrajectoryCount = Annotated[int, Field(ge=2, le=200)]


def _default_sweep() -> list[int]:
    return []  # each extra count costs two trainings: the curve is offered as a named example


class Params(BaseModel):
    """Inputs of one run; the defaults finish in about 20 s on one core."""

    model_config = ConfigDict(extra="forbid")

    dimension: Literal[2, 4, 8] = Field(default=4, description="D: dimensions of the positioning task.")
    trajectories: int = Field(default=50, ge=2, le=200, description="Logged trajectories of the scripted policy.")
    partial_observation: bool = Field(
        default=False,
        description="Observe a saturating sensor clip((x - target) / 0.2, -1, 1) instead of the displacement.",
    )
    help_logging: bool = Field(
        default=True,
        description="Help the logging policy during collection (probe moves, then straight to the trilaterated "
        "target) for the augmented data set; the raw data set is always the unhelped walk.",
    )
    trajectory_sweep: list[TrajectoryCount] = Field(
        default_factory=_default_sweep, max_length=6,
        description="Extra numbers of logged trajectories for the success-rate curve (each in [2, 200]; two "
        "trainings each).",
    )
    train_steps: int = Field(default=2000, ge=50, le=20000, description="TD3+BC gradient steps (batch 256) per learner.")
    evaluations: int = Field(default=5, ge=1, le=20, description="Points of the learning curves (evaluations per learner).")
    eval_episodes: int = Field(default=200, ge=10, le=2000, description="Evaluation episodes (seeded starts and targets).")
    seed: int = Field(default=0, ge=0, le=2**31 - 1, description="Seed of the logs, the learners and the evaluation.")

    @field_validator("trajectory_sweep")
    @classmethod
    def _sorted(cls, value: list[int]) -> list[int]:
        return sorted(set(value))
