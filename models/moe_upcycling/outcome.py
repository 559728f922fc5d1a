"""What one learner's run on the stream produced (the record the search fills in and the result reads)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from models.common.continual import AccuracyMatrix

__all__ = ["LEARNERS", "LearnerName", "LearnerOutcome"]

LearnerName = Literal["naive", "replay", "lwf", "full_upcycling", "selective"]
LEARNERS: tuple[LearnerName, ...] = ("naive", "replay", "lwf", "full_upcycling", "selective")

@dataclass
class LearnerOutcome:
    name: LearnerName
    matrix: AccuracyMatrix
    added_parameters: int
    cka_per_transition: list[list[float]] = field(default_factory=list)  # [task t >= 1][layer]
    kept_blocks: list[list[int]] = field(default_factory=list)  # selective: kept copies per layer
    keep_probability: list[list[float]] = field(default_factory=list)  # selective: final sigmoid(a)
    search_trace: list[float] = field(default_factory=list)  # selective: expected kept blocks per outer step
    probe_drift: list[float] = field(default_factory=list)  # selective: 1 - CKA per block after the probe
    candidates: list[int] = field(default_factory=list)  # selective: CKA-selected layers
    correct: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)  # (after task t, task j): 0/1 per image
    outer_steps: int = 0
    search_seconds: float = 0.0
    seconds: float = 0.0
