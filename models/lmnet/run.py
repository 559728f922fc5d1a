"""One LMNet run: load the frozen nodes, train dense / text / single variants at each label count."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F

from models.common.contract import MethodInputError, Progress
from models.common.device import torch_device
from models.common.progress import MonotoneProgress
from models.common.tiny import train_budgeted
from models.lmnet.languages import BASE, WORD_LENGTH, composed_target, random_words
from models.lmnet.network import (
    DenseNetwork,
    SingleModel,
    TextPipeline,
    gradient_report,
    trainable_parameters,
)
from models.lmnet.nodes import VOCAB, load_nodes
from models.lmnet.params import Params
from models.lmnet.result import Gradients, LabelRow, Result

__all__ = ["BATCH", "MAX_STEPS", "TEST_WORDS", "run", "total_steps"]

BATCH = 32
TEST_WORDS = 500
MAX_STEPS = 6000  # optimiser steps of one run, all variants and label counts together
LEARNING_RATE = 3e-3


def total_steps(params: Params) -> int:
    return 3 * sum(params.epochs * math.ceil(n / BATCH) for n in params.labels)


def _exact_match(logits: torch.Tensor, target: torch.Tensor) -> float:
    return float((logits.argmax(-1) == target).all(dim=1).float().mean())


def _train(module: torch.nn.Module, head: Callable[[torch.Tensor], torch.Tensor], inputs: torch.Tensor,
           target: torch.Tensor, *, epochs: int, rng: np.random.Generator, progress: Progress, label: str) -> None:
    """Adam on the trainable part of `module`, `epochs` shuffled passes in batches of BATCH."""
    n = len(target)
    per_epoch = math.ceil(n / BATCH)
    batches: list[np.ndarray] = []

    def loss_of_step(_: int) -> torch.Tensor:
        if not batches:
            batches.extend(reversed(np.array_split(rng.permutation(n), per_epoch)))
        idx = torch.as_tensor(batches.pop(), device=target.device)
        return F.cross_entropy(head(inputs[idx]).flatten(0, 1), target[idx].flatten())

    def report(fraction: float, message: str = "") -> None:
        progress(fraction, f"{label}: {message}")

    train_budgeted(module, loss_of_step, max_steps=epochs * per_epoch, lr=LEARNING_RATE, progress=report,
                   report_every=per_epoch)


def run(params: Params, progress: Progress) -> Result:
    steps = total_steps(params)
    if steps > MAX_STEPS:
        raise MethodInputError(f"labels x epochs: {steps} optimiser steps (3 x epochs x ceil(labels / {BATCH}) "
                               f"summed) is above the limit {MAX_STEPS}")
    start = time.perf_counter()
    report = MonotoneProgress(progress)
    device = torch_device()
    nodes = load_nodes(device)
    a, b = nodes["translator"], nodes["reverser"]
    test = random_words(TEST_WORDS, np.random.default_rng([params.seed, 1]))
    x_test = VOCAB.encode(test, WORD_LENGTH).to(device)
    y_test = VOCAB.encode([composed_target(w) for w in test], WORD_LENGTH).to(device)
    unmarked = float(np.mean([all(ch in BASE for ch in w) for w in test]))

    rows: list[LabelRow] = []
    gradients: Gradients | None = None
    parameters: dict[str, int] = {}
    done = 0
    for k, n in enumerate(params.labels):
        words = random_words(n, np.random.default_rng([params.seed, 2, k]))
        x = VOCAB.encode(words, WORD_LENGTH).to(device)
        y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH).to(device)
        dense = DenseNetwork(a, b, seed=params.seed)
        text = TextPipeline(a, b, seed=params.seed)
        single = SingleModel(b)
        with torch.no_grad():  # A sits before every trainable part: its outputs are computed once
            a_hidden, a_hidden_test = dense.node_a(x), dense.node_a(x_test)
            a_text, a_text_test = text.node_a_text(x), text.node_a_text(x_test)
        variants: dict[str, tuple[torch.nn.Module, Callable[[torch.Tensor], torch.Tensor], torch.Tensor,
                                  torch.Tensor]] = {
            "dense": (dense, dense.from_a, a_hidden, a_hidden_test),
            "text": (text, text.from_text, a_text, a_text_test),
            "single": (single, single, x, x_test),
        }
        scores: dict[str, float] = {}
        for name, (module, head, inputs, test_inputs) in variants.items():
            max_steps = params.epochs * math.ceil(n / BATCH)
            stage = report.stage(done / steps, (done + max_steps) / steps)
            _train(module, head, inputs, y, epochs=params.epochs, rng=np.random.default_rng([params.seed, 3, k]),
                   progress=stage, label=f"{n} labels, {name}")
            done += max_steps
            with torch.no_grad():
                scores[name] = _exact_match(head(test_inputs), y_test)
            parameters[name] = trainable_parameters(module)
        rows.append(LabelRow(labels=n, dense=scores["dense"], text=scores["text"], single=scores["single"]))
        if gradients is None or n == 200:
            probe = dense(x[:BATCH])  # tokens in: the whole network, node A included
            g = gradient_report(dense, F.cross_entropy(probe.flatten(0, 1), y[:BATCH].flatten()))
            gradients = Gradients(labels=n, edges_nonzero=bool(g["edges_nonzero"]),
                                  frozen_nonzero=bool(g["frozen_nonzero"]),
                                  frozen_requires_grad=int(g["frozen_requires_grad"]),
                                  edge_tensors=int(g["edge_tensors"]), frozen_tensors=int(g["frozen_tensors"]))
    assert gradients is not None
    report(1.0, "done")
    frozen = sum(p.numel() for p in a.parameters()) + sum(p.numel() for p in b.parameters())
    return Result(rows=rows, gradients=gradients, trainable_parameters=parameters, frozen_parameters=frozen,
                  text_ceiling=unmarked, test_words=TEST_WORDS, epochs=params.epochs, device=device,
                  seconds=time.perf_counter() - start)
