"""The five learners on one class-incremental stream: naive fine-tuning, replay, LwF, full and selective upcycling.

All five start from the same initial weights and see the same batches of the same tasks. After each
task t the accuracy on every task j fills R[t, j] (10-way arg-max: class-incremental, no task id),
and the per-layer linear CKA between the block outputs before and after task t, on the test inputs
of the earlier tasks, measures how far old representations drifted.
* LwF (Li & Hoiem 2017; Avalanche's `LwF`): cross-entropy plus alpha T^2 KL(previous || current) of the
  old classes' logits at temperature T on the new task's inputs; no replay.
* Full upcycling (+ replay): every block becomes an MoE when the second task arrives.
* Selective (+ replay): the CKA probe sets where the mask over every layer's copies starts, the annealed
  mask search decides, pruning (`search.py`), and the CKA penalty 1 - CKA(old, new) on replay inputs in
  the inner loss.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F

from models.common.continual import (
    AccuracyMatrix,
    ReplayBuffer,
    Task,
    linear_cka,
    minibatches,
    to_tensors,
)
from models.common.contract import Progress
from models.moe_upcycling.network import UpcycleNet
from models.moe_upcycling.outcome import LEARNERS, LearnerName, LearnerOutcome
from models.moe_upcycling.params import Params
from models.moe_upcycling.selective import search_and_prune

__all__ = ["LEARNERS", "LearnerName", "LearnerOutcome", "train_learner"]

BATCH = 32
UPCYCLE_AT = 1  # the experts are added when the second task arrives (the first model is "pre-trained")
LWF_ALPHA, LWF_T = 1.0, 2.0


def cka_penalty(model: UpcycleNet, previous: UpcycleNet, x: torch.Tensor) -> torch.Tensor:
    """1 - mean_l CKA(old block-l output, new block-l output) on replay inputs."""
    with torch.no_grad():
        _, old = previous(x)
    _, new = model(x)
    return 1.0 - torch.stack([linear_cka(o, n) for o, n in zip(old, new, strict=True)]).mean()


def _layer_cka(model: UpcycleNet, previous: UpcycleNet, x: torch.Tensor) -> list[float]:
    with torch.no_grad():
        _, old = previous(x)
        _, new = model(x)
    return [float(linear_cka(o.double(), n.double())) for o, n in zip(old, new, strict=True)]


def lwf_loss(logits: torch.Tensor, old_logits: torch.Tensor, old_classes: list[int]) -> torch.Tensor:
    """T^2 KL(softmax(old / T) || softmax(new / T)) over the old classes' logits (Hinton distillation)."""
    if not old_classes:
        return logits.new_zeros(())
    cols = torch.as_tensor(old_classes, device=logits.device)
    target = F.softmax(old_logits[:, cols] / LWF_T, dim=1)
    return LWF_T**2 * F.kl_div(F.log_softmax(logits[:, cols] / LWF_T, dim=1), target, reduction="batchmean")


