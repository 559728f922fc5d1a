"""LMNet: the training step with node A's frozen output cached against recomputing the whole network each
step (the straightforward baseline), the default run's time against the previous version's (optional), and
the supervision-efficiency table over 3 seeds.

Usage: OMP_NUM_THREADS=1 python benchmarks/bench_lmnet.py [--previous DIR]
DIR: a copy of the previous version's tree (`git archive <commit> models static/weights/lmnet | tar -x -C DIR`);
its default run is timed in a subprocess with DIR first on the path.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

from models.common.contract import no_progress
from models.lmnet.languages import WORD_LENGTH, composed_target, random_words
from models.lmnet.network import DenseNetwork
from models.lmnet.nodes import VOCAB, load_nodes
from models.lmnet.params import Params
from models.lmnet.run import run
from models.lmnet.train import BATCH, Adam

TIMED_DEFAULT = ("import time\nfrom models.common.contract import no_progress\nfrom models.lmnet.params import Params\n"
                 "from models.lmnet.run import run\nt = time.perf_counter(); run(Params(), no_progress)\n"
                 "print(time.perf_counter() - t)\n")


def _step_seconds(network: DenseNetwork, forward, inputs: torch.Tensor, target: torch.Tensor, steps: int) -> float:
    optimiser = Adam([p for p in network.parameters() if p.requires_grad], lr=1e-3)
    start = time.perf_counter()
    for step in range(steps):
        idx = slice((step * BATCH) % len(target), (step * BATCH) % len(target) + BATCH)
        loss = F.cross_entropy(forward(inputs[idx]).flatten(0, 1), target[idx].flatten())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return (time.perf_counter() - start) / steps


def _default_seconds(root: str) -> float:
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", TIMED_DEFAULT], cwd=root, env=env, check=True, capture_output=True,
                         text=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--previous", help="a copy of the previous version's tree, to time its default run")
    args = parser.parse_args()
    nodes = load_nodes("cpu")
    words = random_words(512, np.random.default_rng(0))
    x = VOCAB.encode(words, WORD_LENGTH)
    y = VOCAB.encode([composed_target(w) for w in words], WORD_LENGTH)
    cached = DenseNetwork(nodes["translator"], nodes["reverser"], seed=0)
    with torch.no_grad():
        a_hidden = cached.node_a(x)
        assert torch.allclose(cached.from_a(a_hidden), cached(x)), "the cache must not change the logits"
    fast = _step_seconds(cached, cached.from_a, a_hidden, y, 200)
    whole = DenseNetwork(nodes["translator"], nodes["reverser"], seed=0)
    slow = _step_seconds(whole, whole, x, y, 200)
    print("Core: one training step of the dense edge (batch 32)")
    print(f"  node A cached (ours)            {1000 * fast:7.2f} ms")
    print(f"  whole network every step (base) {1000 * slow:7.2f} ms   ratio {slow / fast:.2f}x, same logits")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print("\nDefault run (labels 50 and 200), run() only, imports excluded")
    print(f"  this version       {_default_seconds(repo):6.1f} s  (5 variants x 300 steps, early stopping)")
    if args.previous:
        print(f"  previous version   {_default_seconds(args.previous):6.1f} s  (3 variants x 25 epochs)")
    print("\nSupervision efficiency: test exact match (%) on 500 words, 300 steps, per seed")
    print(f"{'seed':>4} {'labels':>6} {'dense':>7} {'full':>7} {'text':>7} {'single':>7} {'lora':>7} {'dense-best FT':>14}"
          f" {'CPU s dense/full':>17}")
    start = time.perf_counter()
    result = run(Params(labels=[25, 50, 100, 200, 400], seeds=3), no_progress)
    for row in result.per_seed:
        s = row.scores
        print(f"{row.seed:>4} {row.labels:>6} {100 * s['dense']:>7.1f} {100 * s['full']:>7.1f} {100 * s['text']:>7.1f} "
              f"{100 * s['single']:>7.1f} {100 * s['lora']:>7.1f} "
              f"{100 * (s['dense'] - max(s['full'], s['single'], s['lora'])):>+14.1f} "
              f"{row.train_seconds['dense']:>8.2f}/{row.train_seconds['full']:.2f}")
    print(f"3 seeds in {time.perf_counter() - start:.1f} s; verdict: {result.verdict().label}")


if __name__ == "__main__":
    main()
