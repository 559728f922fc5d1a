"""The four learners on one class-incremental stream: naive fine-tuning, replay, full and selective upcycling.

All four start from the same initial weights and see the same batches of the same tasks. After each
task t the accuracy on every task j fills R[t, j] (10-way arg-max: class-incremental, no task id),
and the per-layer linear CKA between the block outputs before and after task t, on the test inputs
of the earlier tasks, measures how far old representations drifted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import torch
import torch.nn.functional as F

from models.common.continual import (
    AccuracyMatrix,
    ReplayBuffer,
    Task,
    accuracy,
    linear_cka,
    minibatches,
    to_tensors,
)
from models.common.contract import Progress
from models.moe_upcycling.network import FFN, MoEBlock, UpcycleNet, ffn_parameters, router_parameters
from models.moe_upcycling.params import Params
from models.moe_upcycling.search import ExpertMask

__all__ = ["LEARNERS", "LearnerName", "LearnerOutcome", "train_learner"]

LearnerName = Literal["naive", "replay", "full_upcycling", "selective"]
LEARNERS: tuple[LearnerName, ...] = ("naive", "replay", "full_upcycling", "selective")
BATCH = 32
UPCYCLE_AT = 1  # the experts are added when the second task arrives (the first model is "pre-trained")


@dataclass
class LearnerOutcome:
    name: LearnerName
    matrix: AccuracyMatrix
    added_parameters: int
    cka_per_transition: list[list[float]] = field(default_factory=list)  # [task t >= 1][layer]
    kept_blocks: list[list[int]] = field(default_factory=list)  # selective: kept copies per layer
    keep_probability: list[list[float]] = field(default_factory=list)  # selective: final sigmoid(a)
    search_trace: list[float] = field(default_factory=list)  # selective: expected kept blocks per outer step


def _cka_penalty(model: UpcycleNet, previous: UpcycleNet, x: torch.Tensor) -> torch.Tensor:
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


class _Trainer:
    """One learner's state across the stream: model, optimiser, replay buffer and generators."""

    def __init__(self, name: LearnerName, params: Params, device: str, init_state: dict[str, torch.Tensor]):
        self.name = name
        self.params = params
        self.device = device
        self.rng = np.random.default_rng([params.seed, 1])  # the same batches for every learner
        self.torch_gen = torch.Generator().manual_seed(params.seed + 17)
        self.model = UpcycleNet(64, params.width, params.layers, 10, torch.Generator().manual_seed(0)).to(device)
        self.model.load_state_dict(init_state)
        self.buffer = ReplayBuffer(params.buffer_size, 64, np.random.default_rng([params.seed, 2]))
        self.uses_replay = name != "naive"

    def optimiser(self) -> torch.optim.Optimizer:
        trainable = [p for p in self.model.parameters() if p.requires_grad]
        return torch.optim.Adam(trainable, lr=self.params.learning_rate)

    def step_loss(
        self, xb: torch.Tensor, yb: torch.Tensor, previous: UpcycleNet | None, masks: list[torch.Tensor | None] | None
    ) -> torch.Tensor:
        logits, _ = self.model(xb, masks)
        loss = F.cross_entropy(logits, yb)
        if self.uses_replay and len(self.buffer):
            rx, ry = to_tensors(*self.buffer.sample(BATCH), self.device)
            replay_logits, _ = self.model(rx, masks)
            loss = loss + F.cross_entropy(replay_logits, ry)
            if self.name == "selective" and previous is not None and self.params.cka_weight > 0:
                loss = loss + self.params.cka_weight * _cka_penalty(self.model, previous, rx)
        return loss

    def train_epochs(
        self, x: torch.Tensor, y: torch.Tensor, epochs: int, previous: UpcycleNet | None, tick: Callable[[], None]
    ) -> None:
        opt = self.optimiser()
        for _ in range(epochs):
            for idx in minibatches(len(y), BATCH, self.rng):
                opt.zero_grad()
                self.step_loss(x[idx], y[idx], previous, None).backward()
                opt.step()
            tick()


