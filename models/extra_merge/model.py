"""The next-token model (an MLP over the embedded three-token context) and its training with checkpoints."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.common.contract import Progress, no_progress
from models.extra_merge.corpus import CONTEXT, VOCAB, Corpus

__all__ = ["NextTokenMLP", "TrainingRun", "evaluate", "train"]


class NextTokenMLP(nn.Module):
    """logits = W2 relu(W1 [E x1; E x2; E x3] + b1) + b2."""

    def __init__(self, hidden: int, embedding: int = 16) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, embedding)
        self.hidden = nn.Linear(CONTEXT * embedding, hidden)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, context: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(self.embed(context).flatten(1))))


@dataclass
class TrainingRun:
    """Flattened parameters at every checkpoint (row k = after steps[k] steps) and the loss curves."""

    checkpoints: np.ndarray
    checkpoint_steps: list[int]
    train_loss: list[float]  # mini-batch loss, every step
    val_loss: list[float]  # at every checkpoint
    seconds_per_step: float


def evaluate(model: NextTokenMLP, flat: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> float:
    """Mean cross-entropy (nats/token) of the model with parameters `flat` on (x, y)."""
    with torch.no_grad():
        torch.nn.utils.vector_to_parameters(flat, model.parameters())
        return float(nn.functional.cross_entropy(model(x), y))


def _initialise(model: NextTokenMLP, generator: torch.Generator) -> None:
    """PyTorch's default scheme (uniform, bound 1/sqrt(fan_in); N(0, 1) embeddings) from our generator,
    so the initialisation does not touch the global random state."""
    with torch.no_grad():
        model.embed.weight.copy_(torch.randn(model.embed.weight.shape, generator=generator))
        for layer in (model.hidden, model.out):
            bound = 1.0 / layer.in_features**0.5
            for tensor in (layer.weight, layer.bias):
                tensor.copy_((torch.rand(tensor.shape, generator=generator) * 2 - 1) * bound)


def _optimizers(model: NextTokenMLP, name: str, lr: float) -> list[torch.optim.Optimizer]:
    if name == "adam":
        return [torch.optim.Adam(model.parameters(), lr=lr)]
    matrices = [model.hidden.weight, model.out.weight]
    others = [model.embed.weight, model.hidden.bias, model.out.bias]
    return [torch.optim.Muon(matrices, lr=lr * 10, weight_decay=0.0), torch.optim.Adam(others, lr=lr)]


def train(
    corpus: Corpus,
    *,
    hidden: int,
    lr: float,
    steps: int,
    batch_size: int,
    checkpoint_every: int,
    optimizer: str,
    seed: int,
    device: str,
    progress: Progress = no_progress,
) -> tuple[NextTokenMLP, TrainingRun, dict[str, torch.Tensor]]:
    """Train from a seeded initialisation with a seeded batch order; keep every k-th parameter vector."""
    generator = torch.Generator().manual_seed(seed)
    model = NextTokenMLP(hidden)
    _initialise(model, generator)
    model = model.to(device)
    data = {
        name: torch.as_tensor(getattr(corpus, name), device=device)
        for name in ("train_x", "train_y", "val_x", "val_y", "test_x", "test_y")
    }
    optimizers = _optimizers(model, optimizer, lr)
    warmup = max(steps // 20, 1)
    n = data["train_x"].shape[0]
    checkpoints, checkpoint_steps, train_loss, val_loss = [], [], [], []
    start = time.perf_counter()
    for step in range(1, steps + 1):
        index = torch.randint(0, n, (batch_size,), generator=generator).to(device)
        loss = nn.functional.cross_entropy(model(data["train_x"][index]), data["train_y"][index])
        for opt in optimizers:
            opt.zero_grad(set_to_none=True)
        loss.backward()
        scale = min(step / warmup, 1.0)
        for opt in optimizers:
            for group in opt.param_groups:
                group.setdefault("base_lr", group["lr"])
                group["lr"] = group["base_lr"] * scale
            opt.step()
        train_loss.append(float(loss.detach()))
        if step % checkpoint_every == 0:
            flat = torch.nn.utils.parameters_to_vector(model.parameters()).detach().clone()
            checkpoints.append(flat.cpu().numpy().astype(np.float64))
            checkpoint_steps.append(step)
            with torch.no_grad():
                val_loss.append(float(nn.functional.cross_entropy(model(data["val_x"]), data["val_y"])))
            progress(step / steps, f"step {step}/{steps}, validation loss {val_loss[-1]:.4f}")
    elapsed = time.perf_counter() - start
    run = TrainingRun(np.stack(checkpoints), checkpoint_steps, train_loss, val_loss, elapsed / steps)
    return model, run, data
