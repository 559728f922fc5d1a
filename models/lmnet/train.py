"""Training of one variant on a few labels: Adam for a fixed step budget, early stopping on held-out labels.

Every variant (LMNet's edge, the text pipeline's edge, full fine-tuning, LoRA) is trained the same way:
the labelled words are split into a training part and a held-out part (a fifth, at least 5 words);
the held-out exact match is measured before the first step and every `eval_every` steps, and the
trainable weights of the best point are restored at the end. Step 0 is a candidate, so a variant
whose training only hurts keeps its untrained weights (as a practitioner with a held-out split would).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from models.common.contract import Progress

__all__ = ["BATCH", "Adam", "Split", "TrainOutcome", "exact_match", "split_labels", "train_early_stopped"]

BATCH = 32
Head = Callable[[torch.Tensor], torch.Tensor]


@dataclass(frozen=True)
class Split:
    """Indices of the labelled words used for training and for early stopping."""

    train: np.ndarray
    held_out: np.ndarray


@dataclass(frozen=True)
class TrainOutcome:
    """Held-out exact match before training and at the restored step."""

    untrained_held_out: float
    best_held_out: float
    best_step: int


def split_labels(n: int) -> Split:
    """The last fifth of the n labelled words (at least 5) is held out for early stopping."""
    held = max(5, n // 5)
    return Split(train=np.arange(n - held), held_out=np.arange(n - held, n))


def exact_match(logits: torch.Tensor, target: torch.Tensor) -> float:
    """Share of words whose every letter is right."""
    return float((logits.argmax(-1) == target).all(dim=1).float().mean())


def _score(head: Head, inputs: torch.Tensor, target: torch.Tensor) -> tuple[float, float]:
    """(exact match, letter accuracy): the second breaks ties between checkpoints."""
    with torch.no_grad():
        predicted = head(inputs).argmax(-1)
    return float((predicted == target).all(dim=1).float().mean()), float((predicted == target).float().mean())


class Adam:
    """Adam (Kingma and Ba 2015) written out: the same update as torch.optim.Adam with default betas, without
    importing torch.optim, whose first import costs several seconds of a short run."""

    def __init__(self, params: Sequence[torch.Tensor], lr: float, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:
        self.params, self.lr, self.betas, self.eps, self.t = list(params), lr, betas, eps, 0
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]

    @torch.no_grad()
    def step(self) -> None:
        self.t += 1
        b1, b2 = self.betas
        for p, m, v in zip(self.params, self.m, self.v, strict=True):
            if p.grad is None:
                continue
            m.mul_(b1).add_(p.grad, alpha=1 - b1)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
            denom = (v / (1 - b2 ** self.t)).sqrt_().add_(self.eps)
            p.addcdiv_(m, denom, value=-self.lr / (1 - b1 ** self.t))

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None


def train_early_stopped(module: torch.nn.Module, head: Head, inputs: torch.Tensor, target: torch.Tensor,
                        split: Split, *, steps: int, lr: float, rng: np.random.Generator, progress: Progress,
                        eval_every: int = 25) -> TrainOutcome:
    """Adam on the trainable weights of `module` (through `head`), best held-out checkpoint restored."""
    params = [p for p in module.parameters() if p.requires_grad]
    optimiser = Adam(params, lr=lr)
    train_x, train_y = inputs[split.train], target[split.train]
    val_x, val_y = inputs[split.held_out], target[split.held_out]
    module.eval()
    best_score = _score(head, val_x, val_y)
    untrained = best_score[0]
    best_state, best_step = copy.deepcopy([p.detach().clone() for p in params]), 0
    per_epoch = max(1, math.ceil(len(train_y) / BATCH))
    batches: list[np.ndarray] = []
    for step in range(1, steps + 1):
        if not batches:
            batches.extend(np.array_split(rng.permutation(len(train_y)), per_epoch))
        idx = torch.as_tensor(batches.pop(), device=target.device)
        module.train()
        loss = F.cross_entropy(head(train_x[idx]).flatten(0, 1), train_y[idx].flatten())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % eval_every == 0 or step == steps:
            module.eval()
            score = _score(head, val_x, val_y)
            if score > best_score:
                best_score, best_step = score, step
                best_state = [p.detach().clone() for p in params]
            progress(step / steps, f"step {step}/{steps}, held-out exact match {best_score[0]:.0%}")
    with torch.no_grad():
        for p, best in zip(params, best_state, strict=True):
            p.copy_(best)
    module.eval()
    return TrainOutcome(untrained_held_out=untrained, best_held_out=best_score[0], best_step=best_step)
