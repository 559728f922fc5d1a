"""Train a model for a number of steps or a wall-clock budget, whichever ends first."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import torch

from models.common.contract import Progress, no_progress

__all__ = ["TrainLog", "train_budgeted"]


@dataclass
class TrainLog:
    """What a budgeted training run did: steps taken, the loss of each step, why it stopped."""

    steps: int = 0
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    stopped_by: Literal["steps", "time"] = "steps"


def train_budgeted(
    model: torch.nn.Module,
    loss_of_step: Callable[[int], torch.Tensor],
    *,
    max_steps: int,
    time_budget_s: float | None = None,
    lr: float = 1e-3,
    weight_decay: float = 0.0,
    progress: Progress = no_progress,
    report_every: int = 50,
    clock: Callable[[], float] = time.perf_counter,
) -> TrainLog:
    """Adam on `loss_of_step(step)` for at most `max_steps` steps and `time_budget_s` seconds.

    `loss_of_step` draws its own (seeded) batch and returns the scalar loss. Only parameters with
    `requires_grad` are optimised, so frozen parts stay frozen. Progress is reported every
    `report_every` steps as the larger of the step and time fractions.
    """
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    log = TrainLog()
    start = clock()
    model.train()
    for step in range(max_steps):
        elapsed = clock() - start
        if time_budget_s is not None and elapsed >= time_budget_s:
            log.stopped_by = "time"
            break
        optimizer.zero_grad(set_to_none=True)
        loss = loss_of_step(step)
        loss.backward()
        optimizer.step()
        log.losses.append(float(loss.detach()))
        log.steps = step + 1
        if step % report_every == 0 or step == max_steps - 1:
            fraction = (step + 1) / max_steps
            if time_budget_s:
                fraction = max(fraction, elapsed / time_budget_s)
            progress(min(fraction, 1.0), f"step {step + 1}/{max_steps}, loss {log.losses[-1]:.4f}")
    model.eval()
    log.seconds = clock() - start
    return log