class Trainer:
    """One learner's state across the stream: model, optimiser, replay buffer and generators."""

    def __init__(self, name: LearnerName, params: Params, seed: int, device: str, init_state: dict[str, torch.Tensor]):
        self.name = name
        self.params = params
        self.device = device
        self.rng = np.random.default_rng([seed, 1])  # the same batches for every learner
        self.torch_gen = torch.Generator().manual_seed(seed + 17)
        self.model = UpcycleNet(64, params.width, params.layers, 10, torch.Generator().manual_seed(0)).to(device)
        self.model.load_state_dict(init_state)
        self.buffer = ReplayBuffer(params.buffer_size, 64, np.random.default_rng([seed, 2]))
        self.uses_replay = name in ("replay", "full_upcycling", "selective")
        self.old_classes: list[int] = []

    def optimiser(self) -> torch.optim.Optimizer:
        trainable = [p for p in self.model.parameters() if p.requires_grad]
        return torch.optim.Adam(trainable, lr=self.params.learning_rate)

    def step_loss(self, xb: torch.Tensor, yb: torch.Tensor, previous: UpcycleNet | None,
                  masks: list[torch.Tensor | None] | None) -> torch.Tensor:
        logits, _ = self.model(xb, masks)
        loss = F.cross_entropy(logits, yb)
        if self.name == "lwf" and previous is not None:
            with torch.no_grad():
                old_logits, _ = previous(xb)
            loss = loss + LWF_ALPHA * lwf_loss(logits, old_logits, self.old_classes)
        if self.uses_replay and len(self.buffer):
            rx, ry = to_tensors(*self.buffer.sample(BATCH), self.device)
            replay_logits, _ = self.model(rx, masks)
            loss = loss + F.cross_entropy(replay_logits, ry)
            if self.name == "selective" and previous is not None and self.params.cka_weight > 0:
                loss = loss + self.params.cka_weight * cka_penalty(self.model, previous, rx)
        return loss

    def train_epochs(self, x: torch.Tensor, y: torch.Tensor, epochs: int, previous: UpcycleNet | None,
                     tick: Callable[[], None]) -> None:
        opt = self.optimiser()
        for _ in range(epochs):
            for idx in minibatches(len(y), BATCH, self.rng):
                opt.zero_grad()
                self.step_loss(x[idx], y[idx], previous, None).backward()
                opt.step()
            tick()


def _record(trainer: Trainer, outcome: LearnerOutcome, t: int, tests: list[tuple[torch.Tensor, torch.Tensor]],
            previous: UpcycleNet | None) -> None:
    trainer.model.eval()
    with torch.no_grad():
        for j, (tx, ty) in enumerate(tests):
            right = (trainer.model(tx)[0].argmax(dim=1) == ty).cpu().numpy().astype(np.float64)
            outcome.correct[(t, j)] = right
            outcome.matrix.record(t, j, float(right.mean()))
        if previous is not None:
            old_x = torch.cat([tests[j][0] for j in range(t)])
            outcome.cka_per_transition.append(_layer_cka(trainer.model, previous, old_x))
    trainer.model.train()


def train_learner(name: LearnerName, tasks: list[Task], params: Params, seed: int, device: str,
                  init_state: dict[str, torch.Tensor], progress: Progress) -> LearnerOutcome:
    """Train one learner through the stream and measure R, CKA drift and added parameters."""
    start = time.perf_counter()
    trainer = Trainer(name, params, seed, device, init_state)
    outcome = LearnerOutcome(name, AccuracyMatrix(len(tasks)), 0)
    tests = [to_tensors(t.x_test, t.y_test, device) for t in tasks]
    total = len(tasks) * params.epochs_per_task
    done = [0]

    def tick() -> None:
        done[0] += 1
        progress(min(done[0] / total, 1.0), f"{name}: epoch {done[0]} of {total}")

    for t, task in enumerate(tasks):
        x, y = to_tensors(task.x_train, task.y_train, device)
        previous = trainer.model.frozen_copy() if t > 0 else None
        epochs = params.epochs_per_task
        if t == UPCYCLE_AT and name == "full_upcycling":
            trainer.model.upcycle(list(range(params.layers)), params.experts - 1)
        if t == UPCYCLE_AT and name == "selective":
            assert previous is not None
            search_and_prune(trainer, x, y, previous, epochs, outcome, tick)
            epochs = 0  # the search's inner steps were this task's training
        trainer.train_epochs(x, y, epochs, previous, tick)
        _record(trainer, outcome, t, tests, previous)
        if trainer.uses_replay:
            trainer.buffer.add(task.x_train, task.y_train)
        trainer.old_classes = sorted({*trainer.old_classes, *task.classes})
    outcome.added_parameters = trainer.model.added_parameters()
    outcome.seconds = time.perf_counter() - start
    return outcome
