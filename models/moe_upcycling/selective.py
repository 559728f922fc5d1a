"""Selective upcycling at the task where experts are added: CKA probe (where the mask starts), annealed bilevel
search over every layer's copies, pruning."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import numpy as np
import torch

from models.common.continual import ReplayBuffer, minibatches, to_tensors
from models.moe_upcycling.network import FFN, MoEBlock, UpcycleNet, ffn_parameters, router_parameters
from models.moe_upcycling.outcome import LearnerOutcome
from models.moe_upcycling.params import Params
from models.moe_upcycling.search import (
    MASK_LR,
    OUTER_STEPS,
    ExpertMask,
    candidate_layers,
    cka_probe,
    initial_logits,
    temperature_at,
)


class Trainer(Protocol):
    """What the search uses of a learner's state (models.moe_upcycling.learners.Trainer has it)."""

    params: Params
    device: str
    rng: np.random.Generator
    torch_gen: torch.Generator
    model: UpcycleNet
    buffer: ReplayBuffer

    def optimiser(self) -> torch.optim.Optimizer: ...

    def step_loss(self, xb: torch.Tensor, yb: torch.Tensor, previous: UpcycleNet | None,
                  masks: list[torch.Tensor | None] | None) -> torch.Tensor: ...

__all__ = ["search_and_prune"]

BATCH = 32


def _prune(model: UpcycleNet, kept_blocks: list[list[int]]) -> None:
    """Keep the chosen copies; a layer with none kept becomes its dense FFN again, trainable."""
    for layer, kept in enumerate(kept_blocks):
        block = model.blocks[layer]
        if not isinstance(block, MoEBlock):
            continue
        if kept:
            block.keep_only(kept)
        else:
            original = block.experts[0]
            assert isinstance(original, FFN)
            for param in original.parameters():
                param.requires_grad_(True)
            model.blocks[layer] = original


def _probe(trainer: Trainer, x: torch.Tensor, y: torch.Tensor) -> list[float]:
    old_x, _ = to_tensors(*trainer.buffer.contents(), trainer.device)
    batches = [torch.as_tensor(b) for b in minibatches(len(y), BATCH, trainer.rng)]
    return cka_probe(trainer.model, x, y, old_x, trainer.params.learning_rate, batches)


def search_and_prune(trainer: Trainer, x: torch.Tensor, y: torch.Tensor, previous: UpcycleNet, epochs: int,
                     outcome: LearnerOutcome, tick: Callable[[], None]) -> None:
    """CKA-guided candidates, then inner weight steps alternating with outer mask steps on held-out data."""
    start = time.perf_counter()
    p = trainer.params
    outcome.probe_drift = _probe(trainer, x, y)
    outcome.candidates = candidate_layers(outcome.probe_drift)  # the CKA-favoured layers (the mask starts high)
    trainer.model.upcycle(list(range(p.layers)), p.experts - 1)  # every layer is searched
    copies, width = p.experts - 1, p.width
    mask = ExpertMask(p.layers, copies, init=initial_logits(outcome.probe_drift, copies)).to(trainer.device)
    block_cost = float(ffn_parameters(width) + width + 1)
    full_cost = float(p.layers * (copies * ffn_parameters(width) + router_parameters(width, p.experts)))
    held = trainer.rng.permutation(len(y))
    cut = max(1, len(y) // 5)
    val_idx, inner_idx = held[:cut], held[cut:]
    weights_opt = trainer.optimiser()
    mask_opt = torch.optim.Adam(mask.parameters(), lr=MASK_LR)
    steps = epochs * -(-len(inner_idx) // BATCH)
    step = 0
    for _ in range(epochs):
        for idx in minibatches(len(inner_idx), BATCH, trainer.rng):
            mask.temperature = temperature_at(step, steps)
            sample = mask.sample(trainer.torch_gen).detach()
            weights_opt.zero_grad()
            trainer.step_loss(x[inner_idx[idx]], y[inner_idx[idx]], previous, list(sample)).backward()
            weights_opt.step()
            for _ in range(OUTER_STEPS):
                vb = trainer.rng.choice(val_idx, size=min(BATCH, val_idx.size), replace=False)
                mask_opt.zero_grad()
                val_loss = trainer.step_loss(x[vb], y[vb], None, list(mask.sample(trainer.torch_gen)))
                (val_loss + p.param_penalty * mask.expected_cost_fraction(block_cost, full_cost)).backward()
                mask_opt.step()
                trainer.model.zero_grad(set_to_none=True)
                outcome.outer_steps += 1
            outcome.search_trace.append(float(mask.keep_probability().sum().detach()))
            step += 1
        tick()
    outcome.keep_probability = mask.keep_probability().detach().cpu().tolist()
    outcome.kept_blocks = mask.kept()
    _prune(trainer.model, outcome.kept_blocks)
    outcome.search_seconds = time.perf_counter() - start
