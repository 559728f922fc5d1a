"""The pre-trained vertices: two tiny character-level transformers and their pre-training.

Each node is a `models.common.tiny.TinyTransformer` (bidirectional attention, one output character
per input position, greedy decoding = the argmax at each position) pre-trained on its own synthetic
language task (`languages.py`). `scripts/train_lmnet.py` trains them and writes the weights under
`static/weights/lmnet/`; `load_nodes` reads them back frozen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models.common.contract import Progress, no_progress
from models.common.device import seeded_init
from models.common.paths import static_path
from models.common.tiny import CharVocab, TinyTransformer, train_budgeted
from models.lmnet.languages import ALPHABET, WORD_LENGTH, random_words, reverser_target, translator_target

__all__ = ["DIM", "HEADS", "LAYERS", "NODE_TASKS", "VOCAB", "build_node", "freeze", "load_nodes", "pretrain_node",
           "weights_dir"]

DIM = 32
HEADS = 2
LAYERS = 2
VOCAB = CharVocab(ALPHABET)
NODE_TASKS: dict[str, Callable[[str], str]] = {"translator": translator_target, "reverser": reverser_target}


def build_node(seed: int = 0) -> TinyTransformer:
    """An untrained node of the fixed size (the shipped weights need exactly this shape)."""
    module = seeded_init(seed, lambda: TinyTransformer(len(VOCAB), dim=DIM, heads=HEADS, layers=LAYERS,
                                                         max_len=WORD_LENGTH, causal=False))
    assert isinstance(module, TinyTransformer)
    return module


def freeze(module: torch.nn.Module) -> torch.nn.Module:
    """No parameter of `module` takes gradients; evaluation mode."""
    for p in module.parameters():
        p.requires_grad_(False)
    return module.eval()


def weights_dir() -> Path:
    return static_path("weights", "lmnet")


def load_nodes(device: str, directory: Path | None = None) -> dict[str, TinyTransformer]:
    """The shipped pre-trained nodes, frozen, on `device`."""
    directory = directory or weights_dir()
    nodes = {}
    for name in NODE_TASKS:
        node = build_node()
        node.load_state_dict(torch.load(directory / f"{name}.pt", map_location="cpu", weights_only=True))
        freeze(node.to(device))
        nodes[name] = node
    return nodes


def pretrain_node(task: str, *, steps: int = 1500, batch: int = 64, seed: int = 0, device: str = "cpu",
                  progress: Progress = no_progress) -> tuple[TinyTransformer, float]:
    """Train a node on its language task from fresh random words; returns it and its held-out exact match."""
    target_of = NODE_TASKS[task]
    node = build_node(seed).to(device)
    rng = np.random.default_rng(seed)

    def loss_of_step(_: int) -> torch.Tensor:
        words = random_words(batch, rng)
        x = VOCAB.encode(words, WORD_LENGTH).to(device)
        y = VOCAB.encode([target_of(w) for w in words], WORD_LENGTH).to(device)
        return F.cross_entropy(node(x).flatten(0, 1), y.flatten())

    train_budgeted(node, loss_of_step, max_steps=steps, lr=3e-3, progress=progress, report_every=100)
    test = random_words(2000, np.random.default_rng(seed + 10_000))
    with torch.no_grad():
        pred = node(VOCAB.encode(test, WORD_LENGTH).to(device)).argmax(-1).cpu()
    truth = VOCAB.encode([target_of(w) for w in test], WORD_LENGTH)
    exact = float((pred == truth).all(dim=1).float().mean())
    return node, exact
