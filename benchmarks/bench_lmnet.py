"""LMNet: the training step with node A's frozen output cached vs recomputing the whole network each
step (the straightforward baseline), and the headline table over 3 seeds.

Usage: OMP_NUM_THREADS=1 python benchmarks/bench_lmnet.py
"""

from __future__ import annotations

import time

import numpy as np
import torch
import torch.nn.functional as F

from models.common import no_progress
from models.lmnet.languages import WORD_LENGTH, composed_target, random_words
from models.lmnet.network import DenseNetwork
from models.lmnet.nodes import VOCAB, load_nodes
from models.lmnet.params import Params
from models.lmnet.run import BATCH, run


def _step_seconds(network: DenseNetwork, forward, inputs: torch.Tensor, target: torch.Tensor, steps: int) -> float:
    optimiser = torch.optim.Adam([p for p in network.parameters() if p.requires_grad], lr=1e-3)
    start = time.perf_counter()
    for step in range(steps):
        idx = slice((step * BATCH) % len(target), (step * BATCH) % len(target) + BATCH)
        loss = F.cross_entropy(forward(inputs[idx]).flatten(0, 1), target[idx].flatten())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return (time.perf_counter() - start) / steps


def main() -> None:
    nodes = load_nodes("cpu")
    words = random_words(512, np.random.default_rng(0))
    x = VOCAB.encode(words, WORD_LENGTH)
    y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH)
    cached = DenseNetwork(nodes["translator"], nodes["reverser"], seed=0)
    with torch.no_grad():
        a_hidden = cached.node_a(x)
        assert torch.allclose(cached.from_a(a_hidden), cached(x)), "the cache must not change the logits"
    fast = _step_seconds(cached, cached.from_a, a_hidden, y, 200)
    baseline_net = DenseNetwork(nodes["translator"], nodes["reverser"], seed=0)
    slow = _step_seconds(baseline_net, baseline_net, x, y, 200)
    print("Core: one training step of the dense edge (batch 32)")
    print(f"  node A cached (ours)            {1000 * fast:7.2f} ms")
    print(f"  whole network every step (base) {1000 * slow:7.2f} ms   ratio {slow / fast:.2f}x, same logits")
    print("\nHeadline: exact match (%) on 500 test words, defaults (labels 50 and 200, 25 epochs)")
    print(f"{'seed':>4} {'labels':>6} {'dense':>7} {'text':>7} {'single':>7} {'dense-text':>11} {'grads ok':>9} {'s':>6}")
    for seed in (0, 1, 2):
        start = time.perf_counter()
        result = run(Params(seed=seed), no_progress)
        ok = result.gradients.edges_nonzero and not result.gradients.frozen_nonzero
        for row in result.rows:
            print(f"{seed:>4} {row.labels:>6} {100 * row.dense:>7.1f} {100 * row.text:>7.1f} {100 * row.single:>7.1f} "
                  f"{100 * (row.dense - row.text):>+11.1f} {str(ok):>9} {time.perf_counter() - start:>6.1f}")


if __name__ == "__main__":
    main()
