"""HEDP: the speed of batched prompt scoring and fused selection against a per-sample loop, and the
paper's checks over seeds.

* Core: for every test input, every prompt's logits and energy, the distance to every centroid and the
  fused prompt weights and mixed prediction. Batched: one forward per prompt over all inputs and one
  einsum. Baseline: the straightforward per-sample Python loop (one input, one prompt at a time).
  Same predictions (checked).
* The headline table: defaults for seeds 0, 1, 2.

    python benchmarks/bench_hedp.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.common import no_progress  # noqa: E402
from models.hedp import SPEC  # noqa: E402
from models.hedp.params import Params  # noqa: E402
from models.hedp.prompts import Backbone, Prompt, energy  # noqa: E402
from models.hedp.selection import CueStatistics, DomainScores, select  # noqa: E402


def _setup(n: int):
    g = torch.Generator().manual_seed(0)
    backbone = Backbone(64, 256, g)
    prompts = [Prompt(64, 256, 10, g) for _ in range(4)]
    with torch.no_grad():
        for p in prompts:
            p.offset.copy_(0.1 * torch.randn(64, generator=g))
    x = torch.rand(n, 64, generator=g)
    means = torch.rand(4, 256, generator=g)
    stats = CueStatistics(np.full(4, -5.0), np.ones(4), np.full(4, 50.0), np.full(4, 10.0))
    return backbone, prompts, x, means, stats


@torch.no_grad()
def batched(backbone, prompts, x, means, stats) -> np.ndarray:
    logits = torch.stack([p(backbone, x) for p in prompts], dim=1)
    e = energy(logits.flatten(0, 1)).reshape(logits.shape[:2])
    d = ((backbone(x)[:, None, :] - means[None]) ** 2).sum(dim=2)
    scores = DomainScores(e.numpy(), d.numpy(), torch.softmax(logits, dim=2).numpy(), np.zeros(len(x), dtype=int))
    return select("hybrid", scores, stats, 0.5, 1.0)[1]


@torch.no_grad()
def loop(backbone, prompts, x, means, stats) -> np.ndarray:
    out = []
    for row in x:
        xi = row[None]
        feats = backbone(xi)[0]
        fused, probs = [], []
        for k, p in enumerate(prompts):
            logit = p(backbone, xi)[0]
            e = float(-torch.logsumexp(logit, dim=0))
            d = float(((feats - means[k]) ** 2).sum())
            z_e = (e - stats.energy_mean[k]) / stats.energy_std[k]
            z_d = (d - stats.distance_mean[k]) / stats.distance_std[k]
            fused.append(-(0.5 * z_e + 0.5 * z_d))
            probs.append(torch.softmax(logit, dim=0).numpy())
        w = np.exp(np.array(fused) - max(fused))
        w /= w.sum()
        out.append(int(np.argmax(sum(wk * pk for wk, pk in zip(w, probs, strict=True)))))
    return np.array(out)


def main() -> None:
    torch.set_num_threads(1)
    print("fused selection: batched vs per-sample loop (4 prompts, 256 features)")
    print(f"{'n':>6} {'batched (ms)':>13} {'loop (ms)':>10} {'ratio':>7} {'same':>5}")
    for n in (100, 450, 2000):
        args = _setup(n)
        batched(*args)
        t0 = time.perf_counter()
        fast = batched(*args)
        t1 = time.perf_counter()
        slow = loop(*args)
        t2 = time.perf_counter()
        print(f"{n:>6} {(t1 - t0) * 1e3:>13.2f} {(t2 - t1) * 1e3:>10.1f} {(t2 - t1) / (t1 - t0):>7.0f} {str(bool((fast == slow).all())):>5}")
    print("\nheadline: defaults (30 epochs, energy weight 0.1, w = 0.5), per seed; accuracies in %")
    print(f"{'seed':>4} {'selector':>17} {'selection':>9} {'seen':>6} {'unseen':>7}")
    for seed in (0, 1, 2):
        r = SPEC.run(Params(seed=seed), no_progress)
        for k in r.selection_accuracy:
            print(f"{seed:>4} {k:>17} {100 * r.selection_accuracy[k]:>9.1f} {100 * r.seen_accuracy[k]:>6.1f} {100 * r.unseen_accuracy[k]:>7.1f}")
        v = r.verdict()
        print(f"     verdict: {v.label} ({v.tone}); {r.seconds:.1f} s")


if __name__ == "__main__":
    main()
