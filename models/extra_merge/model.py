"""A small causal transformer language model and its training with a warm-up + cosine schedule and checkpoints."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.common.contract import Progress, no_progress
from models.extra_merge.corpus import Corpus

__all__ = [
    "DECAY_SHARE",
    "TinyTransformer",
    "TrainingRun",
    "evaluate",
    "learning_rate_factor",
    "token_losses",
    "train",
]


class _Block(nn.Module):
    """Pre-norm block: causal multi-head self-attention, then a 4x GELU MLP."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
        self.up, self.down = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        qkv = self.qkv(self.norm1(x)).view(batch, length, 3, self.heads, width // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        attended = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(attended.transpose(1, 2).reshape(batch, length, width))
        return x + self.down(nn.functional.gelu(self.up(self.norm2(x))))


class TinyTransformer(nn.Module):
    """Token + learned position embeddings, `layers` blocks, a final norm and an untied output head."""

    def __init__(self, vocab: int, context: int, width: int, layers: int, heads: int) -> None:
        super().__init__()
        self.token = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.zeros(context, width))
        self.blocks = nn.ModuleList([_Block(width, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.token(tokens) + self.position[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))

    def matrices(self) -> list[nn.Parameter]:
        """The 2-D weights inside the blocks (what Muon orthogonalises)."""
        return [p for block in self.blocks for p in block.parameters() if p.ndim == 2]


def _initialise(model: TinyTransformer, generator: torch.Generator) -> None:
    """GPT-2 style N(0, 0.02) weights, zero biases, unit norms, from our generator (no global random state)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.fill_(1.0 if name.endswith("weight") else 0.0)
            elif p.ndim >= 2:
                p.copy_(torch.randn(p.shape, generator=generator) * 0.02)
            else:
                p.zero_()


def _loss(model: nn.Module, tokens: torch.Tensor) -> torch.Tensor:
    logits = model(tokens[:, :-1])
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))


def evaluate(model: TinyTransformer, flat: torch.Tensor, tokens: torch.Tensor) -> float:
    """Mean next-token cross-entropy (nats/token) of the model with parameters `flat` on `tokens`."""
    with torch.no_grad():
        torch.nn.utils.vector_to_parameters(flat, model.parameters())
        return float(_loss(model, tokens))


def token_losses(model: TinyTransformer, flat: torch.Tensor, tokens: torch.Tensor) -> np.ndarray:
    """Next-token cross-entropy (nats) of every predicted token, flattened in (sequence, position) order."""
    with torch.no_grad():
        torch.nn.utils.vector_to_parameters(flat, model.parameters())
        logits = model(tokens[:, :-1])
        losses = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1),
                                             reduction="none")
    return losses.double().numpy()


DECAY_SHARE = 0.2  # warm-up-stable-decay: the linear decay to 0 takes the last 20% of the steps


def learning_rate_factor(step: int, steps: int, warmup: int, schedule: str = "cosine") -> float:
    """Linear warm-up to 1 over `warmup` steps, then cosine decay to 0 at the last step ("cosine"), or constant
    until the last `DECAY_SHARE` of the steps and linear decay to 0 there ("wsd")."""
    if step <= warmup:
        return step / warmup
    if schedule == "wsd":
        decay_start = steps * (1.0 - DECAY_SHARE)
        return 1.0 if step <= decay_start else max(steps - step, 0) / (steps - decay_start)
    progress = (step - warmup) / max(steps - warmup, 1)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


def _optimizers(model: TinyTransformer, name: str, lr: float) -> list[torch.optim.Optimizer]:
    if name == "adam":
        return [torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95), weight_decay=0.0)]
    matrices = model.matrices()
    ids = {id(p) for p in matrices}
    others = [p for p in model.parameters() if id(p) not in ids]
    return [torch.optim.Muon(matrices, lr=lr * 5, weight_decay=0.0),
            torch.optim.AdamW(others, lr=lr, betas=(0.9, 0.95), weight_decay=0.0)]


@dataclass
class TrainingRun:
    """Flattened parameters at every checkpoint (row k = after steps[k] steps) and the loss curves."""

    checkpoints: np.ndarray  # float32, (checkpoints, parameters)
    checkpoint_steps: list[int]
    train_loss: list[float]  # mini-batch loss, every step
    val_loss: list[float]  # at every checkpoint
    learning_rate: list[float]  # peak-relative factor at every checkpoint
    seconds_per_step: float


def train(corpus: Corpus, *, width: int, layers: int, lr: float, steps: int, batch_size: int, checkpoint_every: int,
          optimizer: str, seed: int, schedule: str = "cosine", progress: Progress = no_progress) -> tuple[TinyTransformer, TrainingRun]:
    """Train from a seeded initialisation with a seeded batch order; keep every k-th parameter vector."""
    generator = torch.Generator().manual_seed(seed)
    model = TinyTransformer(corpus.vocab, corpus.train.shape[1] - 1, width, layers, heads=max(width // 16, 1))
    _initialise(model, generator)
    train_tokens, val_tokens = torch.as_tensor(corpus.train), torch.as_tensor(corpus.val)
    optimizers = _optimizers(model, optimizer, lr)
    for opt in optimizers:
        for group in opt.param_groups:
            group["base_lr"] = group["lr"]
    warmup = max(steps // 20, 1)
    checkpoints, checkpoint_steps, train_loss, val_loss, factors = [], [], [], [], []
    start = time.perf_counter()
    for step in range(1, steps + 1):
        factor = learning_rate_factor(step, steps, warmup, schedule)
        batch = train_tokens[torch.randint(0, train_tokens.shape[0], (batch_size,), generator=generator)]
        loss = _loss(model, batch)
        for opt in optimizers:
            opt.zero_grad(set_to_none=True)
        loss.backward()
        for opt in optimizers:
            for group in opt.param_groups:
                group["lr"] = group["base_lr"] * factor
            opt.step()
        train_loss.append(float(loss.detach()))
        if step % checkpoint_every == 0:
            checkpoints.append(torch.nn.utils.parameters_to_vector(model.parameters()).detach().numpy().copy())
            checkpoint_steps.append(step)
            factors.append(factor)
            with torch.no_grad():
                val_loss.append(float(_loss(model, val_tokens)))
            progress(step / steps, f"step {step}/{steps}, validation loss {val_loss[-1]:.4f}")
    elapsed = time.perf_counter() - start
    run = TrainingRun(np.stack(checkpoints), checkpoint_steps, train_loss, val_loss, factors, elapsed / steps)
    return model, run