def _search(trainer: _Trainer, x: torch.Tensor, y: torch.Tensor, previous: UpcycleNet, epochs: int,
            outcome: LearnerOutcome, tick: Callable[[], None]) -> None:
    """Bilevel search on the new task: inner weight steps, outer mask steps on held-out data; then prune."""
    p = trainer.params
    copies, width = p.experts - 1, p.width
    mask = ExpertMask(p.layers, copies).to(trainer.device)
    block_cost = float(ffn_parameters(width) + width + 1)
    full_cost = float(p.layers * (copies * ffn_parameters(width) + router_parameters(width, p.experts)))
    held = trainer.rng.permutation(len(y))
    cut = max(1, len(y) // 5)
    val_idx, inner_idx = held[:cut], held[cut:]
    weights_opt = trainer.optimiser()
    mask_opt = torch.optim.Adam(mask.parameters(), lr=0.1)
    for _ in range(epochs):
        for idx in minibatches(len(inner_idx), BATCH, trainer.rng):
            sample = mask.sample(trainer.torch_gen).detach()
            weights_opt.zero_grad()
            trainer.step_loss(x[inner_idx[idx]], y[inner_idx[idx]], previous, list(sample)).backward()
            weights_opt.step()
            vb = trainer.rng.choice(val_idx, size=min(BATCH, val_idx.size), replace=False)
            sample = mask.sample(trainer.torch_gen)
            mask_opt.zero_grad()
            val_loss = trainer.step_loss(x[vb], y[vb], None, list(sample))
            (val_loss + p.param_penalty * mask.expected_cost_fraction(block_cost, full_cost)).backward()
            mask_opt.step()
            trainer.model.zero_grad(set_to_none=True)
            outcome.search_trace.append(float(mask.keep_probability().sum().detach()))
        tick()
    outcome.keep_probability = mask.keep_probability().detach().cpu().tolist()
    outcome.kept_blocks = mask.kept()
    for layer, kept in enumerate(outcome.kept_blocks):
        block = trainer.model.blocks[layer]
        assert isinstance(block, MoEBlock)
        if kept:
            block.keep_only(kept)
        else:  # nothing kept: the layer stays a dense FFN, trainable again
            original = block.experts[0]
            assert isinstance(original, FFN)
            for param in original.parameters():
                param.requires_grad_(True)
            trainer.model.blocks[layer] = original


def train_learner(
    name: LearnerName, tasks: list[Task], params: Params, device: str,
    init_state: dict[str, torch.Tensor], progress: Progress,
) -> LearnerOutcome:
    """Train one learner through the stream and measure R, CKA drift and added parameters."""
    trainer = _Trainer(name, params, device, init_state)
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
        if t == UPCYCLE_AT and name in ("full_upcycling", "selective"):
            trainer.model.upcycle(list(range(params.layers)), params.experts - 1)
        if t == UPCYCLE_AT and name == "selective":
            assert previous is not None
            search_epochs = max(1, epochs // 2)
            _search(trainer, x, y, previous, search_epochs, outcome, tick)
            epochs -= search_epochs
        trainer.train_epochs(x, y, epochs, previous, tick)
        trainer.model.eval()
        with torch.no_grad():
            for j, (tx, ty) in enumerate(tests):
                outcome.matrix.record(t, j, accuracy(trainer.model(tx)[0], ty))
            if previous is not None:
                old_x = torch.cat([tests[j][0] for j in range(t)])
                outcome.cka_per_transition.append(_layer_cka(trainer.model, previous, old_x))
        trainer.model.train()
        if trainer.uses_replay:
            trainer.buffer.add(task.x_train, task.y_train)
    outcome.added_parameters = trainer.model.added_parameters()
    return outcome
