"""One seed of LMNet: train every variant at every label count on nested label subsets, score on test words.

Variants (all trained by `train.train_early_stopped`, the same steps and held-out split):
- dense (LMNet): A's dense output -> trainable edge -> B's blocks;
- text: A's greedy text -> B's embedding -> trainable edge -> B's blocks (the pipeline that talks in text);
- full: the same A -> edge -> B network with every weight trainable (both nodes and the edge): the fair
  fine-tuning baseline, it holds both skills (an outside review found it ahead of LMNet);
- single: node A with every weight fine-tuned (of the two nodes, the one fine-tuning does best with);
- lora: node B frozen with LoRA adapters of about the edge's parameter count (Hu et al. 2022).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from models.common.progress import MonotoneProgress
from models.common.tiny import TinyTransformer
from models.lmnet.languages import BASE, WORD_LENGTH, composed_target, random_words
from models.lmnet.network import (
    DenseNetwork,
    FullNetwork,
    LoRAModel,
    SingleModel,
    TextPipeline,
    gradient_report,
    lora_rank_matching,
    trainable_parameters,
)
from models.lmnet.nodes import VOCAB
from models.lmnet.train import BATCH, exact_match, split_labels, train_early_stopped

__all__ = ["LEARNING_RATES", "TEST_WORDS", "VARIANTS", "SeedOutcome", "run_seed"]

VARIANTS = ("dense", "full", "text", "single", "lora")
# Chosen on held-out words in trials at 50-1000 labels (full fine-tuning is unstable above 1e-3; LoRA's
# zero-initialised adapters need a larger step).
LEARNING_RATES = {"dense": 3e-3, "full": 1e-3, "text": 3e-3, "single": 1e-3, "lora": 1e-2}
TEST_WORDS = 500
POOL_WORDS = 1000  # the most labels a run may ask for (Params.labels)
Head = Callable[[torch.Tensor], torch.Tensor]


@dataclass
class SeedOutcome:
    seed: int
    scores: dict[int, dict[str, float]]  # label count -> variant -> test exact match
    correct: dict[int, dict[str, list[bool]]]  # label count -> variant (and "text_untrained") -> per test word
    train_seconds: dict[int, dict[str, float]]  # label count -> variant -> CPU seconds of training
    text_untrained: dict[int, float]  # label count -> the text pipeline's test exact match before training
    text_ceiling: float
    gradients: dict[str, bool | int]
    parameters: dict[str, int]
    lora_rank: int


def _variants(a: TinyTransformer, b: TinyTransformer, seed: int, x: torch.Tensor,
              x_test: torch.Tensor) -> dict[str, tuple[torch.nn.Module, Head, torch.Tensor, torch.Tensor]]:
    """Each variant: (module, head from its inputs to logits, training inputs, test inputs)."""
    dense = DenseNetwork(a, b, seed=seed)
    full = FullNetwork(a, b, seed=seed)
    text = TextPipeline(a, b, seed=seed)
    single = SingleModel(a)
    lora = LoRAModel(b, lora_rank_matching(b, trainable_parameters(dense.edge)), seed=seed)
    with torch.no_grad():  # A sits before every trainable part of the network variants: computed once
        a_hidden, a_hidden_test = dense.node_a(x), dense.node_a(x_test)
        a_text, a_text_test = text.node_a_text(x), text.node_a_text(x_test)
    return {"dense": (dense, dense.from_a, a_hidden, a_hidden_test), "full": (full, full, x, x_test),
            "text": (text, text.from_text, a_text, a_text_test),
            "single": (single, single, x, x_test), "lora": (lora, lora, x, x_test)}


def run_seed(seed: int, labels: Sequence[int], *, steps: int, mark_probability: float,
             nodes: dict[str, TinyTransformer], device: str, progress: MonotoneProgress) -> SeedOutcome:
    a, b = nodes["translator"], nodes["reverser"]
    test = random_words(TEST_WORDS, np.random.default_rng([seed, 1]), mark_probability)
    x_test = VOCAB.encode(test, WORD_LENGTH).to(device)
    y_test = VOCAB.encode([composed_target(w) for w in test], WORD_LENGTH).to(device)
    # One pool of labelled words per seed, always of the same size (random_words draws all letters before all
    # marks, so a pool sized by the run's largest count would change the first words' marks); a label count
    # takes its first n words: nested subsets, the same whatever the other counts of the run are.
    pool = random_words(max(POOL_WORDS, *labels), np.random.default_rng([seed, 2]), mark_probability)
    scores: dict[int, dict[str, float]] = {}
    correct: dict[int, dict[str, list[bool]]] = {}
    seconds: dict[int, dict[str, float]] = {}
    untrained: dict[int, float] = {}
    parameters: dict[str, int] = {}
    gradients: dict[str, bool | int] = {}
    counts = sorted(set(labels))
    for i, n in enumerate(counts):
        words = pool[:n]
        x = VOCAB.encode(words, WORD_LENGTH).to(device)
        y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH).to(device)
        variants = _variants(a, b, seed, x, x_test)
        scores[n], correct[n], seconds[n] = {}, {}, {}
        for j, (name, (module, head, inputs, test_inputs)) in enumerate(variants.items()):
            k = i * len(variants) + j
            stage = progress.stage(k / (len(counts) * len(variants)), (k + 1) / (len(counts) * len(variants)))
            if name == "dense":
                with torch.no_grad():
                    correct[n]["dense_untrained"] = (head(test_inputs).argmax(-1) == y_test).all(dim=1).cpu().tolist()
            if name == "text":
                with torch.no_grad():
                    before = head(test_inputs)
                    untrained[n] = exact_match(before, y_test)
                    correct[n]["text_untrained"] = (before.argmax(-1) == y_test).all(dim=1).cpu().tolist()
            cpu = time.process_time()
            train_early_stopped(module, head, inputs, y, split_labels(n), steps=steps, lr=LEARNING_RATES[name],
                                rng=np.random.default_rng([seed, 3, n]),
                                progress=lambda f, m="", s=stage, t=f"{n} labels, {name}": s(f, f"{t}: {m}"))
            seconds[n][name] = time.process_time() - cpu
            with torch.no_grad():
                logits = head(test_inputs)
                scores[n][name] = exact_match(logits, y_test)
                correct[n][name] = (logits.argmax(-1) == y_test).all(dim=1).cpu().tolist()
            parameters[name] = trainable_parameters(module)
        dense = variants["dense"][0]
        assert isinstance(dense, DenseNetwork)
        probe = dense(x[:BATCH])  # tokens in: the whole network, node A included
        gradients = gradient_report(dense, F.cross_entropy(probe.flatten(0, 1), y[:BATCH].flatten()))
    return SeedOutcome(seed=seed, scores=scores, correct=correct, train_seconds=seconds, text_untrained=untrained,
                       text_ceiling=float(np.mean([all(ch in BASE for ch in w) for w in test])),
                       gradients=gradients, parameters=parameters,
                       lora_rank=lora_rank_matching(b, parameters["dense"]))
